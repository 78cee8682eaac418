package oracle

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Case is a differential-test query file with its directives (see
// viewlet/diff_test.go for the syntax).
type Case struct {
	Path       string
	Src        []byte
	KnownBug   string // set by a -- KNOWN BUG: line
	Depth0     bool
	Dialect    lang.Dialect // lang.SQL with a "-- diff: sql" directive
	Events     int
	DeleteFrac float64
	Domain     Domain
}

// ReadCase reads a query file and its "-- diff:" directives; events and
// deleteFrac are the defaults the directives override.
func ReadCase(path string, events int, deleteFrac float64) (*Case, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Case{Path: path, Src: src, Events: events, DeleteFrac: deleteFrac}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "-- KNOWN BUG:"); ok {
			c.KnownBug = strings.TrimSpace(rest)
			continue
		}
		rest, ok := strings.CutPrefix(line, "-- diff:")
		if !ok {
			continue
		}
		for _, d := range strings.Fields(rest) {
			if d == "depth0" {
				c.Depth0 = true
				continue
			}
			if d == "sql" {
				c.Dialect = lang.SQL
				continue
			}
			k, v, ok := strings.Cut(d, "=")
			if k == "nulls" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 || f > 1 {
					return nil, fmt.Errorf("%s: bad directive %q", path, d)
				}
				if f == 0 {
					f = -1 // no NULLs (Domain's zero is the default)
				}
				c.Domain.NullFrac = f
				continue
			}
			if k == "skew" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 || f >= 1 {
					return nil, fmt.Errorf("%s: bad directive %q", path, d)
				}
				c.Domain.Skew = f
				continue
			}
			if k == "deletes" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 || f >= 0.5 {
					return nil, fmt.Errorf("%s: bad directive %q", path, d)
				}
				c.DeleteFrac = f
				continue
			}
			n, err := strconv.Atoi(v)
			if !ok || err != nil || n <= 0 {
				return nil, fmt.Errorf("%s: bad directive %q", path, d)
			}
			switch k = strings.ToUpper(k); k {
			case "INTS":
				c.Domain.Ints = n
			case "DAYS":
				c.Domain.Days = n
			case "EVENTS":
				c.Events = n
			case "WORDS":
				c.Domain.Words = slices.Clone(DefaultWords)
				for i := len(c.Domain.Words); i < n; i++ {
					c.Domain.Words = append(c.Domain.Words, fmt.Sprintf("word%03d", i))
				}
			default:
				if c.Domain.Columns == nil {
					c.Domain.Columns = map[string]Domain{}
				}
				c.Domain.Columns[k] = Domain{Ints: n}
			}
		}
	}
	return c, sc.Err()
}
