-- At depth 0, a view grouped by all of a relation's columns has the
-- relation's base map as its definition; the other views re-evaluate from it.
-- diff: events=300 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.B, s.C, COUNT(*) AS n FROM S s GROUP BY s.B, s.C;
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C;
SELECT t.D, t.C, COUNT(*) AS n FROM T t GROUP BY t.D, t.C;
SELECT COUNT(*) AS n FROM S s, T t WHERE s.C = t.C;
