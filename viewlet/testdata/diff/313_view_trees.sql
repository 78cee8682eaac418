-- Factorized views (calculus.Factorize): q-hierarchical joins whose flat
-- view would be updated once per partner of the event's tuple are kept as
-- a tree of factors. Listings of two and three relations joined on one
-- column, a deeper hierarchy (R and S share A and B, T only A), group keys
-- from one side with sums from the other, SUM of a product of both sides'
-- columns, AVG and COUNT of a nullable column, DISTINCT listings, a
-- cross product of two listings (a forest of two roots), NULL join keys
-- (which never join) and group keys, and deletes of the last partner
-- (which empty a factor). A self-join listing stays flat (Factorize
-- rejects self-joins) and must stay right.
-- diff: sql ints=4 skew=0.3 events=800
CREATE STREAM R(A int, B int);
CREATE STREAM S(A int, C int);
CREATE STREAM T(A int, D int);
CREATE STREAM U(A int, B int, E int);
SELECT r.A, r.B, s.C FROM R r, S s WHERE r.A = s.A;
SELECT r.A, r.B, s.C, t.D FROM R r, S s, T t WHERE r.A = s.A AND s.A = t.A;
SELECT r.A, r.B, SUM(s.C), COUNT(*), AVG(s.C), COUNT(s.C) FROM R r, S s WHERE r.A = s.A GROUP BY r.A, r.B;
SELECT r.B, s.C, SUM(r.B * s.C) AS p, COUNT(*) FROM R r, S s WHERE r.A = s.A AND s.C > 0 GROUP BY r.A, r.B, s.C;
SELECT DISTINCT r.A, r.B, s.C FROM R r, S s WHERE r.A = s.A AND r.B <> 2;
SELECT r.A, r.B, u.E, t.D FROM R r, U u, T t WHERE r.A = u.A AND r.B = u.B AND t.A = r.A;
SELECT r.A, r.B, SUM(t.D) FROM R r, U u, T t WHERE r.A = u.A AND r.B = u.B AND t.A = r.A GROUP BY r.A, r.B;
SELECT r.B, s.C FROM R r, S s;
SELECT s.A, s.C, COUNT(*) FROM R r, S s WHERE r.A = s.A GROUP BY s.A, s.C;
SELECT r1.A, r1.B, r2.B FROM R r1, R r2 WHERE r1.A = r2.A;
