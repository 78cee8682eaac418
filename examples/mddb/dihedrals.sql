-- MDDB Ramachandran histogram (after DBToaster's mddb test queries, which
-- bucket the dihedral angles of the trajectory): the backbone torsions of the
-- alanine dipeptide, phi = C-N-CA-C (atoms 2, 4, 6, 8) and psi = N-CA-C-N
-- (atoms 4, 6, 8, 10) — the two dimensions of the MDDB data's Dimensions
-- table — are computed with DIHEDRAL_ANGLE from the atoms' positions at each
-- time step (AtomPositions), bucketed in 30° buckets (bucket k covers
-- [-180° + 30k, -180° + 30(k+1))), and the time steps of each (phi, psi)
-- bucket pair are counted, with their mean phi and psi in degrees.
--
-- The atoms are named by literals rather than joined with Dimensions: with
-- the join, the compiler (which maintains static tables like streams, for
-- now) keeps the view of Dimensions' delta, the four-way self-join of the
-- positions of every time step over all atom quadruples — 12⁴ per step.
--
-- data/ holds the first 1,000 positions (85 time steps of a 12-atom alanine
-- dipeptide) of DBToaster's mddb "tiny" data.
CREATE STREAM AtomPositions (trj_id INT, t INT, atom_id INT, x FLOAT, y FLOAT, z FLOAT)
  FROM FILE 'examples/mddb/data/atompositions.csv' LINE DELIMITED CSV;

SELECT CAST_INT((DEGREES(DIHEDRAL_ANGLE(C0.x, C0.y, C0.z, N.x, N.y, N.z, CA.x, CA.y, CA.z, C.x, C.y, C.z)) + 180) / 30) AS phi_bucket,
       CAST_INT((DEGREES(DIHEDRAL_ANGLE(N.x, N.y, N.z, CA.x, CA.y, CA.z, C.x, C.y, C.z, N1.x, N1.y, N1.z)) + 180) / 30) AS psi_bucket,
       COUNT(*) AS n,
       AVG(DEGREES(DIHEDRAL_ANGLE(C0.x, C0.y, C0.z, N.x, N.y, N.z, CA.x, CA.y, CA.z, C.x, C.y, C.z))) AS mean_phi,
       AVG(DEGREES(DIHEDRAL_ANGLE(N.x, N.y, N.z, CA.x, CA.y, CA.z, C.x, C.y, C.z, N1.x, N1.y, N1.z))) AS mean_psi
FROM AtomPositions C0, AtomPositions N, AtomPositions CA, AtomPositions C, AtomPositions N1
WHERE C0.atom_id = 2 AND N.atom_id = 4 AND CA.atom_id = 6 AND C.atom_id = 8 AND N1.atom_id = 10
  AND N.trj_id = C0.trj_id AND N.t = C0.t
  AND CA.trj_id = C0.trj_id AND CA.t = C0.t
  AND C.trj_id = C0.trj_id AND C.t = C0.t
  AND N1.trj_id = C0.trj_id AND N1.t = C0.t
GROUP BY CAST_INT((DEGREES(DIHEDRAL_ANGLE(C0.x, C0.y, C0.z, N.x, N.y, N.z, CA.x, CA.y, CA.z, C.x, C.y, C.z)) + 180) / 30),
         CAST_INT((DEGREES(DIHEDRAL_ANGLE(N.x, N.y, N.z, CA.x, CA.y, CA.z, C.x, C.y, C.z, N1.x, N1.y, N1.z)) + 180) / 30);
