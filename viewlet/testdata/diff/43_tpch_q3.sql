-- diff: ORDERKEY=80 CUSTKEY=20
CREATE STREAM CUSTOMER (CUSTKEY INT, MKTSEGMENT STRING);
CREATE STREAM ORDERS (ORDERKEY INT, CUSTKEY INT, ORDERDATE DATE, SHIPPRIORITY INT);
CREATE STREAM LINEITEM (ORDERKEY INT, EXTENDEDPRICE FLOAT, DISCOUNT FLOAT, SHIPDATE DATE);
SELECT o.orderkey, o.orderdate, o.shippriority,
       SUM(l.extendedprice * (1 - l.discount)) AS revenue
FROM customer c, orders o, lineitem l
WHERE c.mktsegment LIKE '%a%'
  AND c.custkey = o.custkey
  AND l.orderkey = o.orderkey
  AND o.orderdate < DATE('1995-03-15')
  AND l.shipdate > DATE('1995-03-15')
GROUP BY o.orderkey, o.orderdate, o.shippriority;
