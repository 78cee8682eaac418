-- Issue 8 family I: scalar subqueries in SELECT of a grouped query
-- correlated with group keys by inequalities (alone, mixed with =, through
-- a join inside): the view aggregate is restricted to the view's groups.
-- diff: events=500 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT s.C, (SELECT SUM(t.D) FROM T t WHERE t.C < s.C) AS v FROM S s GROUP BY s.C;
SELECT s.B, s.C, (SELECT SUM(t.D) FROM T t WHERE t.C = s.B AND t.D < s.C) AS v FROM S s GROUP BY s.B, s.C;
SELECT s.C, (SELECT COUNT(*) FROM T t WHERE t.C >= s.C) AS v FROM S s GROUP BY s.C;
SELECT s.C, SUM(s.B) AS w, (SELECT SUM(t.D * u.E) FROM T t, U u WHERE t.C = u.C AND u.E < s.C) AS v FROM S s GROUP BY s.C;
