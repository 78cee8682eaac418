-- DBToaster's numeric standard functions in WHERE. Generated floats are
-- k/4 ≥ 0, so SQRT and POW stay real (SQLite has no NaN).
-- diff: events=1000
CREATE STREAM P (A INT, X FLOAT, Y FLOAT, Z FLOAT);
SELECT A, COUNT(*) AS n FROM P WHERE SQRT(X) + POW(Y, 2) > 2.5 AND COS(X) < SIN(Y) GROUP BY A;
SELECT COUNT(*) AS n FROM P WHERE DEGREES(X) > 100 OR RADIANS(A) < 0.05;
SELECT SUM(A) AS s FROM P WHERE VEC_LENGTH(X, Y, Z) BETWEEN 1.5 AND 4 AND VEC_DOT(X, Y, Z, 1, -1, A) > 0;
SELECT SUM(X) AS s FROM P WHERE VECTOR_ANGLE(X, Y, Z + 1, 1, 1, 1) < RADIANS(40);
