-- countermem sql-shop, variant "legacy": an old ERP export with abbreviated upper-case names,
-- yyyymmdd integer dates, country and category codes, and line amounts instead of unit prices.
CREATE TABLE CUST (
  CUST_NO INTEGER PRIMARY KEY,
  CUST_NM TEXT NOT NULL,  -- upper case, 'FIRST LAST'
  EMAIL_ADR TEXT,
  CITY_NM TEXT,           -- upper case
  CTRY_CD TEXT,           -- ISO code: 'PT', 'ES', 'FR', 'DE', 'AT'
  SIGNUP_DT INTEGER,      -- yyyymmdd, e.g. 20230415
  CUST_TYP TEXT           -- 'BUS' business, 'CON' consumer
);
INSERT INTO CUST
SELECT customer_id, upper(first_name || ' ' || last_name), email, upper(city),
       CASE country WHEN 'Portugal' THEN 'PT' WHEN 'Spain' THEN 'ES' WHEN 'France' THEN 'FR'
                    WHEN 'Germany' THEN 'DE' ELSE 'AT' END,
       CAST(strftime('%Y%m%d', signup_date) AS INTEGER),
       CASE is_business WHEN 1 THEN 'BUS' ELSE 'CON' END
FROM base_customers ORDER BY customer_id;

CREATE TABLE SUPP (SUPP_NO INTEGER PRIMARY KEY, SUPP_NM TEXT NOT NULL, CTRY_CD TEXT);
INSERT INTO SUPP
SELECT supplier_id, name,
       CASE country WHEN 'Portugal' THEN 'PT' WHEN 'Spain' THEN 'ES' WHEN 'France' THEN 'FR'
                    WHEN 'Germany' THEN 'DE' ELSE 'AT' END
FROM base_suppliers ORDER BY supplier_id;

CREATE TABLE PROD (
  PROD_NO INTEGER PRIMARY KEY,
  PROD_NM TEXT NOT NULL,
  CAT_CD TEXT,      -- 'ELEC' electronics, 'BOOK' books, 'KITC' kitchen, 'GARD' garden, 'TOYS' toys
  LIST_PRC REAL,    -- list price in euros
  SUPP_NO INTEGER REFERENCES SUPP (SUPP_NO)
);
INSERT INTO PROD
SELECT product_id, name,
       CASE category_id WHEN 1 THEN 'ELEC' WHEN 2 THEN 'BOOK' WHEN 3 THEN 'KITC' WHEN 4 THEN 'GARD' ELSE 'TOYS' END,
       price, supplier_id
FROM base_products ORDER BY product_id;

CREATE TABLE ORD_HDR (
  ORD_NO INTEGER PRIMARY KEY,
  CUST_NO INTEGER NOT NULL REFERENCES CUST (CUST_NO),
  ORD_DT INTEGER,  -- yyyymmdd
  STAT_CD TEXT     -- 'SHP' shipped, 'PND' pending, 'CNL' cancelled, 'RTN' returned
);
INSERT INTO ORD_HDR
SELECT order_id, customer_id, CAST(strftime('%Y%m%d', order_date) AS INTEGER),
       CASE status WHEN 'shipped' THEN 'SHP' WHEN 'pending' THEN 'PND' WHEN 'cancelled' THEN 'CNL' ELSE 'RTN' END
FROM base_orders ORDER BY order_id;

CREATE TABLE ORD_LN (
  ORD_NO INTEGER NOT NULL REFERENCES ORD_HDR (ORD_NO),
  LN_NO INTEGER NOT NULL,
  PROD_NO INTEGER NOT NULL REFERENCES PROD (PROD_NO),
  QTY INTEGER NOT NULL,
  LN_AMT REAL NOT NULL,  -- euros charged for the whole line: QTY x unit price after any discount
  PRIMARY KEY (ORD_NO, LN_NO)
);
INSERT INTO ORD_LN
SELECT i.order_id, i.line_no + 1, i.product_id, i.quantity,
       round(i.quantity * CASE i.discounted WHEN 1 THEN round(p.price * 0.85, 2) ELSE p.price END, 2)
FROM base_order_items AS i JOIN base_products AS p ON p.product_id = i.product_id
ORDER BY i.order_id, i.line_no;
