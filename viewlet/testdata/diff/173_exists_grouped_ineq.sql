-- Issue 8 family I: EXISTS with an inequality correlation, grouped or mixed
-- with an equality.
-- diff: events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT t.C FROM T t WHERE t.D > s.B GROUP BY t.C);
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT * FROM T t WHERE t.D > s.B AND t.C = s.C);
