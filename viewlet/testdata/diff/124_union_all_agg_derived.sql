-- UNION ALL of grouped selects inside a derived table, then MAX.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT MAX(u.t) AS m FROM (SELECT r.A AS K, SUM(r.B) AS t FROM R r GROUP BY r.A
  UNION ALL SELECT s.B AS K, SUM(s.C) AS t FROM S s GROUP BY s.B) u;
