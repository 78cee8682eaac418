-- Selections and projections over DBToaster's employee schema: non-aggregate
-- queries are multiset views (one row per distinct tuple, with its COUNT).
CREATE STREAM EMPLOYEE(employee_id INT, last_name VARCHAR(30), first_name VARCHAR(20),
    middle_name CHAR(1), job_id INT, manager_id INT, hire_date DATE, salary FLOAT,
    commission FLOAT, department_id INT)
  FROM FILE 'examples/employee/data/employee.dat' LINE DELIMITED CSV;
SELECT * FROM employee;
SELECT last_name, first_name FROM employee WHERE department_id = 30;
SELECT * FROM employee WHERE last_name LIKE 'D%' OR first_name LIKE '%N';
SELECT employee_id, salary FROM employee WHERE salary BETWEEN 1000 AND 2500;
SELECT employee_id, last_name FROM employee WHERE job_id IN (667, 671) AND NOT (commission > 0);
SELECT last_name, salary * 12 + commission AS annual FROM employee WHERE hire_date >= DATE('1985-03-01');
SELECT DISTINCT department_id FROM employee;
