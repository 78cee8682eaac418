-- Derived result names that clash are qualified by their table alias
-- (R2_A); the view is the multiset of pairs.
-- diff: events=400
CREATE STREAM R(A int, B int);
SELECT r1.A, r2.A FROM R r1, R r2 WHERE r1.B = r2.A;
SELECT r1.A, r2.A, r2.B, SUM(r1.B) FROM R r1, R r2 WHERE r1.B < r2.B GROUP BY r1.A, r2.A, r2.B;
