-- Outer joins and NULLs over DBToaster's employee schema (dialect sql,
-- the default). Department 10 (ACCOUNTING) has no employees and
-- department 40's location 167 is not in LOCATION: the LEFT JOINs keep them,
-- with NULL for what is missing.
CREATE STREAM EMPLOYEE(employee_id INT NOT NULL, last_name VARCHAR(30), first_name VARCHAR(20),
    middle_name CHAR(1), job_id INT, manager_id INT, hire_date DATE, salary FLOAT,
    commission FLOAT, department_id INT)
  FROM FILE 'examples/employee/data/employee.dat' LINE DELIMITED CSV;
CREATE STREAM DEPARTMENT(department_id INT NOT NULL, name VARCHAR(20), location_id INT)
  FROM FILE 'examples/employee/data/department.dat' LINE DELIMITED CSV;
CREATE STREAM JOB(job_id INT NOT NULL, function VARCHAR(20))
  FROM FILE 'examples/employee/data/job.dat' LINE DELIMITED CSV;
CREATE STREAM LOCATION(location_id INT NOT NULL, regional_group VARCHAR(20))
  FROM FILE 'examples/employee/data/location.dat' LINE DELIMITED CSV;

-- Every department with its head count and pay; ACCOUNTING has 0 and NULLs.
-- name: DepartmentPay
SELECT d.name, COUNT(e.employee_id) AS staff, SUM(e.salary) AS payroll,
       AVG(e.salary) AS mean_salary, MAX(e.commission) AS top_commission
FROM department d LEFT JOIN employee e ON e.department_id = d.department_id
GROUP BY d.name;

-- Departments without employees (an anti-join written as an outer join).
-- name: EmptyDepartments
SELECT d.name FROM department d LEFT OUTER JOIN employee e ON e.department_id = d.department_id
WHERE e.employee_id IS NULL;

-- Departments and where they are; OPERATIONS' location is unknown.
-- name: DepartmentSites
SELECT d.name, COALESCE(l.regional_group, 'unknown') AS site
FROM location l RIGHT JOIN department d ON d.location_id = l.location_id;

-- Each employee with the manager's name, if the manager is an employee.
-- name: Managers
SELECT e.last_name, m.last_name AS manager
FROM employee e LEFT JOIN employee m ON e.manager_id = m.employee_id;

-- Jobs and departments side by side: every job, every department.
-- name: JobsByDepartment
SELECT j.function, d.name, COUNT(*) AS n, COUNT(e.employee_id) AS staff
FROM (employee e JOIN job j ON e.job_id = j.job_id)
  FULL JOIN department d ON e.department_id = d.department_id
GROUP BY j.function, d.name;

-- Commission as a share of salary, NULL where there is none to divide.
-- name: CommissionShare
SELECT d.name, SUM(e.commission) / NULLIF(SUM(e.salary), 0) AS share
FROM department d LEFT JOIN employee e ON e.department_id = d.department_id AND e.commission > 0
GROUP BY d.name;
