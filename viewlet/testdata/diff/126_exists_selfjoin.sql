-- EXISTS against the same stream (self-correlated), two correlation columns.
-- diff: events=400
CREATE STREAM R(A int, B int);
SELECT r.A, COUNT(*) AS n FROM R r WHERE EXISTS (SELECT 1 FROM R r2 WHERE r2.A = r.B AND r2.B = r.A) GROUP BY r.A;
SELECT COUNT(*) AS m FROM R r WHERE NOT EXISTS (SELECT 1 FROM R r2 WHERE r2.A > r.A);
