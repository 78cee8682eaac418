-- MDDB bond statistics (after DBToaster's mddb test queries): for each
-- covalent bond of the force field (Bonds) with the residue of its first
-- atom (AtomMeta), over every time step of the trajectory (AtomPositions),
-- the number of observations, the mean bond length |p1 - p2| (VEC_LENGTH of
-- the difference of the two atoms' positions at the same time step) and the
-- summed harmonic bond energy bond_const · (|p1 - p2| - bond_length)².
--
-- data/ holds the first 1,000 positions (85 time steps of a 12-atom alanine
-- dipeptide) of DBToaster's mddb "tiny" data and its force-field tables.
CREATE STREAM AtomPositions (trj_id INT, t INT, atom_id INT, x FLOAT, y FLOAT, z FLOAT)
  FROM FILE 'examples/mddb/data/atompositions.csv' LINE DELIMITED CSV;

CREATE TABLE AtomMeta (protein_id INT, atom_id INT, atom_type VARCHAR(100), atom_name VARCHAR(100),
                       residue_id INT, residue_name VARCHAR(100), segment_name VARCHAR(100))
  FROM FILE 'examples/mddb/data/atommeta.csv' LINE DELIMITED CSV;

CREATE TABLE Bonds (protein_id INT, atom_id1 INT, atom_id2 INT, bond_const FLOAT, bond_length FLOAT)
  FROM FILE 'examples/mddb/data/bonds.csv' LINE DELIMITED CSV;

SELECT B.atom_id1, B.atom_id2, M.residue_name,
       COUNT(*) AS n,
       AVG(VEC_LENGTH(P1.x - P2.x, P1.y - P2.y, P1.z - P2.z)) AS mean_length,
       SUM(B.bond_const * POW(VEC_LENGTH(P1.x - P2.x, P1.y - P2.y, P1.z - P2.z) - B.bond_length, 2)) AS energy
FROM AtomPositions P1, AtomPositions P2, Bonds B, AtomMeta M
WHERE P1.trj_id = P2.trj_id AND P1.t = P2.t
  AND P1.atom_id = B.atom_id1 AND P2.atom_id = B.atom_id2
  AND M.protein_id = B.protein_id AND M.atom_id = B.atom_id1
GROUP BY B.atom_id1, B.atom_id2, M.residue_name;
