CREATE STREAM LINEITEM (ORDERKEY INT, QUANTITY FLOAT, EXTENDEDPRICE FLOAT, DISCOUNT FLOAT, TAX FLOAT,
    RETURNFLAG STRING, LINESTATUS STRING, SHIPDATE DATE);
-- diff: LINEITEM.DISCOUNT=1
SELECT returnflag, linestatus,
       SUM(quantity) AS sum_qty,
       SUM(extendedprice) AS sum_base_price,
       SUM(extendedprice * (1 - discount)) AS sum_disc_price,
       SUM(extendedprice * (1 - discount) * (1 + tax)) AS sum_charge,
       AVG(quantity) AS avg_qty,
       AVG(extendedprice) AS avg_price,
       AVG(discount) AS avg_disc,
       COUNT(*) AS count_order
FROM lineitem
WHERE shipdate <= DATE('1996-12-01') - INTERVAL '90' DAY
  AND returnflag IN ('R', 'F', 'N', 'a') AND linestatus IN ('F', 'N', 'ab', 'a')
GROUP BY returnflag, linestatus;
