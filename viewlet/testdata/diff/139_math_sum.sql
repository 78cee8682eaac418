-- DBToaster's numeric standard functions in aggregate arguments, with INT
-- and FLOAT arguments.
-- diff: events=1000
CREATE STREAM P (A INT, X FLOAT, Y FLOAT, Z FLOAT);
SELECT A, SUM(SQRT(X)) AS sq, SUM(POW(X, A)) AS pw, SUM(COS(X) * SIN(Y)) AS trig,
       SUM(DEGREES(RADIANS(X))) AS dr, MAX(SQRT(A)) AS mx, AVG(COS(A)) AS av
FROM P GROUP BY A;
SELECT SUM(VEC_LENGTH(X, Y, Z)) AS len, SUM(VEC_DOT(X, Y, Z, A, 1, 2)) AS dot,
       SUM(VECTOR_ANGLE(X, Y, Z + 1, 1, A, 0.5)) AS ang,
       SUM(DIHEDRAL_ANGLE(0, 0, 0, 1, 0, 0, 1, 1, 0, X, Y, Z)) AS dih
FROM P;
