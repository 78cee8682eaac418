-- Dialect sql: compound queries whose arms compute their columns from
-- nullable ones (COALESCE over a NULL: the value spelled out two-valued),
-- a UNION ALL nested in an EXCEPT ALL, one relation on both sides.
-- diff: sql ints=3 events=300
CREATE STREAM R (ra INT, rb INT NOT NULL);
CREATE STREAM S (sa INT, sb FLOAT);
SELECT 4, 1 FROM S s1 UNION ALL SELECT COALESCE(r4.ra, 2, 5), r4.rb FROM R r4 EXCEPT ALL SELECT 0, s6.sa FROM S s6;
SELECT 4, 1 FROM S s1 UNION ALL SELECT r4.ra, r4.rb FROM R r4 EXCEPT ALL SELECT 0, s6.sa FROM S s6;
SELECT r4.ra, r4.rb FROM R r4 UNION ALL SELECT 4, 1 FROM S s1 EXCEPT ALL SELECT 0, s6.sa FROM S s6;
SELECT 4, 1 FROM S s1 UNION ALL SELECT r4.rb, r4.rb FROM R r4 EXCEPT ALL SELECT 0, s6.sa FROM S s6;
SELECT r4.rb, 7 FROM R r4 UNION ALL SELECT 4, 1 FROM S s1 EXCEPT ALL SELECT 0, 7 FROM S s6;
SELECT COALESCE(r4.ra, 2, 5), r4.rb FROM R r4 UNION ALL SELECT 4, 1 FROM S s1;
