-- TPC-H Q22, the global sales opportunity query (TPC-H specification
-- 2.4.22), with the validation substitutions I1..I7 = '13', '31', '23', '29',
-- '30', '18', '17'. The specification's substring(c_phone from 1 for 2) is
-- SUBSTRING(c_phone, 0, 2) in this dialect (0-based start).
CREATE STREAM customer (
    c_custkey    INT PRIMARY KEY,
    c_name       VARCHAR(25),
    c_address    VARCHAR(40),
    c_nationkey  INT,
    c_phone      CHAR(15),
    c_acctbal    DECIMAL,
    c_mktsegment CHAR(10),
    c_comment    VARCHAR(117)
  )
  FROM FILE 'examples/tpch/data/customer.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM orders (
    o_orderkey      INT PRIMARY KEY,
    o_custkey       INT,
    o_orderstatus   CHAR(1),
    o_totalprice    DECIMAL,
    o_orderdate     DATE,
    o_orderpriority CHAR(15),
    o_clerk         CHAR(15),
    o_shippriority  INT,
    o_comment       VARCHAR(79)
  )
  FROM FILE 'examples/tpch/data/orders.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT cntrycode,
       COUNT(*) AS numcust,
       SUM(c_acctbal) AS totacctbal
FROM (
    SELECT SUBSTRING(c_phone, 0, 2) AS cntrycode,
           c_acctbal
    FROM customer
    WHERE SUBSTRING(c_phone, 0, 2) IN ('13', '31', '23', '29', '30', '18', '17')
      AND c_acctbal > (
            SELECT AVG(c_acctbal)
            FROM customer
            WHERE c_acctbal > 0.00
              AND SUBSTRING(c_phone, 0, 2) IN ('13', '31', '23', '29', '30', '18', '17'))
      AND NOT EXISTS (
            SELECT *
            FROM orders
            WHERE o_custkey = c_custkey)
  ) custsale
GROUP BY cntrycode
ORDER BY cntrycode;
