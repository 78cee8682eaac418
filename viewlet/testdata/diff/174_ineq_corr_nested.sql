-- Issue 8 family I: inequality correlations two levels deep.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM S s WHERE s.B < (SELECT SUM(t.D) FROM T t WHERE t.C < s.C AND EXISTS (SELECT * FROM U u WHERE u.E > t.D AND u.C < s.B));
SELECT s.C, (SELECT SUM(t.D) FROM T t WHERE t.C < s.C AND t.D IN (SELECT u.E FROM U u WHERE u.C > s.C)) AS v FROM S s GROUP BY s.C;
