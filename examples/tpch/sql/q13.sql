-- TPC-H Q13, the customer distribution query, as the specification (2.4.13)
-- writes it, with the validation substitutions WORD1 = 'special' and
-- WORD2 = 'requests'. Dialect sql (the default): the derived table is
-- a LEFT OUTER JOIN of customer and orders, so a customer without matching
-- orders is one row with o_orderkey NULL, and COUNT(o_orderkey) counts it as
-- 0. ../q13.sql is the DBToaster-dialect rewrite with a correlated scalar
-- subquery instead. Every column is NOT NULL, as in the TPC-H schema (no
-- column holds NULL): the only NULLs are the outer join's padding.
CREATE STREAM customer (
    c_custkey    INT NOT NULL,
    c_name       VARCHAR(25) NOT NULL,
    c_address    VARCHAR(40) NOT NULL,
    c_nationkey  INT NOT NULL,
    c_phone      CHAR(15) NOT NULL,
    c_acctbal    DECIMAL NOT NULL,
    c_mktsegment CHAR(10) NOT NULL,
    c_comment    VARCHAR(117) NOT NULL
  )
  FROM FILE 'examples/tpch/data/customer.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM orders (
    o_orderkey      INT NOT NULL,
    o_custkey       INT NOT NULL,
    o_orderstatus   CHAR(1) NOT NULL,
    o_totalprice    DECIMAL NOT NULL,
    o_orderdate     DATE NOT NULL,
    o_orderpriority CHAR(15) NOT NULL,
    o_clerk         CHAR(15) NOT NULL,
    o_shippriority  INT NOT NULL,
    o_comment       VARCHAR(79) NOT NULL
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
