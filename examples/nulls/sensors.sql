-- A NULL-heavy example in dialect sql (the default): sensors whose
-- site or kind may be unknown, and readings whose sensor, value or quality
-- may be missing, under inserts and deletes. In the data, \N is NULL in any
-- column and an empty field is NULL in an INT, FLOAT or DATE column; deletes
-- remove the last non-NULL value of some groups, so their SUM, AVG, MIN and
-- MAX go back to NULL.
CREATE STREAM SENSOR (id INT NOT NULL, site VARCHAR(10), kind VARCHAR(10))
  FROM FILE 'examples/nulls/data/sensor.csv' LINE DELIMITED CSV (delimiter := '|', deletions := 'true');
CREATE STREAM READING (sensor_id INT, value FLOAT, quality INT)
  FROM FILE 'examples/nulls/data/reading.csv' LINE DELIMITED CSV (delimiter := '|', deletions := 'true');

-- Aggregates skip NULLs; a group whose values are all NULL has NULL ones.
-- name: PerSensor
SELECT sensor_id, COUNT(*) AS n, COUNT(value) AS valued, SUM(value) AS total,
       AVG(value) AS mean, MIN(value) AS low, MAX(value) AS high
FROM READING GROUP BY sensor_id;

-- Every sensor's site, readings or not; NULL sites are one group.
-- name: PerSite
SELECT s.site, COUNT(r.value) AS valued, SUM(r.quality) AS quality
FROM SENSOR s LEFT JOIN READING r ON r.sensor_id = s.id
GROUP BY s.site;

-- Readings of sensors that are not registered (a NULL sensor_id matches nothing).
-- name: Orphans
SELECT COUNT(*) AS orphans, COUNT(r.sensor_id) AS with_id
FROM SENSOR s RIGHT JOIN READING r ON r.sensor_id = s.id
WHERE s.id IS NULL;

-- NOT IN over a subquery that may yield NULL is never TRUE then.
-- name: Quiet
SELECT COUNT(*) AS quiet FROM SENSOR s
WHERE s.id NOT IN (SELECT sensor_id FROM READING WHERE quality < 2);

-- COALESCE, CASE without ELSE, INT / INT and x / 0 (NULL).
-- name: ByKind
SELECT COALESCE(s.kind, 'unknown') AS kind,
       SUM(CASE WHEN r.quality > 2 THEN r.value END) AS good,
       SUM(r.quality / 2) AS halves,
       SUM(12 / r.quality) AS inverse
FROM SENSOR s JOIN READING r ON r.sensor_id = s.id
GROUP BY COALESCE(s.kind, 'unknown');

-- An aggregate without GROUP BY over no rows: COUNT 0, the others NULL.
-- name: Extremes
SELECT COUNT(*) AS n, SUM(value) AS total, MAX(quality) AS best
FROM READING WHERE value > 110;

-- Sites and sensor ids on both sides of a FULL JOIN, IS NOT DISTINCT FROM.
-- name: Coverage
SELECT s.site, r.quality, COUNT(*) AS n
FROM SENSOR s FULL JOIN READING r ON r.sensor_id = s.id AND r.quality IS NOT DISTINCT FROM 3
GROUP BY s.site, r.quality;
