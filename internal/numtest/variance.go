package numtest

import (
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/toastgen/toastgen/runtime"
)

// The variance case: VAR_POP, VAR_SAMP and STDDEV of INT values whose
// float sums of squares would cancel to noise (values 10^15 ± 1000, near
// −2^62, and anywhere in int64), under inserts and deletes: the engines
// keep exact integer sums, and their results must equal the exact
// variance rounded once, bit for bit.
const varianceQuery = `CREATE STREAM V(X int, G int);
SELECT G, VAR_POP(X) AS vp, VAR_SAMP(X) AS vs, STDDEV(X) AS sd, COUNT(*) AS n FROM V GROUP BY G;
`

func varianceCase() Case {
	v := func(insert bool, x int64, g int64) Event {
		return Event{"V", insert, []string{strconv.FormatInt(x, 10), strconv.FormatInt(g, 10)}}
	}
	rng := rand.New(rand.NewPCG(3, 9))
	draw := func(g int64) int64 {
		switch g {
		case 1:
			return 1e15 + rng.Int64N(2001) - 1000
		case 2:
			return -(1 << 62) + rng.Int64N(7)
		}
		return rng.Int64()
	}
	type tuple struct{ x, g int64 }
	var live []tuple
	var events []Event
	for range 300 {
		if len(live) > 0 && rng.IntN(10) < 4 {
			i := rng.IntN(len(live))
			events = append(events, v(false, live[i].x, live[i].g))
			live[i] = live[len(live)-1]
			live = live[:len(live)-1]
			continue
		}
		t := tuple{g: 1 + rng.Int64N(3)}
		t.x = draw(t.g)
		live = append(live, t)
		events = append(events, v(true, t.x, t.g))
	}
	c := Case{Name: "numvariance", Query: varianceQuery, Events: events}
	c.Check = func(lines []string) error { return compare(events, lines, varianceModel(events)) }
	return c
}

// varianceModel computes the views of the variance case exactly: the
// two-pass variance in rational arithmetic, rounded once (0 where a group
// has too few values: dialect dbtoaster).
func varianceModel(events []Event) []string {
	groups := map[int64][]int64{}
	var lines []string
	for _, ev := range events {
		x, _ := strconv.ParseInt(ev.Fields[0], 10, 64)
		g, _ := strconv.ParseInt(ev.Fields[1], 10, 64)
		if ev.Insert {
			groups[g] = append(groups[g], x)
		} else {
			i := slices.Index(groups[g], x)
			groups[g] = slices.Delete(groups[g], i, i+1)
		}
		view := runtime.View{Name: "QUERY1", Keys: []runtime.Column{{Name: "G", Type: runtime.Int}},
			Values: []runtime.Column{{Name: "VP", Type: runtime.Float}, {Name: "VS", Type: runtime.Float}, {Name: "SD", Type: runtime.Float}, {Name: "N", Type: runtime.Int}}}
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			xs := groups[k]
			if len(xs) == 0 {
				continue
			}
			vs := exactVariance(xs, 1)
			view.Rows = append(view.Rows, []any{k, exactVariance(xs, 0), vs, math.Sqrt(vs), int64(len(xs))})
		}
		lines = append(lines, viewsJSON([]runtime.View{selectList(view, "G", "vp", "vs", "sd", "n")}))
	}
	return lines
}

// exactVariance is Σ(x − mean)² / (n − sample) in rational arithmetic,
// rounded to float64; 0 below 1 + sample values.
func exactVariance(xs []int64, sample int64) float64 {
	n := int64(len(xs))
	if n < 1+sample {
		return 0
	}
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, new(big.Rat).SetInt64(x))
	}
	mean := sum.Quo(sum, new(big.Rat).SetInt64(n))
	m2 := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(new(big.Rat).SetInt64(x), mean)
		m2.Add(m2, d.Mul(d, d))
	}
	f, _ := m2.Quo(m2, new(big.Rat).SetInt64(n-sample)).Float64()
	return f
}
