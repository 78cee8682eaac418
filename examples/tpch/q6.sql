-- TPC-H Q6, the forecasting revenue change query (TPC-H specification 2.4.6),
-- with the validation substitutions DATE = 1994-01-01, DISCOUNT = 0.06 and
-- QUANTITY = 24. The bounds DISCOUNT ± 0.01 are written out as 0.05 and 0.07:
-- DECIMAL columns are float64 here, and the float sum 0.06 + 0.01 is
-- 0.06999999999999999, which would drop the lines with l_discount = 0.07 that
-- the specification's exact decimal arithmetic keeps.
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

SELECT SUM(l_extendedprice * l_discount) AS revenue
FROM lineitem
WHERE l_shipdate >= DATE('1994-01-01')
  AND l_shipdate < DATE('1994-01-01') + INTERVAL '1' YEAR
  AND l_discount BETWEEN 0.05 AND 0.07
  AND l_quantity < 24;
