package calculus_test

import (
	"os"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// TestPartition checks the partition plans of examples and small queries
// (dialect sql, as toastgen m3 -partitions compiles them by default).
func TestPartition(t *testing.T) {
	const rst = `CREATE STREAM R(A int, B int); CREATE STREAM S(B int, C int); CREATE STREAM T(C int, D int);
CREATE TABLE U(B int, E int);
`
	for _, c := range []struct {
		name, path, src string
		want            []string // lines of the plan, in order
	}{
		{name: "q3", path: "../examples/tpch/q3.sql", want: []string{"LINEITEM by L_ORDERKEY", "ORDERS by O_ORDERKEY", "CUSTOMER broadcast", "QUERY1: partition-local"}},
		{name: "q1", path: "../examples/tpch/q1.sql", want: []string{"LINEITEM by", "QUERY1: the sum of the partitions' maps"}},
		{name: "axfinder", path: "../examples/finance/axfinder.sql", want: []string{"BIDS by BROKER_ID", "ASKS by BROKER_ID", "partition-local"}},
		{name: "vwap", path: "../examples/finance/vwap.sql", want: []string{"not partitionable", "nested aggregate"}},
		{name: "count", src: rst + "SELECT COUNT(*) FROM R;", want: []string{"R by A", "QUERY1: the sum"}},
		{name: "join on B", src: rst + "SELECT r.A, SUM(s.C) FROM R r, S s WHERE r.B = s.B GROUP BY r.A;", want: []string{"R by B", "S by B", "the sum"}},
		{name: "grouped by the join column", src: rst + "SELECT s.B, SUM(r.A) FROM R r, S s WHERE r.B = s.B GROUP BY s.B;", want: []string{"R by B", "S by B", "partition-local"}},
		// A chain R–S–T: R and S by B, T broadcast (or S and T by C).
		{name: "chain", src: rst + "SELECT SUM(r.A * t.D) FROM R r, S s, T t WHERE r.B = s.B AND s.C = t.C;", want: []string{"broadcast", "the sum"}},
		{name: "static table", src: rst + "SELECT SUM(u.E) FROM R r, U u WHERE r.B = u.B;", want: []string{"R by B", "U broadcast"}},
		{name: "broadcast only", src: rst + "SELECT SUM(u.E) FROM U u;", want: []string{"not partitionable", "no stream relation"}},
		{name: "global nested sum", src: rst + "SELECT SUM(r.A) FROM R r WHERE r.B > (SELECT SUM(s.B) FROM S s);", want: []string{"R by", "S broadcast", "from one partition"}},
		{name: "correlated nested sum", src: rst + "SELECT SUM(r.A) FROM R r WHERE r.A > (SELECT SUM(r2.A) FROM R r2 WHERE r2.B = r.B);", want: []string{"R by B"}},
		{name: "self-join on two columns", src: rst + "SELECT COUNT(*) FROM R r1, R r2 WHERE r1.A = r2.B;", want: []string{"not partitionable", "R is joined on another column"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			path := c.name + ".sql"
			if c.path != "" {
				var err error
				if src, err = os.ReadFile(c.path); err != nil {
					t.Fatal(err)
				}
				path = c.path
			}
			f, err := lang.Config{Dialect: lang.SQL}.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			qs, err := calculus.FromSQL(f)
			if err != nil {
				t.Fatal(err)
			}
			got := calculus.Partition(f.Relations, qs).String()
			at := 0
			for _, w := range c.want {
				i := strings.Index(got[at:], w)
				if i < 0 {
					t.Fatalf("plan lacks %q (in order):\n%s", w, got)
				}
				at += i + len(w)
			}
		})
	}
}
