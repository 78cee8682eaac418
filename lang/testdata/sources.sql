-- DBToaster's source clauses: framings, adaptors with empty, absent and
-- mixed-case parameter lists, and IN LIST.
create stream R(A int, B int) from file 'r.dat' line delimited csv ();
CREATE STREAM S(A int, B int) FROM FILE 's.dat' CSV;
CREATE STREAM T(A int, B int) FROM FILE 't.dat' '#' DELIMITED Csv (Delimiter := ';', DELETIONS := 'TRUE');
CREATE TABLE U(A int, B int) FROM FILE 'u.dat' FIXEDWIDTH 8 CSV (fields := '|');
CREATE STREAM BIDS(T float, ID int, BROKER_ID int, VOLUME float, PRICE float)
  FROM FILE 'f.csv' Line Delimited Orderbook (Book := 'bids', brokers := '4');
SELECT SUM(r.A) FROM R r WHERE r.B IN LIST (1, 2, 3) AND r.A NOT IN LIST (4);
SELECT SUM(CASE WHEN s.A IN LIST (1, 2) THEN s.B ELSE 0 END) FROM S s;
CREATE STREAM V(A int, B int) FROM FILE 'v.dat' '\n' DELIMITED CSV (delimiter := '\t');
CREATE STREAM W(A int, B int) FROM FILE 'w.dat' '\r\n' DELIMITED CSV (delimiter := '\\');
SELECT COUNT(*) FROM V v, W w WHERE v.A = w.B;
