-- countermem sql-shop, variant "crm": customers and suppliers share one "parties" table
-- (told apart by kind), orders are "sales_orders" with capitalised status words.
CREATE TABLE parties (
  party_id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,        -- 'customer' or 'supplier'
  display_name TEXT NOT NULL,
  email TEXT,
  city TEXT,                 -- NULL for suppliers
  country TEXT,
  created_on TEXT,           -- ISO date, YYYY-MM-DD (for customers: signup date)
  is_company INTEGER         -- 1 for companies (business customers and every supplier), else 0
);
INSERT INTO parties
SELECT customer_id, 'customer', first_name || ' ' || last_name, email, city, country, signup_date, is_business
FROM base_customers ORDER BY customer_id;
INSERT INTO parties
SELECT 100 + supplier_id, 'supplier', name, NULL, NULL, country, '2021-01-01', 1
FROM base_suppliers ORDER BY supplier_id;

CREATE TABLE products (
  product_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT,  -- 'Electronics', 'Books', 'Kitchen', 'Garden', 'Toys'
  price_eur REAL, -- list price in euros
  supplier_party_id INTEGER REFERENCES parties (party_id)
);
INSERT INTO products
SELECT p.product_id, p.name, c.name, p.price, 100 + p.supplier_id
FROM base_products AS p JOIN base_categories AS c ON c.category_id = p.category_id
ORDER BY p.product_id;

CREATE TABLE sales_orders (
  order_id INTEGER PRIMARY KEY,
  party_id INTEGER NOT NULL REFERENCES parties (party_id),  -- the customer
  placed_on TEXT,  -- ISO date, YYYY-MM-DD
  status TEXT      -- 'Shipped', 'Pending', 'Cancelled', 'Returned'
);
INSERT INTO sales_orders
SELECT order_id, customer_id, order_date, upper(substr(status, 1, 1)) || substr(status, 2)
FROM base_orders ORDER BY order_id;

CREATE TABLE order_lines (
  order_id INTEGER NOT NULL REFERENCES sales_orders (order_id),
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  quantity INTEGER NOT NULL,
  PRIMARY KEY (order_id, product_id)
);
INSERT INTO order_lines
SELECT order_id, product_id, quantity FROM base_order_items ORDER BY order_id, line_no;
