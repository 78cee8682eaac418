// Command service is a small Go service around a generated engine: it
// replays a CSV file of scores (player, points) into the leaderboard of
// examples/simple/leaderboard.sql (package generated/leaderboard) in
// batches, prints each change of a player's total and place as the
// engine reports it (OnChanges), prints the top three after each batch,
// and with -http serves the leaderboard as JSON to concurrent readers
// while it replays (runtime.Guard). With -state FILE it survives a
// restart: it saves the engine's snapshot to FILE after every batch and,
// started again, restores it and goes on with the scores it does not
// cover (-stop-after stops it after some batches, to try):
//
//	go run ./examples/service
//	go run ./examples/service -http localhost:8080 -delay 200ms
//	go run ./examples/service -state /tmp/board.snap -stop-after 5
//	go run ./examples/service -state /tmp/board.snap
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
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
	state := flag.String("state", "", "restore the engine from the snapshot in `FILE` if there is one, and save it there after every batch")
	stopAfter := flag.Int("stop-after", 0, "stop after `N` batches (0: at the end of the scores)")
	flag.Parse()
	g := runtime.NewGuard(leaderboard.New())
	if *addr != "" {
		http.Handle("/leaders", leadersHandler(g))
		go func() { log.Fatal(http.ListenAndServe(*addr, nil)) }()
	}
	if err := replay(os.Stdout, g, *data, options{size: *batch, delay: *delay, state: *state, stopAfter: *stopAfter}); err != nil {
		log.Fatal(err)
	}
	if *addr != "" {
		select {} // keep serving
	}
}

// options say how replay feeds the engine.
type options struct {
	size      int           // events per batch
	delay     time.Duration // pause after each batch
	state     string        // the snapshot file: restored from, saved after each batch
	stopAfter int           // stop after so many batches (0: never)
}

// replay feeds the scores at path to the engine behind g in batches of
// opts.size events, printing the engine's changes of view Leaders and,
// after each batch, the top three. With opts.state it first restores the
// engine from the snapshot there, if any, skipping the scores it covers,
// and saves it there after each batch.
func replay(w io.Writer, g *runtime.Guard[*leaderboard.Engine], path string, opts options) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var skip int64
	if opts.state != "" {
		if f, err := os.Open(opts.state); err == nil {
			err := g.Update(func(e *leaderboard.Engine) error {
				srcs, err := e.RestoreSnapshot(bufio.NewReader(f))
				for _, s := range srcs {
					skip += s.Events
				}
				return err
			})
			f.Close()
			if err != nil {
				return fmt.Errorf("-state %s: %v", opts.state, err)
			}
			fmt.Fprintf(w, "resumed from %s: %d scores applied before\n", opts.state, skip)
		} else if !os.IsNotExist(err) {
			return err
		}
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
		if opts.state != "" {
			if err := save(g, opts.state, int64(n)); err != nil {
				return err
			}
		}
		var rows []leaderboard.LeadersRow
		g.Read(func(e *leaderboard.Engine) { rows = e.Leaders() })
		slices.SortFunc(rows, func(a, b leaderboard.LeadersRow) int { return cmp.Compare(a.Place, b.Place) })
		fmt.Fprintf(w, "top:")
		for _, r := range rows[:min(3, len(rows))] {
			fmt.Fprintf(w, " #%d player %d (%d)", r.Place, r.A, r.Total)
		}
		fmt.Fprintln(w)
		time.Sleep(opts.delay)
		if batches == opts.stopAfter {
			return errStopped
		}
		return nil
	}
	for sc.Scan() {
		n++
		if int64(n) <= skip {
			continue // in the restored state
		}
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
		if b.Len() == opts.size {
			if err := flush(); err == errStopped {
				fmt.Fprintf(w, "stopped after %d batches\n", batches)
				return nil
			} else if err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil && err != errStopped {
		return err
	}
	return nil
}

// errStopped ends a replay after options.stopAfter batches.
var errStopped = errors.New("stopped")

// save writes the snapshot of the engine behind g, covering the first n
// scores, to path: to a file beside it, then renamed over it, so that a
// crash while saving keeps the previous snapshot.
func save(g *runtime.Guard[*leaderboard.Engine], path string, n int64) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	g.Read(func(e *leaderboard.Engine) {
		err = e.WriteSnapshot(bw, runtime.SourceCount{Relation: "R", Events: n})
	})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, path)
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
