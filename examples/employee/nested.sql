-- Nested queries over DBToaster's employee schema: scalar subqueries,
-- correlated ones, EXISTS, IN and ALL, and a derived table.
CREATE STREAM EMPLOYEE(employee_id INT, last_name VARCHAR(30), first_name VARCHAR(20),
    middle_name CHAR(1), job_id INT, manager_id INT, hire_date DATE, salary FLOAT,
    commission FLOAT, department_id INT)
  FROM FILE 'examples/employee/data/employee.dat' LINE DELIMITED CSV;
CREATE STREAM DEPARTMENT(department_id INT, name VARCHAR(20), location_id INT)
  FROM FILE 'examples/employee/data/department.dat' LINE DELIMITED CSV;
SELECT last_name, salary FROM employee WHERE salary > (SELECT AVG(salary) FROM employee);
SELECT e.last_name FROM employee e WHERE e.salary > (SELECT AVG(e2.salary) FROM employee e2 WHERE e2.department_id = e.department_id);
SELECT d.name FROM department d WHERE NOT EXISTS (SELECT * FROM employee e WHERE e.department_id = d.department_id);
SELECT COUNT(*) FROM employee WHERE department_id IN (SELECT department_id FROM department WHERE location_id > 122);
SELECT last_name FROM employee WHERE salary >= ALL (SELECT e2.salary FROM employee e2);
SELECT x.department_id, x.total FROM (SELECT department_id, SUM(salary) AS total FROM employee GROUP BY department_id) x WHERE x.total > 3000;
