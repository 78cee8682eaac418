-- TPC-H Q11, the important stock identification query (TPC-H specification
-- 2.4.11), with the validation substitutions NATION = 'GERMANY' and
-- FRACTION = 0.0001.
CREATE STREAM partsupp (
    ps_partkey    INT,
    ps_suppkey    INT,
    ps_availqty   INT,
    ps_supplycost DECIMAL,
    ps_comment    VARCHAR(199)
  )
  FROM FILE 'examples/tpch/data/partsupp.csv' LINE DELIMITED CSV (delimiter := '|');

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

CREATE STREAM nation (
    n_nationkey INT PRIMARY KEY,
    n_name      CHAR(25),
    n_regionkey INT,
    n_comment   VARCHAR(152)
  )
  FROM FILE 'examples/tpch/data/nation.csv' LINE DELIMITED CSV (delimiter := '|');

SELECT ps_partkey,
       SUM(ps_supplycost * ps_availqty) AS value
FROM partsupp, supplier, nation
WHERE ps_suppkey = s_suppkey
  AND s_nationkey = n_nationkey
  AND n_name = 'GERMANY'
GROUP BY ps_partkey
HAVING SUM(ps_supplycost * ps_availqty) > (
         SELECT SUM(ps_supplycost * ps_availqty) * 0.0001
         FROM partsupp, supplier, nation
         WHERE ps_suppkey = s_suppkey
           AND s_nationkey = n_nationkey
           AND n_name = 'GERMANY')
ORDER BY value DESC;
