-- KNOWN BUG: lang rejects a function of a GROUP BY column in SELECT: "expression is not a group key" at LISTMAX(1, B) (B is the group key).
CREATE STREAM R (A INT, B INT);
SELECT SUM(A) / LISTMAX(1, B) FROM R GROUP BY B;
