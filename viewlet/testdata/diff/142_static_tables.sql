-- Static tables, loaded before the streams, joined with streams, alone, and
-- inside nested aggregates.
-- diff: events=600
CREATE TABLE N(K int, G int);
CREATE TABLE W(G int, X int);
CREATE STREAM R(A int, K int);
CREATE STREAM S(K int, C int);
SELECT N.G, SUM(R.A) FROM R, N WHERE R.K = N.K GROUP BY N.G;
SELECT COUNT(*) FROM N, W WHERE N.G = W.G;
SELECT W.X, SUM(R.A * S.C) FROM R, S, N, W WHERE R.K = S.K AND S.K = N.K AND N.G = W.G GROUP BY W.X;
SELECT SUM(R.A) FROM R WHERE R.K IN (SELECT K FROM N WHERE G > 1);
SELECT R.A, COUNT(*) FROM R WHERE R.A > (SELECT SUM(X) FROM W) GROUP BY R.A;
SELECT N.G, COUNT(*) FROM N WHERE EXISTS (SELECT * FROM R WHERE R.K = N.K) GROUP BY N.G;
