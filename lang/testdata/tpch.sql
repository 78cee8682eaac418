INCLUDE 'testdata/schema.inc';

/* TPC-H Q1: pricing summary report. */
SELECT returnflag, linestatus,
       SUM(quantity) AS sum_qty,
       SUM(extendedprice) AS sum_base_price,
       SUM(extendedprice * (1 - discount)) AS sum_disc_price,
       SUM(extendedprice * (1 - discount) * (1 + tax)) AS sum_charge,
       AVG(quantity) AS avg_qty,
       COUNT(*) AS count_order
FROM lineitem
WHERE shipdate <= DATE('1998-12-01') - INTERVAL '90' DAY
GROUP BY returnflag, linestatus
ORDER BY returnflag, linestatus;

-- TPC-H Q3 with JOIN ... ON
SELECT o.orderkey, o.orderdate, o.shippriority,
       SUM(l.extendedprice * (1 - l.discount)) AS revenue
FROM customer c JOIN orders o ON c.custkey = o.custkey
     INNER JOIN lineitem AS l ON l.orderkey = o.orderkey
WHERE c.mktsegment = 'BUILDING'
  AND o.orderdate < DATE('1995-03-15')
  AND l.shipdate > DATE '1995-03-15'
GROUP BY o.orderkey, o.orderdate, o.shippriority;

-- TPC-H Q12: CASE, IN list, BETWEEN on dates, interval on a literal
SELECT l.shipmode,
       SUM(CASE WHEN o.orderpriority = '1-URGENT' OR o.orderpriority = '2-HIGH' THEN 1 ELSE 0 END) AS high_line_count,
       SUM(CASE WHEN o.orderpriority <> '1-URGENT' AND o.orderpriority <> '2-HIGH' THEN 1 ELSE 0 END) AS low_line_count
FROM orders o, lineitem l
WHERE o.orderkey = l.orderkey
  AND l.shipmode IN ('MAIL', 'SHIP')
  AND l.commitdate < l.receiptdate
  AND l.shipdate < l.commitdate
  AND l.receiptdate >= DATE('1994-01-01')
  AND l.receiptdate < DATE('1994-01-01') + INTERVAL '1' YEAR
GROUP BY l.shipmode;

-- TPC-H Q9-ish: EXTRACT, LIKE, expression GROUP BY via alias, non-literal interval
SELECT EXTRACT(year FROM o.orderdate) AS o_year,
       SUM(l.extendedprice * (1 - l.discount) - l.quantity * 0.05) AS sum_profit
FROM lineitem l, orders o
WHERE o.orderkey = l.orderkey
  AND l.comment NOT LIKE '%special%requests%'
  AND l.shipdate NOT BETWEEN o.orderdate AND o.orderdate + INTERVAL '3' MONTH
  AND l.quantity BETWEEN 1 AND 1e3
GROUP BY o_year;
