-- SOME and ALL combined in one grouped query.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.B, SUM(r.A) AS s FROM R r
WHERE r.A >= ALL (SELECT s.C FROM S s WHERE s.B = r.B AND s.C < 4)
  AND r.A < SOME (SELECT s2.B FROM S s2)
GROUP BY r.B;
