-- UNION ALL of joins and of filtered selects.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT r.A AS X, s.C AS Y FROM R r, S s WHERE r.B = s.B
UNION ALL SELECT s2.B AS X, t.D AS Y FROM S s2, T t WHERE s2.C = t.C AND t.D > 2;
SELECT r.A FROM R r WHERE r.B < 2 UNION ALL SELECT t.D FROM T t WHERE t.C = 3;
