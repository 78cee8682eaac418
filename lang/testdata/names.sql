-- Views named as sqlc names queries, by CREATE VIEW, and unnamed.
CREATE STREAM R (A INT, B INT);
CREATE STREAM S (B INT, C FLOAT);

-- name: TopCustomers
SELECT R.A, SUM(S.C) AS total FROM R, S WHERE R.B = S.B GROUP BY R.A;

SELECT COUNT(*) FROM R; -- unnamed: QUERY2, its position

-- name: by_b

-- a description between the name and the SELECT
SELECT B, COUNT(*) AS n FROM S GROUP BY B;

CREATE VIEW Totals AS SELECT SUM(A) AS a FROM R
UNION ALL SELECT SUM(B) AS a FROM R;
