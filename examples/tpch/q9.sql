-- TPC-H Q9, the product type profit measure query (TPC-H specification
-- 2.4.9), with the validation substitution COLOR = 'green'.
CREATE STREAM part (
    p_partkey     INT PRIMARY KEY,
    p_name        VARCHAR(55),
    p_mfgr        CHAR(25),
    p_brand       CHAR(10),
    p_type        VARCHAR(25),
    p_size        INT,
    p_container   CHAR(10),
    p_retailprice DECIMAL,
    p_comment     VARCHAR(23)
  )
  FROM FILE 'examples/tpch/data/part.csv' LINE DELIMITED CSV (delimiter := '|');

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

CREATE STREAM partsupp (
    ps_partkey    INT,
    ps_suppkey    INT,
    ps_availqty   INT,
    ps_supplycost DECIMAL,
    ps_comment    VARCHAR(199)
  )
  FROM FILE 'examples/tpch/data/partsupp.csv' LINE DELIMITED CSV (delimiter := '|');

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

CREATE STREAM nation (
    n_nationkey INT PRIMARY KEY,
    n_name      CHAR(25),
    n_regionkey INT,
    n_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/nation.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT nation,
       o_year,
       SUM(amount) AS sum_profit
FROM (
    SELECT n_name AS nation,
           EXTRACT(YEAR FROM o_orderdate) AS o_year,
           l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity AS amount
    FROM part, supplier, lineitem, partsupp, orders, nation
    WHERE s_suppkey = l_suppkey
      AND ps_suppkey = l_suppkey
      AND ps_partkey = l_partkey
      AND p_partkey = l_partkey
      AND o_orderkey = l_orderkey
      AND s_nationkey = n_nationkey
      AND p_name LIKE '%green%'
  ) profit
GROUP BY nation, o_year
ORDER BY nation, o_year DESC;
