-- Primary keys in dialect sql: key columns are NOT NULL, the columns they
-- determine may be NULL (a presence flag beside each in the map keys). The
-- generator breaks the keys, as in 307.
-- diff: sql nulls=0.2 ints=6 words=3 days=3 events=700 deletes=0.4
CREATE STREAM C(CK int PRIMARY KEY, NAME string, NATION int);
CREATE STREAM O(OK int, CK int, PRICE float, ODATE date, PRIMARY KEY (OK));
CREATE STREAM L(OK int, LN int, QTY int, PRIMARY KEY (OK, LN));
SELECT c.NAME, c.CK, o.OK, o.ODATE, o.PRICE, SUM(l.QTY) AS q FROM C c, O o, L l WHERE o.OK IN (SELECT l2.OK FROM L l2 GROUP BY l2.OK HAVING SUM(l2.QTY) > 8) AND c.CK = o.CK AND o.OK = l.OK GROUP BY c.NAME, c.CK, o.OK, o.ODATE, o.PRICE;
SELECT c.CK, c.NAME, SUM(o.PRICE) AS p FROM C c, O o WHERE c.CK = o.CK GROUP BY c.CK, c.NAME;
SELECT o.OK, o.ODATE, c.NAME, COUNT(*) AS n FROM C c, O o, L l WHERE c.CK = o.CK AND l.OK = o.OK AND l.QTY > 2 GROUP BY o.OK, o.ODATE, c.NAME;
SELECT c.NATION, c.NAME, SUM(l.QTY) AS q FROM C c, O o, L l WHERE c.CK = o.CK AND l.OK = o.OK GROUP BY c.NATION, c.NAME;
SELECT l.OK, l.LN, l.QTY, o.PRICE FROM L l, O o WHERE l.OK = o.OK;
