-- Joins through a hub variable (splitAtHub): R, T and the U-chain meet only
-- at h, or at a bound event variable; a TPC-H Q5-like cycle through two
-- nation keys.
-- diff: events=800
CREATE STREAM R(A int, H int);
CREATE STREAM S(H int, N int);
CREATE STREAM T(C int, H int);
CREATE STREAM U(C int, D int);
SELECT S.N, SUM(R.A * U.D) FROM R, S, T, U WHERE R.H = S.H AND T.H = S.H AND T.C = U.C GROUP BY S.N;
SELECT COUNT(*) FROM R, T, U WHERE R.H = T.H AND T.C = U.C AND U.D = R.A;
SELECT R.A, T.C, SUM(U.D) FROM R, S, T, U WHERE R.H = S.H AND S.N = T.H AND T.C = U.C GROUP BY R.A, T.C;
