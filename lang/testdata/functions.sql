cReAtE sTrEaM people (name VARCHAR(20), phone CHAR(15), born DATE, born_s STRING, score FLOAT, n INTEGER);

select substring(phone, 0, 2) as cc, count(distinct name), min(born), max(score),
       listmax(1, sum(n)) as guard, listmin(score, n) as lm, avg(n)
from people
where regexp_match('^[A-Z]', name) = 1
  and date_part('year', born) = 1980
  and extract(MONTH from born) > 6 and extract(day from born) < 15
group by substring(phone, 0, 2), score, n;

SELECT CAST(n AS FLOAT) AS f, CAST(score AS INT) AS i, CAST(n AS VARCHAR(10)) AS s, CAST(born_s AS DATE) AS d,
       cast_int(score), cast_float(n), cast_string(born), cast_date(born_s), DATE(born_s) AS d2,
       CASE n WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END AS word,
       CASE WHEN score > 0.5 THEN n END AS maybe,
       -n AS neg, -(n + 1) AS neg2, 'it''s' AS quote, 2.5e-3 AS small, .5 AS half
FROM people
WHERE NOT (n = 3) AND n != 4 AND born + INTERVAL '10' DAY > DATE('2000-02-28') - INTERVAL '1' MONTH;

select name, median(n), percentile_cont(0.25) within group (order by score desc),
       percentile_disc(1) within group (order by born), mode() within group (order by name desc), mode(n)
from people group by name;
