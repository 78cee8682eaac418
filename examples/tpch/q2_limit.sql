-- TPC-H Q2, the minimum cost supplier query (TPC-H specification 2.4.2), with
-- the validation substitutions SIZE = 15, TYPE = 'BRASS' and REGION =
-- 'EUROPE'. With its specification LIMIT 100: the view shows the first 100
-- rows of its order (q2.sql keeps every row). The query has no aggregate at
-- the top, so its view is a bag keyed by all selected columns.
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

CREATE STREAM partsupp (
    ps_partkey    INT,
    ps_suppkey    INT,
    ps_availqty   INT,
    ps_supplycost DECIMAL,
    ps_comment    VARCHAR(199)
  )
  FROM FILE 'examples/tpch/data/partsupp.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM nation (
    n_nationkey INT PRIMARY KEY,
    n_name      CHAR(25),
    n_regionkey INT,
    n_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/nation.csv' LINE DELIMITED CSV (delimiter := '|');

CREATE STREAM region (
    r_regionkey INT PRIMARY KEY,
    r_name      CHAR(25),
    r_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/region.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT s_acctbal,
       s_name,
       n_name,
       p_partkey,
       p_mfgr,
       s_address,
       s_phone,
       s_comment
FROM part, supplier, partsupp, nation, region
WHERE p_partkey = ps_partkey
  AND s_suppkey = ps_suppkey
  AND p_size = 15
  AND p_type LIKE '%BRASS'
  AND s_nationkey = n_nationkey
  AND n_regionkey = r_regionkey
  AND r_name = 'EUROPE'
  AND ps_supplycost = (
        SELECT MIN(ps_supplycost)
        FROM partsupp, supplier, nation, region
        WHERE p_partkey = ps_partkey
          AND s_suppkey = ps_suppkey
          AND s_nationkey = n_nationkey
          AND n_regionkey = r_regionkey
          AND r_name = 'EUROPE')
ORDER BY s_acctbal DESC, n_name, s_name, p_partkey
LIMIT 100;
