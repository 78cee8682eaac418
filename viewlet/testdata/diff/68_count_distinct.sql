-- COUNT(DISTINCT) per group, and over everything.
CREATE STREAM R(A int, B int);
SELECT r.A, COUNT(DISTINCT r.B) AS nb FROM R r GROUP BY r.A;
SELECT COUNT(DISTINCT r.B) AS nb FROM R r;
