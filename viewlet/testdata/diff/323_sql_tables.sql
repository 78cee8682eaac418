-- Dialect sql: a TABLE is an ordinary relation. Its rows are loaded before
-- the streams and then inserted and deleted among the streams' events
-- (oracle.Generate), joined with streams, alone, and inside nested
-- aggregates: every statement a stream's trigger has, a table's has too.
-- diff: sql ints=4 events=700
CREATE TABLE N(K int, G int);
CREATE TABLE W(G int NOT NULL, X int);
CREATE STREAM R(A int, K int);
CREATE STREAM S(K int, C int NOT NULL);
SELECT N.G, SUM(R.A) FROM R, N WHERE R.K = N.K GROUP BY N.G;
SELECT COUNT(*) FROM N, W WHERE N.G = W.G;
SELECT W.X, SUM(R.A * S.C) FROM R, S, N, W WHERE R.K = S.K AND S.K = N.K AND N.G = W.G GROUP BY W.X;
SELECT SUM(R.A) FROM R WHERE R.K IN (SELECT K FROM N WHERE G > 1);
SELECT R.A, COUNT(*) FROM R WHERE R.A > (SELECT SUM(X) FROM W) GROUP BY R.A;
SELECT N.G, COUNT(*) FROM N WHERE EXISTS (SELECT * FROM R WHERE R.K = N.K) GROUP BY N.G;
SELECT N.G, MAX(R.A) FROM R LEFT JOIN N ON R.K = N.K GROUP BY N.G;
