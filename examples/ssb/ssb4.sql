-- SSB4: query 4.1 of the Star Schema Benchmark (O'Neil et al.), the profit
-- by year and customer nation for American customers and suppliers and two
-- manufacturers, as DBToaster runs it over the TPC-H tables:
--   lineorder  → lineitem joined with orders (lo_orderdate is o_orderdate),
--   d_year     → EXTRACT(YEAR FROM o_orderdate),
--   c_nation   → the name of the customer's nation,
--   c_region / s_region → the names of the customer's and the supplier's regions
--                 (nation and region each appear twice),
--   the measure → l_extendedprice * (1 - l_discount) (SSB's lo_revenue; its
--                 lo_supplycost would need partsupp).
-- SSB's p_mfgr values 'MFGR#1' and 'MFGR#2' are 'Manufacturer#1' and
-- 'Manufacturer#2' in TPC-H data (dbgen writes Manufacturer#<m>), so the
-- manufacturer filter uses those: with the SSB strings it would select nothing.
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

CREATE STREAM supplier (
    s_suppkey   INT,
    s_name      CHAR(25),
    s_address   VARCHAR(40),
    s_nationkey INT,
    s_phone     CHAR(15),
    s_acctbal   DECIMAL,
    s_comment   VARCHAR(101)
  )
  FROM FILE 'examples/tpch/data/supplier.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM part (
    p_partkey     INT,
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

CREATE STREAM nation (
    n_nationkey INT,
    n_name      CHAR(25),
    n_regionkey INT,
    n_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/nation.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM region (
    r_regionkey INT,
    r_name      CHAR(25),
    r_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/region.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT EXTRACT(YEAR FROM o_orderdate) AS d_year,
       cn.n_name AS c_nation,
       SUM(l_extendedprice * (1 - l_discount)) AS revenue
FROM lineitem, orders, customer, supplier, part,
     nation cn, region cr, nation sn, region sr
WHERE l_orderkey = o_orderkey
  AND o_custkey = c_custkey
  AND l_suppkey = s_suppkey
  AND l_partkey = p_partkey
  AND c_nationkey = cn.n_nationkey
  AND cn.n_regionkey = cr.r_regionkey
  AND cr.r_name = 'AMERICA'
  AND s_nationkey = sn.n_nationkey
  AND sn.n_regionkey = sr.r_regionkey
  AND sr.r_name = 'AMERICA'
  AND (p_mfgr = 'Manufacturer#1' OR p_mfgr = 'Manufacturer#2')
GROUP BY EXTRACT(YEAR FROM o_orderdate), cn.n_name
ORDER BY d_year, c_nation;
