-- COUNT(DISTINCT) per group over a join, and ungrouped.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(DISTINCT s.C) AS nc FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
SELECT COUNT(DISTINCT r.A) AS na FROM R r, S s WHERE r.B = s.B AND s.C > 2;
