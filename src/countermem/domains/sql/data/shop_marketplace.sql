-- countermem sql-shop, variant "marketplace": surrogate "id" keys, names split in two, prices
-- in cents, categories in their own table, one-letter status codes, returns in their own table,
-- signup dates written day/month/year.
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT,
  city TEXT,
  country TEXT,
  signup_date TEXT,   -- DD/MM/YYYY
  account_type TEXT   -- 'B' business, 'P' private
);
INSERT INTO customers
SELECT customer_id, first_name, last_name, email, city, country, strftime('%d/%m/%Y', signup_date),
       CASE is_business WHEN 1 THEN 'B' ELSE 'P' END
FROM base_customers ORDER BY customer_id;

CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO categories SELECT category_id, name FROM base_categories ORDER BY category_id;

CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
INSERT INTO suppliers SELECT supplier_id, name, country FROM base_suppliers ORDER BY supplier_id;

CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category_id INTEGER REFERENCES categories (id),
  price_cents INTEGER,  -- list price in euro cents
  supplier_id INTEGER REFERENCES suppliers (id)
);
INSERT INTO products
SELECT product_id, name, category_id, CAST(round(price * 100) AS INTEGER), supplier_id
FROM base_products ORDER BY product_id;

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  created_at TEXT,  -- 'YYYY-MM-DD HH:MM:SS'
  status TEXT       -- 'S' shipped, 'P' pending, 'C' cancelled, 'R' returned
);
INSERT INTO orders
SELECT order_id, customer_id, datetime(order_date, '+' || second_of_day || ' seconds'),
       CASE status WHEN 'shipped' THEN 'S' WHEN 'pending' THEN 'P' WHEN 'cancelled' THEN 'C' ELSE 'R' END
FROM base_orders ORDER BY order_id;

CREATE TABLE order_items (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  product_id INTEGER NOT NULL REFERENCES products (id),
  qty INTEGER NOT NULL
);
INSERT INTO order_items (order_id, product_id, qty)
SELECT order_id, product_id, quantity FROM base_order_items ORDER BY order_id, line_no;

CREATE TABLE returns (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (id),
  returned_on TEXT,  -- 'YYYY-MM-DD'
  reason TEXT
);
INSERT INTO returns (order_id, returned_on, reason)
SELECT o.order_id, date(o.order_date, '+' || (10 + o.order_id % 9) || ' days'), r.reason
FROM base_orders AS o JOIN base_return_reasons AS r ON r.i = o.order_id % 5
WHERE o.status = 'returned' ORDER BY o.order_id;
