-- The triangle count over a graph's three edge relations: kept by a
-- heavy/light kernel (runtime.TriangleCount) in amortized O(sqrt N) per
-- event, where a delta plan (-flat-views, generated/triangleflat) loops
-- over a vertex's partners.
CREATE STREAM r (a INT NOT NULL, b INT NOT NULL) FROM FILE 'examples/factorized/data/r.csv' LINE DELIMITED CSV;
CREATE STREAM s (b INT NOT NULL, c INT NOT NULL) FROM FILE 'examples/factorized/data/s.csv' LINE DELIMITED CSV;
CREATE STREAM t (c INT NOT NULL, a INT NOT NULL) FROM FILE 'examples/factorized/data/t.csv' LINE DELIMITED CSV;

-- name: Triangles
SELECT COUNT(*) AS n FROM r, s, t WHERE r.b = s.b AND s.c = t.c AND t.a = r.a;
