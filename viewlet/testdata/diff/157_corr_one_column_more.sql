-- More shapes of issue 8, II: through a derived table and JOIN … ON inside
-- the subquery, in SELECT and HAVING, mixed with an inequality, and across
-- two outer relations.
-- diff: ints=4 events=400
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT * FROM (SELECT t.C AS c FROM T t) d WHERE d.c = s.B AND d.c = s.C);
SELECT COUNT(*) AS v FROM S o WHERE NOT EXISTS (SELECT * FROM T i0 JOIN T i1 ON i0.C = i1.C WHERE i0.C = o.B AND i1.C = o.C);
SELECT s.B, s.C, (SELECT SUM(t.D) FROM T t WHERE t.C = s.B AND t.C = s.C) AS v FROM S s GROUP BY s.B, s.C;
SELECT s.B, SUM(s.C) AS v FROM S s GROUP BY s.B HAVING SUM(s.C) > (SELECT COUNT(*) FROM T t WHERE t.C = s.B AND t.D = s.B);
SELECT COUNT(*) AS v FROM S s WHERE (SELECT COUNT(*) FROM T t WHERE t.C = s.B AND t.C = s.C AND t.D > s.B) = 0;
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.D FROM T t WHERE t.C = s.B AND t.D = s.B);
SELECT COUNT(*) AS v FROM S s, T u WHERE s.B = u.C AND EXISTS (SELECT * FROM T t WHERE t.C = s.C AND t.C = u.D);
