-- Joins over DBToaster's employee schema: equi-joins, JOIN ... ON, NATURAL
-- JOIN, a self-join on the manager, and a band join on the salary grades.
CREATE STREAM EMPLOYEE(employee_id INT, last_name VARCHAR(30), first_name VARCHAR(20),
    middle_name CHAR(1), job_id INT, manager_id INT, hire_date DATE, salary FLOAT,
    commission FLOAT, department_id INT)
  FROM FILE 'examples/employee/data/employee.dat' LINE DELIMITED CSV;
CREATE STREAM DEPARTMENT(department_id INT, name VARCHAR(20), location_id INT)
  FROM FILE 'examples/employee/data/department.dat' LINE DELIMITED CSV;
CREATE STREAM JOB(job_id INT, function VARCHAR(20))
  FROM FILE 'examples/employee/data/job.dat' LINE DELIMITED CSV;
CREATE STREAM LOCATION(location_id INT, regional_group VARCHAR(20))
  FROM FILE 'examples/employee/data/location.dat' LINE DELIMITED CSV;
CREATE STREAM SALARY_GRADE(grade_id INT, lower_bound FLOAT, upper_bound FLOAT)
  FROM FILE 'examples/employee/data/salary_grade.dat' LINE DELIMITED CSV;
SELECT e.last_name, d.name FROM employee e, department d WHERE e.department_id = d.department_id;
SELECT d.name, COUNT(*) FROM employee e JOIN department d ON e.department_id = d.department_id GROUP BY d.name;
SELECT function, SUM(salary) FROM employee NATURAL JOIN job GROUP BY function;
SELECT e.last_name, m.last_name FROM employee e, employee m WHERE e.manager_id = m.employee_id;
SELECT l.regional_group, COUNT(*), AVG(e.salary) FROM employee e, department d, location l WHERE e.department_id = d.department_id AND d.location_id = l.location_id GROUP BY l.regional_group;
SELECT sg.grade_id, COUNT(*) FROM employee e, salary_grade sg WHERE e.salary BETWEEN sg.lower_bound AND sg.upper_bound GROUP BY sg.grade_id;
