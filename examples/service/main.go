// Command service is a small Go service around a generated engine: it
// replays a CSV file of scores (player, points) into the leaderboard of
// examples/simple/leaderboard.sql (package generated/leaderboard) in
// batches, prints each change of a player's total and place as the
// engine reports it (OnChanges), prints the top three after each batch,
// and with -http serves the leaderboard as JSON to concurrent readers
// while it replays (runtime.Guard):
//
//	go run ./examples/service
//	go run ./examples/service -http localhost:8080 -delay 200ms
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/toastgen/toastgen/generated/leaderboard"
	"github.com/toastgen/toastgen/runtime"
)

func main() {
	data := flag.String("data", "examples/service/scores.csv", "the scores to replay, one `player,points` per line")
	batch := flag.Int("batch", 25, "events per batch")
	addr := flag.String("http", "", "serve GET /leaders as JSON on `ADDR` while replaying, and after")
	delay := flag.Duration("delay", 0, "pause between batches (to watch the leaderboard move)")
	flag.Parse()
	g := runtime.NewGuard(leaderboard.New())
	if *addr != "" {
		http.Handle("/leaders", leadersHandler(g))
		go func() { log.Fatal(http.ListenAndServe(*addr, nil)) }()
	}
	if err := replay(os.Stdout, g, *data, *batch, *delay); err != nil {
		log.Fatal(err)
	}
	if *addr != "" {
		select {} // keep serving
	}
}

// replay feeds the scores at path to the engine behind g in batches of
// size events, printing the engine's changes of view Leaders and, after
// each batch, the top three.
func replay(w io.Writer, g *runtime.Guard[*leaderboard.Engine], path string, size int, delay time.Duration) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	g.Update(func(e *leaderboard.Engine) error {
		e.OnChanges(func(c runtime.Change) {
			if c.View != "Leaders" {
				return
			}
			switch {
			case c.Old == nil:
				fmt.Fprintf(w, "  player %v joins: total %v, place %v\n", c.Key[0], c.New[0], c.New[1])
			case c.New == nil:
				fmt.Fprintf(w, "  player %v leaves\n", c.Key[0])
			default:
				fmt.Fprintf(w, "  player %v: total %v → %v, place %v → %v\n", c.Key[0], c.Old[0], c.New[0], c.Old[1], c.New[1])
			}
		})
		return nil
	})
	sc := bufio.NewScanner(bytes.NewReader(data))
	var b runtime.Batch
	n, batches := 0, 0
	flush := func() error {
		if b == nil {
			return nil
		}
		batches++
		fmt.Fprintf(w, "batch %d (%d events):\n", batches, b.Len())
		if err := g.Update(func(e *leaderboard.Engine) error { return e.ApplyBatch(b) }); err != nil {
			return err
		}
		b = nil
		var rows []leaderboard.LeadersRow
		g.Read(func(e *leaderboard.Engine) { rows = e.Leaders() })
		slices.SortFunc(rows, func(a, b leaderboard.LeadersRow) int { return cmp.Compare(a.Place, b.Place) })
		fmt.Fprintf(w, "top:")
		for _, r := range rows[:min(3, len(rows))] {
			fmt.Fprintf(w, " #%d player %d (%d)", r.Place, r.A, r.Total)
		}
		fmt.Fprintln(w)
		time.Sleep(delay)
		return nil
	}
	for sc.Scan() {
		n++
		line := sc.Bytes()
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			return fmt.Errorf("%s:%d: want player,points, got %q", path, n, line)
		}
		if b == nil {
			g.Read(func(e *leaderboard.Engine) { b = e.NewBatch() })
		}
		if err := b.Add(leaderboard.RelationR, true, [][]byte{line[:i], line[i+1:]}); err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if b.Len() == size {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}

// leadersHandler serves the leaderboard as JSON, read through g while the
// replay may be applying a batch.
func leadersHandler(g *runtime.Guard[*leaderboard.Engine]) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var rows []leaderboard.LeadersRow
		g.Read(func(e *leaderboard.Engine) { rows = e.Leaders() })
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(rows)
	}
}
