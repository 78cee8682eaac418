-- A grouped view keyed by a column that is not selected, divided by it.
CREATE STREAM R (A INT, B INT);
SELECT SUM(A) / B FROM R WHERE B > 0 GROUP BY B;
