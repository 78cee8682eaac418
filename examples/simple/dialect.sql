-- DBToaster's own spellings, as its query files write them: lower-case
-- keywords, adaptors with an empty or absent parameter list, '\n'
-- framing written out, IN LIST, and constant queries (SELECT without
-- FROM), over R(A,B), S(B,C) and T(C,D).
create stream R(A int, B int) from file 'examples/simple/r.dat' line delimited csv ();
create stream S(B int, C int) from file 'examples/simple/s.dat' '\n' delimited Csv (Delimiter := ',');
create stream T(C int, D int) from file 'examples/simple/t.dat' line delimited csv;

select 1;
select (select 2) as two, 3 as three;
select sum(A) from R where B in list (1, 2, 3);
select B, count(*) from R where A not in list (2, 4) group by B;
select sum(case when S.B in list (1, 3, 5) then S.C else 0 end) from S;
select R.A, sum(T.D) from R, S, T where R.B = S.B and S.C = T.C and T.D in (select 1) group by R.A;
select x.C, x.n from (select C, count(*) as n from T group by C) x, (select 2 as lo) k where x.C >= k.lo;
