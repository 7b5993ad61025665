-- countermem sql-shop: base facts shared by every schema variant.
-- Everything is derived from fixed lists and integer arithmetic (no random()), so every build
-- gives the same rows. Tables are TEMP: a variant script reshapes them into its own schema and
-- they vanish when the build connection closes.

CREATE TEMP TABLE base_cities (city_id INTEGER PRIMARY KEY, city TEXT, country TEXT);
INSERT INTO base_cities VALUES
  (0, 'Lisbon', 'Portugal'), (1, 'Porto', 'Portugal'), (2, 'Madrid', 'Spain'),
  (3, 'Seville', 'Spain'), (4, 'Lyon', 'France'), (5, 'Paris', 'France'),
  (6, 'Berlin', 'Germany'), (7, 'Hamburg', 'Germany'), (8, 'Vienna', 'Austria');

CREATE TEMP TABLE base_first_names (i INTEGER PRIMARY KEY, first_name TEXT);
INSERT INTO base_first_names VALUES
  (0, 'Ana'), (1, 'Bruno'), (2, 'Carla'), (3, 'David'), (4, 'Elena'), (5, 'Felix'), (6, 'Greta'),
  (7, 'Hugo'), (8, 'Ines'), (9, 'Jonas'), (10, 'Klara'), (11, 'Luis'), (12, 'Marta'), (13, 'Nico'),
  (14, 'Olga'), (15, 'Pablo'), (16, 'Rosa'), (17, 'Sven'), (18, 'Tania'), (19, 'Victor');

CREATE TEMP TABLE base_last_names (i INTEGER PRIMARY KEY, last_name TEXT);
INSERT INTO base_last_names VALUES
  (0, 'Almeida'), (1, 'Becker'), (2, 'Costa'), (3, 'Dubois'), (4, 'Esteban'), (5, 'Fischer'),
  (6, 'Garcia'), (7, 'Hofmann'), (8, 'Ibarra'), (9, 'Jansen'), (10, 'Keller'), (11, 'Lopez'),
  (12, 'Martin'), (13, 'Novak'), (14, 'Oliveira');

-- 60 customers; the city mapping is skewed on purpose so that "the city with the most
-- customers" has one answer. Customers 57..60 never order.
CREATE TEMP TABLE base_customers AS
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 60)
SELECT
  n AS customer_id,
  f.first_name,
  l.last_name,
  c.city,
  c.country,
  date('2022-03-01', '+' || ((n * 53) % 900) || ' days') AS signup_date,
  CASE WHEN n % 5 = 0 THEN 1 ELSE 0 END AS is_business,
  lower(f.first_name) || '.' || lower(l.last_name) || n || '@example.com' AS email
FROM seq
JOIN base_first_names AS f ON f.i = (n - 1) % 20
JOIN base_last_names AS l ON l.i = (n * 7) % 15
JOIN base_cities AS c ON c.city_id = CASE WHEN n % 4 = 1 THEN 2 ELSE (n * 5) % 9 END;

CREATE TEMP TABLE base_suppliers (supplier_id INTEGER PRIMARY KEY, name TEXT, country TEXT);
INSERT INTO base_suppliers VALUES
  (1, 'Iberia Goods', 'Spain'), (2, 'Nordlicht GmbH', 'Germany'), (3, 'Atelier Lumiere', 'France'),
  (4, 'Tejo Trading', 'Portugal'), (5, 'Donau Supply', 'Austria'), (6, 'Rhein Werke', 'Germany'),
  (7, 'Sol y Sombra', 'Spain'), (8, 'Petit Monde', 'France');

CREATE TEMP TABLE base_categories (category_id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO base_categories VALUES
  (1, 'Electronics'), (2, 'Books'), (3, 'Kitchen'), (4, 'Garden'), (5, 'Toys');

-- 30 products; list price in euros with cents.
CREATE TEMP TABLE base_products (
  product_id INTEGER PRIMARY KEY, name TEXT, category_id INTEGER, price REAL, supplier_id INTEGER
);
INSERT INTO base_products VALUES
  (1, 'Wireless Mouse', 1, 24.99, 2), (2, 'USB-C Charger', 1, 19.5, 2),
  (3, 'Noise Cancelling Headphones', 1, 189.0, 6), (4, 'Bluetooth Speaker', 1, 59.9, 6),
  (5, 'E-Reader', 1, 129.0, 2), (6, 'Webcam HD', 1, 44.75, 1),
  (7, 'The Silent Orchard', 2, 14.9, 3), (8, 'Cooking with Fire', 2, 29.0, 3),
  (9, 'A Short History of Maps', 2, 22.5, 8), (10, 'Night Trains', 2, 11.99, 8),
  (11, 'Garden Birds Atlas', 2, 34.0, 4), (12, 'Learning SQL', 2, 39.95, 3),
  (13, 'Chef Knife', 3, 79.0, 7), (14, 'Cast Iron Pan', 3, 54.5, 7),
  (15, 'Espresso Maker', 3, 99.0, 4), (16, 'Bamboo Cutting Board', 3, 18.25, 1),
  (17, 'Tea Kettle', 3, 36.8, 5), (18, 'Salad Spinner', 3, 21.0, 5),
  (19, 'Pruning Shears', 4, 27.4, 7), (20, 'Watering Can', 4, 16.0, 4),
  (21, 'Herb Seed Kit', 4, 12.5, 1), (22, 'Garden Hose 25m', 4, 42.0, 6),
  (23, 'Compost Bin', 4, 64.0, 5), (24, 'Wooden Puzzle', 5, 19.99, 8),
  (25, 'Building Blocks Set', 5, 49.0, 8), (26, 'Plush Bear', 5, 15.0, 3),
  (27, 'Kite', 5, 23.5, 1), (28, 'Board Game Classic', 5, 34.9, 8),
  (29, 'Toy Train', 5, 58.0, 6), (30, 'Jigsaw 1000 Pieces', 5, 17.75, 4);

-- 240 orders from customers 1..56. Status precedence: cancelled, returned, pending, shipped.
CREATE TEMP TABLE base_orders AS
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 240)
SELECT
  n AS order_id,
  1 + ((n * 17) % 56) AS customer_id,
  date('2023-07-01', '+' || ((n * 7) % 400) || ' days') AS order_date,
  (n * 3607) % 86400 AS second_of_day,
  CASE
    WHEN n % 11 = 0 THEN 'cancelled'
    WHEN n % 13 = 0 THEN 'returned'
    WHEN n % 9 = 0 THEN 'pending'
    ELSE 'shipped'
  END AS status
FROM seq;

-- 1 to 3 lines per order, never the same product twice in one order. Some lines were sold
-- at a 15 % discount: the unit price actually paid then differs from the list price.
CREATE TEMP TABLE base_order_items AS
WITH RECURSIVE lines(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM lines WHERE k < 2)
SELECT
  o.order_id,
  k AS line_no,
  1 + ((o.order_id * 7 + k * 11) % 30) AS product_id,
  1 + ((o.order_id * 3 + k) % 5) AS quantity,
  CASE WHEN (o.order_id + k) % 6 = 0 THEN 1 ELSE 0 END AS discounted
FROM base_orders AS o
JOIN lines ON lines.k <= o.order_id % 3;

CREATE TEMP TABLE base_return_reasons (i INTEGER PRIMARY KEY, reason TEXT);
INSERT INTO base_return_reasons VALUES
  (0, 'damaged'), (1, 'wrong item'), (2, 'damaged'), (3, 'changed mind'), (4, 'too late');
