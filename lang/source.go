package lang

import (
	"slices"
	"strconv"
	"strings"
)

// Source clauses follow DBToaster's grammar:
//
//	FROM FILE 'path' [framing] adaptor [( [name := 'value', …] )]
//	framing: LINE DELIMITED | '<string>' DELIMITED | FIXEDWIDTH n
//	adaptor: CSV | ORDERBOOK
//
// Keywords, the adaptor name and parameter names are case-insensitive; an
// absent framing is LINE DELIMITED; an absent or empty parameter list means
// the adaptor's defaults. FROM SOCKET parses and is rejected: toastgen
// replays files. In a record separator and a CSV delimiter the escapes
// \n, \r, \t and \\ stand for newline, carriage return, tab and a
// backslash, since a quoted SQL string cannot hold a newline otherwise;
// '\n' DELIMITED is LINE DELIMITED. Parameters are checked here, at
// compile time, so a misspelled name or a bad value is an error at the
// clause, not a puzzling data error later.

// adaptorParams lists each adaptor's parameters with a check of the value
// (nil: any non-empty string); the error text says what is expected.
var adaptorParams = map[string]map[string]func(string) string{
	"CSV": {
		"delimiter": nonEmpty,
		"fields":    nonEmpty, // DBToaster's name for delimiter
		"deletions": oneOf("true", "false"),
	},
	"ORDERBOOK": {
		"book":          oneOf("bids", "asks"),
		"brokers":       positiveInt,
		"deterministic": oneOf("yes", "no", "true", "false"),
	},
}

func nonEmpty(v string) string {
	if v == "" {
		return "a non-empty string"
	}
	return ""
}

func positiveInt(v string) string {
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil || n <= 0 {
		return "a positive integer"
	}
	return ""
}

func oneOf(vals ...string) func(string) string {
	return func(v string) string {
		for _, w := range vals {
			if strings.EqualFold(v, w) {
				return ""
			}
		}
		return "'" + strings.Join(vals, "' or '") + "'"
	}
}

// source resolves a source clause.
func (r *resolver) source(s *gSource) *Source {
	at := pos(s.Pos)
	switch s.Kind {
	case "FILE":
	case "SOCKET":
		r.fail(at, "FROM SOCKET sources are not supported: toastgen replays files (FROM FILE 'path' …)")
	default:
		r.fail(at, "unknown source FROM %s (want FROM FILE 'path')", s.Kind)
	}
	if s.Path == nil || s.Port != nil {
		r.fail(at, "FROM FILE needs a quoted path: FROM FILE 'path' …")
	}
	src := &Source{Pos: at, Path: unquote(*s.Path), Format: s.Adaptor.Name, Params: map[string]string{}}
	if f := s.Framing; f != nil {
		switch {
		case f.Delim != nil:
			src.RecordSep = unescape(unquote(*f.Delim))
			if src.RecordSep == "" {
				r.fail(pos(f.Pos), "the record separator of '…' DELIMITED must not be empty")
			}
			if src.RecordSep == "\n" {
				src.RecordSep = "" // LINE DELIMITED, which also strips a \r before the newline
			}
		case f.Width != nil:
			n, err := strconv.Atoi(*f.Width)
			if err != nil || n <= 0 {
				r.fail(pos(f.Pos), "FIXEDWIDTH needs a positive record length, got %s", *f.Width)
			}
			src.RecordWidth = n
		}
	}
	params, ok := adaptorParams[src.Format]
	if !ok {
		r.fail(pos(s.Adaptor.Pos), "unknown adaptor %s (want CSV or ORDERBOOK)", src.Format)
	}
	for _, p := range s.Params {
		key := strings.ToLower(p.Key)
		check, ok := params[key]
		if !ok {
			names := make([]string, 0, len(params))
			for k := range params {
				names = append(names, k)
			}
			slices.Sort(names)
			r.fail(pos(p.Pos), "unknown %s parameter %s (want one of %s)", src.Format, strings.ToLower(p.Key), strings.Join(names, ", "))
		}
		if _, dup := src.Params[key]; dup {
			r.fail(pos(p.Pos), "%s parameter %s is given twice", src.Format, key)
		}
		v := unquote(p.Value)
		if key == "delimiter" || key == "fields" {
			v = unescape(v)
		}
		if want := check(v); want != "" {
			r.fail(pos(p.Pos), "%s parameter %s must be %s, got '%s'", src.Format, key, want, v)
		}
		src.Params[key] = v
	}
	if src.Format == "ORDERBOOK" {
		if _, ok := src.Params["book"]; !ok {
			r.fail(at, "an ORDERBOOK source needs book := 'bids' or book := 'asks'")
		}
	}
	return src
}

// unescape replaces the escapes \n, \r, \t and \\ of a separator string;
// any other backslash stands for itself.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case '\\':
			default:
				b.WriteByte(c)
				continue
			}
			i++
		}
		b.WriteByte(c)
	}
	return b.String()
}
