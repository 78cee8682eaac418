-- IN over a grouped subquery that joins a relation it does not correlate
-- with (issue 8, family V).
-- diff: events=300 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM S s WHERE s.B IN (SELECT t.C FROM T t, S s2 GROUP BY t.C);
SELECT s.C, SUM(s.B) AS v FROM S s WHERE s.B IN (SELECT t.C FROM T t, S s2 WHERE s2.B > 1 GROUP BY t.C) GROUP BY s.C;
