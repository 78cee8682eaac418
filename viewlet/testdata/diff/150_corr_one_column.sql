-- Several correlation equalities through one inner column (issue 8, II):
-- t.C = s.B AND t.C = s.C tests s.B = s.C inside the subquery, per outer
-- row; it must not unify the outer columns (S(b, b)).
-- diff: ints=4 events=600
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM S s WHERE (SELECT SUM(t.D) FROM T t WHERE t.C = s.B AND t.C = s.C) = 0;
SELECT COUNT(*) AS v FROM S s WHERE NOT EXISTS (SELECT * FROM T t WHERE t.C = s.B AND t.C = s.C);
SELECT s.B, COUNT(*) AS v FROM S s WHERE EXISTS (SELECT * FROM T t WHERE s.C = t.C AND t.C = s.B) GROUP BY s.B;
SELECT SUM(s.C) AS v FROM S s WHERE s.B IN (SELECT t.D FROM T t WHERE t.C = s.B AND s.C = t.C);
SELECT COUNT(*) AS v FROM S s, T u WHERE (SELECT COUNT(*) FROM T t WHERE t.C = s.B AND t.C = s.C AND t.C = u.D) > 0;
SELECT s.C, (SELECT SUM(t.D) FROM T t WHERE t.C = s.C AND t.D = s.C) AS v FROM S s GROUP BY s.C;
