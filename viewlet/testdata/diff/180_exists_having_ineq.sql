-- KNOWN BUG: issue 8 family V (codegen): the generated code evaluates Exists(AggSum([t_c], …))
-- with t_c unbound as one sum over every group (1 once instead of once per group); the
-- interpreter is right. Remove this line once codegen enumerates the groups.
-- Issue 8 family I: a grouped EXISTS whose HAVING and WHERE are both correlated by
-- inequalities: evaluated in place, enumerating the inner groups.
-- diff: events=400
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT t.C FROM T t WHERE t.D > s.B GROUP BY t.C HAVING SUM(t.D) > s.C);
