-- countermem sql-shop, variant "retail": list prices live in products, order status is a word.
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  city TEXT,
  country TEXT,
  signup_date TEXT,  -- ISO date, YYYY-MM-DD
  segment TEXT       -- 'consumer' or 'business'
);
INSERT INTO customers
SELECT customer_id, first_name || ' ' || last_name, email, city, country, signup_date,
       CASE is_business WHEN 1 THEN 'business' ELSE 'consumer' END
FROM base_customers ORDER BY customer_id;

CREATE TABLE suppliers (supplier_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
INSERT INTO suppliers SELECT supplier_id, name, country FROM base_suppliers ORDER BY supplier_id;

CREATE TABLE products (
  product_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT,  -- 'Electronics', 'Books', 'Kitchen', 'Garden', 'Toys'
  price REAL,     -- list price in euros
  supplier_id INTEGER REFERENCES suppliers (supplier_id)
);
INSERT INTO products
SELECT p.product_id, p.name, c.name, p.price, p.supplier_id
FROM base_products AS p JOIN base_categories AS c ON c.category_id = p.category_id
ORDER BY p.product_id;

CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  order_date TEXT,  -- ISO date, YYYY-MM-DD
  status TEXT       -- 'shipped', 'pending', 'cancelled', 'returned'
);
INSERT INTO orders SELECT order_id, customer_id, order_date, status FROM base_orders ORDER BY order_id;

CREATE TABLE order_items (
  order_id INTEGER NOT NULL REFERENCES orders (order_id),
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  quantity INTEGER NOT NULL,
  PRIMARY KEY (order_id, product_id)
);
INSERT INTO order_items
SELECT order_id, product_id, quantity FROM base_order_items ORDER BY order_id, line_no;
