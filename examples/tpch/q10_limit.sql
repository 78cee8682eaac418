-- TPC-H Q10, the returned item reporting query (TPC-H specification 2.4.10),
-- with the validation substitution DATE = 1993-10-01. With its specification
-- LIMIT 20: the view shows the first 20 rows of its order (q10.sql keeps
-- every row).
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

CREATE STREAM nation (
    n_nationkey INT PRIMARY KEY,
    n_name      CHAR(25),
    n_regionkey INT,
    n_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/nation.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT c_custkey,
       c_name,
       SUM(l_extendedprice * (1 - l_discount)) AS revenue,
       c_acctbal,
       n_name,
       c_address,
       c_phone,
       c_comment
FROM customer, orders, lineitem, nation
WHERE c_custkey = o_custkey
  AND l_orderkey = o_orderkey
  AND o_orderdate >= DATE('1993-10-01')
  AND o_orderdate < DATE('1993-10-01') + INTERVAL '3' MONTH
  AND l_returnflag = 'R'
  AND c_nationkey = n_nationkey
GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
ORDER BY revenue DESC
LIMIT 20;
