package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toastgen/toastgen/generated/leaderboard"
	"github.com/toastgen/toastgen/runtime"
)

// TestService replays the scores while HTTP readers poll the leaderboard,
// then checks the printed top three and the served leaderboard against
// totals and ranks computed here from the CSV, and the printed changes
// against those totals.
func TestService(t *testing.T) {
	totals := map[int64]int64{}
	data, err := os.ReadFile("scores.csv")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		p, q, _ := strings.Cut(sc.Text(), ",")
		a, _ := strconv.ParseInt(p, 10, 64)
		b, _ := strconv.ParseInt(q, 10, 64)
		totals[a] += b
	}
	type entry struct{ player, total int64 }
	var want []entry
	for p, s := range totals {
		want = append(want, entry{p, s})
	}
	slices.SortFunc(want, func(x, y entry) int {
		if x.total != y.total {
			return int(y.total - x.total)
		}
		return int(x.player - y.player)
	})

	g := runtime.NewGuard(leaderboard.New())
	srv := httptest.NewServer(leadersHandler(g))
	defer srv.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := srv.Client().Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				var rows []leaderboard.LeadersRow
				if err := json.NewDecoder(resp.Body).Decode(&rows); err != nil {
					t.Error(err)
				}
				resp.Body.Close()
			}
		}()
	}
	var out bytes.Buffer
	if err := replay(&out, g, "scores.csv", options{size: 25}); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	top := fmt.Sprintf("top: #1 player %d (%d) #2 player %d (%d) #3 player %d (%d)", want[0].player, want[0].total, want[1].player, want[1].total, want[2].player, want[2].total)
	if last != top {
		t.Errorf("last line %q, want %q", last, top)
	}
	// Each player's last reported total is its final total.
	reported := map[string]string{}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 3 && f[0] == "player" {
			if f[2] == "joins:" {
				reported[f[1]] = strings.TrimSuffix(f[4], ",")
			} else if len(f) > 5 && f[2] == "total" {
				reported[strings.TrimSuffix(f[1], ":")] = strings.TrimSuffix(f[5], ",")
			}
		}
	}
	for p, s := range totals {
		if got := reported[strconv.FormatInt(p, 10)]; got != strconv.FormatInt(s, 10) {
			t.Errorf("player %d: last reported total %s, want %d", p, got, s)
		}
	}
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rows []leaderboard.LeadersRow
	if err := json.NewDecoder(resp.Body).Decode(&rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(totals) {
		t.Errorf("served %d players, want %d", len(rows), len(totals))
	}
}

// TestServiceResume stops the service after five batches, saving its
// state after each, starts it again from the snapshot and checks that it
// applies only the scores after them and ends where a run that never
// stopped ends: the same top three and the same leaderboard.
func TestServiceResume(t *testing.T) {
	var whole bytes.Buffer
	g := runtime.NewGuard(leaderboard.New())
	if err := replay(&whole, g, "scores.csv", options{size: 25}); err != nil {
		t.Fatal(err)
	}
	var want []leaderboard.LeadersRow
	g.Read(func(e *leaderboard.Engine) { want = e.Leaders() })

	state := t.TempDir() + "/board.snap"
	var first, second bytes.Buffer
	if err := replay(&first, runtime.NewGuard(leaderboard.New()), "scores.csv", options{size: 25, state: state, stopAfter: 5}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.String(), "stopped after 5 batches") {
		t.Fatalf("the first run did not stop:\n%s", first.String())
	}
	g2 := runtime.NewGuard(leaderboard.New())
	if err := replay(&second, g2, "scores.csv", options{size: 25, state: state}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(second.String(), "resumed from "+state+": 125 scores applied before\n") {
		t.Fatalf("the second run did not resume after 125 scores:\n%.300s", second.String())
	}
	if n := strings.Count(second.String(), "batch "); n != 12-5 {
		t.Errorf("the second run applied %d batches, want the 7 after the first five", n)
	}
	lastLine := func(s string) string {
		ls := strings.Split(strings.TrimSpace(s), "\n")
		return ls[len(ls)-1]
	}
	if got, want := lastLine(second.String()), lastLine(whole.String()); got != want {
		t.Errorf("resumed run ends with %q, the uninterrupted one with %q", got, want)
	}
	var got []leaderboard.LeadersRow
	g2.Read(func(e *leaderboard.Engine) { got = e.Leaders() })
	if !slices.Equal(got, want) {
		t.Errorf("resumed leaderboard differs:\n%v\nwant\n%v", got, want)
	}
}
