-- The innermost block tests o.B = o.C (through j.C); the middle block's map
-- is keyed by o_c, which only the outer atom binds.
-- diff: ints=4 events=300
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM S o WHERE EXISTS (SELECT * FROM T i WHERE i.C = o.B AND EXISTS (SELECT * FROM T j WHERE j.C = i.C AND j.C = o.C));
SELECT COUNT(*) AS v FROM S o WHERE EXISTS (SELECT * FROM T i WHERE i.C = o.B AND EXISTS (SELECT * FROM T j WHERE j.C = i.C AND j.D > o.C));
