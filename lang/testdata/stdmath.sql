-- DBToaster's numeric standard functions, in any case, with INT and FLOAT
-- arguments, in WHERE, in aggregates and as group keys.
CREATE STREAM pos (id INT, t INT, x FLOAT, y FLOAT, z FLOAT, name STRING, day DATE);

select hash(id) as h, radians(t) as r, count(*), sum(vec_length(x, y, z)), max(degrees(x))
from pos
where sqrt(x * x + 1) > 1.5 and Cos(x) < sin(y) and pow(x, 2) < POW(2, t)
group by hash(id), radians(t);

SELECT p1.t, SUM(VEC_DOT(p1.x, p1.y, p1.z, p2.x, p2.y, p2.z)) AS dot,
       SUM(VECTOR_ANGLE(p1.x, p1.y, p1.z, p2.x, p2.y, 1)) AS angle,
       SUM(DIHEDRAL_ANGLE(p1.x, p1.y, p1.z, p2.x, p2.y, p2.z, 0, 0, 1, p1.x, 1, p2.z)) AS dihedral,
       COUNT(*) AS hashes
FROM pos p1, pos p2
WHERE p1.t = p2.t AND p1.id < p2.id AND HASH(p1.x) > HASH(p1.name) AND HASH(p1.day) <> 0
GROUP BY p1.t;
