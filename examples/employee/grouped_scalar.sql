-- Scalar subqueries with GROUP BY whose keys the WHERE fixes to the outer
-- row (issue 9, item 4), over DBToaster's employee schema: each yields at
-- most one row per outer row, and none when the group is empty (SQL's
-- NULL: the comparison is not true, the value reads as 0).
CREATE STREAM EMPLOYEE(employee_id INT, last_name VARCHAR(30), first_name VARCHAR(20),
    middle_name CHAR(1), job_id INT, manager_id INT, hire_date DATE, salary FLOAT,
    commission FLOAT, department_id INT)
  FROM FILE 'examples/employee/data/employee.dat' LINE DELIMITED CSV;
CREATE STREAM DEPARTMENT(department_id INT, name VARCHAR(20), location_id INT)
  FROM FILE 'examples/employee/data/department.dat' LINE DELIMITED CSV;
SELECT e.department_id, COUNT(*) AS above_average
FROM employee e
WHERE e.salary > (SELECT AVG(e2.salary) FROM employee e2
                  WHERE e2.department_id = e.department_id GROUP BY e2.department_id)
GROUP BY e.department_id;
SELECT d.name, (SELECT SUM(e.salary) FROM employee e
                WHERE e.department_id = d.department_id GROUP BY e.department_id) AS payroll
FROM department d;
SELECT e.last_name, e.salary
FROM employee e
WHERE e.salary >= (SELECT MAX(e2.salary) FROM employee e2
                   WHERE e2.department_id = e.department_id AND e2.job_id = e.job_id
                   GROUP BY e2.department_id, e2.job_id);
