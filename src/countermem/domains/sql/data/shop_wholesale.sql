-- countermem sql-shop, variant "wholesale": buyers are "clients", the price actually paid lives
-- in order_items (some lines were discounted), status is an integer code, times are Unix epochs.
CREATE TABLE clients (
  client_id INTEGER PRIMARY KEY,
  full_name TEXT NOT NULL,
  email TEXT,
  city TEXT,
  country TEXT,
  created_at INTEGER,  -- signup time, seconds since 1970-01-01 UTC
  is_business INTEGER  -- 1 business client, 0 private client
);
INSERT INTO clients
SELECT customer_id, first_name || ' ' || last_name, email, city, country,
       CAST(strftime('%s', signup_date) AS INTEGER) + (customer_id * 2311) % 86400, is_business
FROM base_customers ORDER BY customer_id;

CREATE TABLE vendors (vendor_id INTEGER PRIMARY KEY, vendor_name TEXT NOT NULL, country TEXT);
INSERT INTO vendors SELECT supplier_id, name, country FROM base_suppliers ORDER BY supplier_id;

CREATE TABLE products (
  product_id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  category TEXT,  -- lower-case code: 'electronics', 'books', 'kitchen', 'garden', 'toys'
  vendor_id INTEGER REFERENCES vendors (vendor_id)
);
INSERT INTO products
SELECT p.product_id, p.name, lower(c.name), p.supplier_id
FROM base_products AS p JOIN base_categories AS c ON c.category_id = p.category_id
ORDER BY p.product_id;

CREATE TABLE order_status (code INTEGER PRIMARY KEY, label TEXT NOT NULL);
INSERT INTO order_status VALUES (0, 'pending'), (1, 'shipped'), (2, 'cancelled'), (3, 'returned');

CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  client_id INTEGER NOT NULL REFERENCES clients (client_id),
  ordered_at INTEGER,  -- seconds since 1970-01-01 UTC
  status INTEGER NOT NULL REFERENCES order_status (code)
);
INSERT INTO orders
SELECT order_id, customer_id, CAST(strftime('%s', order_date) AS INTEGER) + second_of_day,
       CASE status WHEN 'pending' THEN 0 WHEN 'shipped' THEN 1 WHEN 'cancelled' THEN 2 ELSE 3 END
FROM base_orders ORDER BY order_id;

CREATE TABLE order_items (
  order_id INTEGER NOT NULL REFERENCES orders (order_id),
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  quantity INTEGER NOT NULL,
  unit_price REAL NOT NULL,  -- euros actually paid per unit (after any discount)
  PRIMARY KEY (order_id, product_id)
);
INSERT INTO order_items
SELECT i.order_id, i.product_id, i.quantity,
       CASE i.discounted WHEN 1 THEN round(p.price * 0.85, 2) ELSE p.price END
FROM base_order_items AS i JOIN base_products AS p ON p.product_id = i.product_id
ORDER BY i.order_id, i.line_no;
