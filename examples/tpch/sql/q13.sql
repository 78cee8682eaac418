-- TPC-H Q13, the customer distribution query, as the specification (2.4.13)
-- writes it, with the validation substitutions WORD1 = 'special' and
-- WORD2 = 'requests'. Dialect sql (toastgen's default): the derived table is
-- a LEFT OUTER JOIN of customer and orders, so a customer without matching
-- orders is one row with o_orderkey NULL, and COUNT(o_orderkey) counts it as
-- 0. ../q13.sql is the DBToaster-dialect rewrite with a correlated scalar
-- subquery instead.
CREATE STREAM customer (
    c_custkey    INT,
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
    o_orderkey      INT,
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

SELECT c_count,
       COUNT(*) AS custdist
FROM (
    SELECT c_custkey,
           COUNT(o_orderkey) AS c_count
    FROM customer LEFT OUTER JOIN orders
      ON c_custkey = o_custkey
     AND o_comment NOT LIKE '%special%requests%'
    GROUP BY c_custkey
  ) c_orders
GROUP BY c_count
ORDER BY custdist DESC, c_count DESC;
