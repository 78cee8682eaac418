-- Plain SQL (issue 11): joins whose tables split into independent groups
-- (cross products with constant filters and a few equalities, as SQL test
-- corpora write them), the same table several times and distinct tables:
-- each group is its own aggregate and the view multiplies them
-- (calculus/factor.go), with SUM, AVG, COUNT, a grouped view (whose groups
-- vanish when another group is empty) and a bag.
-- diff: ints=8 events=500 deletes=0.45 depth0
CREATE STREAM T(col0 int, col1 int, col2 int);
CREATE STREAM U(col0 int, col1 int);
SELECT COUNT(*) FROM T AS cor0, T AS cor1, T AS cor2, T AS cor3 WHERE cor0.col0 = 1 AND cor1.col0 = 2 AND cor2.col1 = 3 AND cor3.col2 = cor0.col1;
SELECT SUM(cor1.col2), AVG(cor0.col1 + cor3.col0), COUNT(*) FROM T AS cor0, T AS cor1, U AS cor2, T AS cor3 WHERE cor0.col0 = 1 AND cor1.col1 = 2 AND cor2.col0 = 4 AND cor3.col1 = cor0.col2;
SELECT cor0.col1, COUNT(*), SUM(cor2.col1) FROM T AS cor0, T AS cor1, U AS cor2 WHERE cor0.col0 < 3 AND cor1.col0 = 5 AND cor2.col1 > 4 GROUP BY cor0.col1;
SELECT cor0.col2, cor1.col0 FROM T AS cor0, T AS cor1, T AS cor2 WHERE cor0.col0 = 2 AND cor1.col1 = cor0.col1 AND cor2.col2 = 7;
SELECT DISTINCT cor0.col1 FROM T AS cor0, U AS cor1, U AS cor2 WHERE cor1.col0 = 3 AND cor2.col1 = cor1.col0 AND cor0.col2 = 1;
