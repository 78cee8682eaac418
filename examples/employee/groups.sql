-- Aggregates over DBToaster's employee schema: grouping, HAVING, AVG,
-- MIN/MAX, COUNT(DISTINCT) and EXTRACT.
CREATE STREAM EMPLOYEE(employee_id INT, last_name VARCHAR(30), first_name VARCHAR(20),
    middle_name CHAR(1), job_id INT, manager_id INT, hire_date DATE, salary FLOAT,
    commission FLOAT, department_id INT)
  FROM FILE 'examples/employee/data/employee.dat' LINE DELIMITED CSV;
SELECT COUNT(*), SUM(salary), AVG(salary), MIN(salary), MAX(salary) FROM employee;
SELECT department_id, COUNT(*) AS n, SUM(salary + commission) AS pay FROM employee GROUP BY department_id;
SELECT job_id, AVG(salary) FROM employee GROUP BY job_id HAVING COUNT(*) > 1;
SELECT EXTRACT(YEAR FROM hire_date) AS y, EXTRACT(MONTH FROM hire_date) AS m, COUNT(*) FROM employee GROUP BY EXTRACT(YEAR FROM hire_date), EXTRACT(MONTH FROM hire_date);
SELECT COUNT(DISTINCT manager_id), COUNT(DISTINCT department_id) FROM employee;
SELECT department_id, MAX(hire_date_num) FROM (SELECT department_id, DATE_PART('year', hire_date) * 10000 + DATE_PART('month', hire_date) * 100 + DATE_PART('day', hire_date) AS hire_date_num FROM employee) e GROUP BY department_id;
