package tpchgen

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGenerate checks a small slice: the counts of a thousandth of scale
// factor 1, sequence numbers that never decrease within a file, lineitems
// of the slice's suppliers only, deletes only of orders inserted before,
// with all their lineitems.
func TestGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("generates scale factor 1's orders (a few seconds)")
	}
	dir := t.TempDir()
	n, err := Generate(dir, Options{Fraction: 0.001, DeleteFrac: 0.1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n["customer"] != 150 || n["nation"] != 25 || n["region"] != 5 || n["supplier"] != 10 {
		t.Errorf("counts %v", n)
	}
	// About 10 orders per customer, a tenth deleted again.
	if n["orders"] < 1500 || n["orders"] > 1900 || n["lineitem"] < 4*n["orders"] || n["lineitem"] > 5*n["orders"] {
		t.Errorf("counts %v", n)
	}
	live := map[string]int{} // order key → lineitems inserted minus deleted
	for _, name := range []string{"orders", "lineitem"} {
		f, err := os.Open(filepath.Join(dir, name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(f)
		last := ""
		for s.Scan() {
			cols := strings.Split(s.Text(), "|")
			if len(cols) != map[string]int{"orders": 11, "lineitem": 18}[name] {
				t.Fatalf("%s: %d columns in %q", name, len(cols), s.Text())
			}
			if len(cols[0]) < len(last) || len(cols[0]) == len(last) && cols[0] < last {
				t.Fatalf("%s: sequence %s after %s", name, cols[0], last)
			}
			last = cols[0]
			if name == "lineitem" {
				if k, err := strconv.Atoi(cols[4]); err != nil || k < 1 || k > 10 {
					t.Fatalf("lineitem of supplier %s: not one of the slice's 10", cols[4])
				}
			}
			d := 1
			if cols[1] == "0" {
				d = -1
			}
			if name == "orders" {
				live["o"+cols[2]] += d
			} else {
				live["l"+cols[2]] += d
			}
			if live["o"+cols[2]] < 0 || live["l"+cols[2]] < 0 {
				t.Fatalf("%s: delete of an absent order %s", name, cols[2])
			}
		}
		f.Close()
	}
	for k, c := range live {
		if k[0] == 'l' && c != 0 && live["o"+k[1:]] == 0 {
			t.Errorf("order %s deleted with %d lineitems left", k[1:], c)
		}
	}
}
