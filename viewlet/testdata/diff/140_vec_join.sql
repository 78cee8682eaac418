-- Vector functions over joined positions, as in the MDDB queries: pairwise
-- distances per time step, and the dihedral angle of four atoms (ids 0..3)
-- at each time step, bucketed.
-- diff: T=10 ID=4 events=400
CREATE STREAM P (T INT, ID INT, X FLOAT, Y FLOAT, Z FLOAT);
SELECT p1.T, SUM(VEC_LENGTH(p1.X - p2.X, p1.Y - p2.Y, p1.Z - p2.Z)) AS dist, COUNT(*) AS n
FROM P p1, P p2 WHERE p1.T = p2.T AND p1.ID < p2.ID GROUP BY p1.T;
SELECT p1.T, SUM(DIHEDRAL_ANGLE(p1.X, p1.Y, p1.Z, p2.X, p2.Y, p2.Z, p3.X, p3.Y, p3.Z, p4.X, p4.Y, p4.Z)) AS angle
FROM P p1, P p2, P p3, P p4
WHERE p1.T = p2.T AND p2.T = p3.T AND p3.T = p4.T
  AND p1.ID = 0 AND p2.ID = 1 AND p3.ID = 2 AND p4.ID = 3
GROUP BY p1.T;
SELECT CAST_INT(DEGREES(DIHEDRAL_ANGLE(p1.X, p1.Y, p1.Z, p2.X, p2.Y, p2.Z, p3.X, p3.Y, p3.Z, p4.X, p4.Y, p4.Z)) / 30) AS bucket,
       COUNT(*) AS n
FROM P p1, P p2, P p3, P p4
WHERE p1.T = p2.T AND p2.T = p3.T AND p3.T = p4.T
  AND p1.ID = 0 AND p2.ID = 1 AND p3.ID = 2 AND p4.ID = 3
  AND VECTOR_ANGLE(p2.X - p1.X, p2.Y - p1.Y, p2.Z - p1.Z + 0.5, p3.X - p2.X, p3.Y - p2.Y, 1) < 2
GROUP BY CAST_INT(DEGREES(DIHEDRAL_ANGLE(p1.X, p1.Y, p1.Z, p2.X, p2.Y, p2.Z, p3.X, p3.Y, p3.Z, p4.X, p4.Y, p4.Z)) / 30);
