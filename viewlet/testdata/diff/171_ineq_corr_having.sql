-- Issue 8 family I: subqueries in HAVING correlated by inequalities.
-- diff: events=500 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT s.C, COUNT(*) AS v FROM S s GROUP BY s.C HAVING COUNT(*) <= (SELECT COUNT(*) FROM T t WHERE t.C < s.C);
SELECT s.C, COUNT(*) AS v FROM S s GROUP BY s.C HAVING SUM(s.B) > (SELECT SUM(t.D) FROM T t WHERE t.C < s.C AND t.D <> s.C);
