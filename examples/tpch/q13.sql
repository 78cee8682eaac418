-- TPC-H Q13, the customer distribution query (TPC-H specification 2.4.13),
-- with the validation substitutions WORD1 = 'special' and WORD2 = 'requests'.
--
-- The specification's derived table is a LEFT OUTER JOIN of customer and
-- orders grouped by c_custkey, whose COUNT(o_orderkey) is 0 for a customer
-- without matching orders. This dialect has no outer joins or NULLs, so the
-- derived table is written as in DBToaster: one row per customer, with the
-- count as a correlated scalar subquery (an ungrouped COUNT over no rows is
-- 0, which is exactly the outer join's count for an unmatched customer). The
-- rewrite is faithful while c_custkey is a key of customer, as in TPC-H: the
-- specification merges duplicate customer keys into one group, this form
-- counts each customer row.
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

SELECT c_count,
       COUNT(*) AS custdist
FROM (
    SELECT c_custkey,
           (SELECT COUNT(o_orderkey)
            FROM orders
            WHERE o_custkey = c_custkey
              AND o_comment NOT LIKE '%special%requests%') AS c_count
    FROM customer
  ) c_orders
GROUP BY c_count
ORDER BY custdist DESC, c_count DESC;
