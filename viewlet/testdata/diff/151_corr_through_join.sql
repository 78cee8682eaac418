-- Correlations through an inner join inside the subquery reach one class
-- from two outer columns (issue 8, II): the outer atoms keep their columns.
-- diff: ints=4 events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM S o0, T o1 WHERE EXISTS (SELECT * FROM S i0, S i1 WHERE i0.B = i1.B AND i0.B = o0.B AND i1.B = o1.D);
SELECT o.B, COUNT(*) AS v FROM S o WHERE NOT EXISTS (SELECT * FROM T i0, T i1 WHERE i0.C = i1.D AND i0.C = o.B AND i1.D = o.C) GROUP BY o.B;
SELECT SUM(o.C) AS v FROM S o WHERE (SELECT SUM(i1.D) FROM T i0, T i1 WHERE i0.C = o.B AND i1.C = o.C AND i0.C = i1.C) = 0;
