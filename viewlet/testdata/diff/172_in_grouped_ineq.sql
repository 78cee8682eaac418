-- Issue 8 family I: grouped IN subqueries in WHERE correlated by inequalities
-- (alone, two of them, through a join): evaluated in place, as range reads.
-- diff: events=500 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t WHERE t.D > s.B GROUP BY t.C);
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t, U u WHERE t.C = u.C AND u.E > s.B GROUP BY t.C);
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t WHERE t.D > s.B AND t.D < s.C + 3 GROUP BY t.C);
