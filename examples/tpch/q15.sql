-- TPC-H Q15, the top supplier query (TPC-H specification 2.4.15), with the
-- validation substitution DATE = 1996-01-01. The view revenue0 is written as a
-- derived table, twice: once joined with supplier and once under MAX. The
-- query has no aggregate at the top, so its view is a bag keyed by all
-- selected columns.
CREATE STREAM lineitem (
    l_orderkey      INT,
    l_partkey       INT,
    l_suppkey       INT,
    l_linenumber    INT,
    l_quantity      DECIMAL,
    l_extendedprice DECIMAL,
    l_discount      DECIMAL,
    l_tax           DECIMAL,
    l_returnflag    CHAR(1),
    l_linestatus    CHAR(1),
    l_shipdate      DATE,
    l_commitdate    DATE,
    l_receiptdate   DATE,
    l_shipinstruct  CHAR(25),
    l_shipmode      CHAR(10),
    l_comment       VARCHAR(44)
  )
  FROM FILE 'examples/tpch/data/lineitem.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM supplier (
    s_suppkey   INT PRIMARY KEY,
    s_name      CHAR(25),
    s_address   VARCHAR(40),
    s_nationkey INT,
    s_phone     CHAR(15),
    s_acctbal   DECIMAL,
    s_comment   VARCHAR(101)
  )
  FROM FILE 'examples/tpch/data/supplier.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT s_suppkey,
       s_name,
       s_address,
       s_phone,
       total_revenue
FROM supplier, (
    SELECT l_suppkey AS supplier_no,
           SUM(l_extendedprice * (1 - l_discount)) AS total_revenue
    FROM lineitem
    WHERE l_shipdate >= DATE('1996-01-01')
      AND l_shipdate < DATE('1996-01-01') + INTERVAL '3' MONTH
    GROUP BY l_suppkey
  ) revenue0
WHERE s_suppkey = supplier_no
  AND total_revenue = (
        SELECT MAX(total_revenue)
        FROM (
            SELECT l_suppkey AS supplier_no,
                   SUM(l_extendedprice * (1 - l_discount)) AS total_revenue
            FROM lineitem
            WHERE l_shipdate >= DATE('1996-01-01')
              AND l_shipdate < DATE('1996-01-01') + INTERVAL '3' MONTH
            GROUP BY l_suppkey
          ) revenue1)
ORDER BY s_suppkey;
