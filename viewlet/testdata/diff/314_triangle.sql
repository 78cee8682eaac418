-- The count of a cyclic join of three relations (the triangle query) is
-- kept by a heavy/light kernel (runtime.TriangleCount) over the three
-- relations' weights: a small domain so that values turn heavy, deletes
-- of absent tuples (negative weights), NULL join columns (which never
-- join), conditions on one relation, an extra column summed out, COUNT of
-- a nullable column, a four-relation cycle that stays a delta plan, and a
-- factorized view beside the kernels (both compiled into one program).
-- Value 0 is drawn for 40% of the join columns, so that its degree crosses
-- the heavy threshold (√N, with N the weights) up and down as the stream
-- grows and shrinks, through several rebuilds.
-- diff: sql ints=30 skew=0.4 events=2000
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int, X int);
CREATE STREAM T(C int, A int);
CREATE STREAM U(A int, D int);
SELECT COUNT(*) FROM R, S, T WHERE R.B = S.B AND S.C = T.C AND T.A = R.A;
SELECT COUNT(*) AS n FROM R r, S s, T t WHERE r.B = s.B AND s.C = t.C AND t.A = r.A AND s.X > 0 AND r.A <> 1;
SELECT COUNT(s.X) FROM T t, S s, R r WHERE t.A = r.A AND r.B = s.B AND s.C = t.C;
SELECT SUM(s.X) FROM R r, S s, T t WHERE r.B = s.B AND s.C = t.C AND t.A = r.A;
SELECT COUNT(*) FROM R r, S s, T t, U u WHERE r.B = s.B AND s.C = t.C AND t.A = u.A AND u.D = r.A;
SELECT r.A, r.B, s.C FROM R r, S s WHERE r.B = s.B;
