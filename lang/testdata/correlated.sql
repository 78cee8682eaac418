-- Correlation through a derived table, GROUP BY a select alias, ALL over a UNION,
-- NATURAL JOIN columns, an unqualified correlated reference.
CREATE STREAM R (A INT, B INT);
CREATE STREAM S (A INT, C INT);
SELECT SUM(R.A) FROM R WHERE R.B > (SELECT SUM(D.X) FROM (SELECT S.C AS X FROM S WHERE S.A = R.A) AS D);
SELECT R.A + 1 AS k, SUM(R.B) FROM R GROUP BY k;
SELECT R.A, SUM(R.B) FROM R WHERE R.B = ALL (SELECT S.A FROM S UNION SELECT S.C FROM S) GROUP BY R.A;
select a, c from R natural join S;
SELECT COUNT(*) FROM R WHERE NOT EXISTS (SELECT S.A FROM S WHERE S.A = B);
