package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Source iterates over the events of one relation's FROM FILE clause. Every
// event has a sequence number, an insert/delete flag and one field per
// column of the relation, in schema order. The fields alias the file's bytes
// or an internal buffer: they are valid until the next call to Next.
//
// Framing splits the file into records: lines (LINE DELIMITED; empty lines
// are skipped, "\r\n" accepted), records separated by a string ('<s>'
// DELIMITED; line ends around a record are dropped, empty records skipped),
// or records of exactly n bytes
// (FIXEDWIDTH n; a shorter last record is a data error). A record is then
// read by the adaptor as a line would be. Row numbers in errors count
// records. A UTF-8 byte order mark at the start of the file is dropped before
// framing.
//
// Formats:
//
//   - CSV: one tuple a line, fields separated by Params["delimiter"] or
//     Params["fields"], DBToaster's name for it (default ","; no quoting). With Params["deletions"] = "true" every line starts
//     with two more fields, a sequence number and an operation (1 = insert,
//     0 = delete); otherwise every line is an insert whose sequence number is
//     its line number. One empty trailing field (TPC-H ".tbl" style "a|b|c|")
//     is ignored; empty lines are skipped; "\r\n" line ends are accepted.
//   - ORDERBOOK: the order-book adaptor of the finance queries over a trace of
//     messages "t,id,action,volume,price" (see orderBook); the sequence number
//     of an event is the line number of the message that caused it, so that
//     the BIDS and ASKS streams of one trace interleave in trace order.
type Source struct {
	path   string
	data   []byte
	pos    int
	line   int // line number of the current event
	ncols  int
	fields [][]byte
	err    error

	// event
	seq    int64
	insert bool

	// framing
	recSep   []byte // '<s>' DELIMITED
	recWidth int    // FIXEDWIDTH n

	// CSV
	delim     []byte
	deletions bool

	// ORDERBOOK
	book *orderBook
}

// utf8BOM is the byte order mark some editors write at the start of a UTF-8
// file; NewSource drops it.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// NewSource returns a source for rel over data, the contents of the file at
// path (used in error messages). rel.Source must be set.
func NewSource(rel Relation, path string, data []byte) (*Source, error) {
	spec := rel.Source
	if spec == nil {
		return nil, fmt.Errorf("relation %s has no source", rel.Name)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	s := &Source{path: path, data: data, ncols: len(rel.Columns)}
	delim := ","
	for _, k := range []string{"delimiter", "fields"} { // fields is DBToaster's name
		if d, ok := spec.Params[k]; ok && d != "" {
			delim = d
		}
	}
	s.delim = []byte(delim)
	if spec.RecordWidth < 0 {
		return nil, fmt.Errorf("relation %s: FIXEDWIDTH %d: the record length must be positive", rel.Name, spec.RecordWidth)
	}
	s.recWidth = spec.RecordWidth
	if spec.RecordSep != "" {
		s.recSep = []byte(spec.RecordSep)
	}
	switch strings.ToUpper(spec.Format) {
	case "CSV", "":
		s.deletions = strings.EqualFold(spec.Params["deletions"], "true")
		s.fields = make([][]byte, 0, s.ncols+3)
	case "ORDERBOOK":
		if s.ncols != 5 {
			return nil, fmt.Errorf("relation %s: an ORDERBOOK source needs the schema (T float, ID int, BROKER_ID int, VOLUME float, PRICE float), got %d columns", rel.Name, s.ncols)
		}
		b, err := newOrderBook(spec.Params)
		if err != nil {
			return nil, fmt.Errorf("relation %s: %v", rel.Name, err)
		}
		s.book = b
		s.fields = make([][]byte, 0, 6)
	default:
		return nil, fmt.Errorf("relation %s: unknown source format %q", rel.Name, spec.Format)
	}
	return s, nil
}

// Next advances to the next event and reports whether there is one. At the
// end of the data or on an error it returns false; then Err tells which.
func (s *Source) Next() bool {
	if s.err != nil {
		return false
	}
	if s.book != nil {
		return s.nextOrderBook()
	}
	return s.nextCSV()
}

// Seq is the current event's sequence number.
func (s *Source) Seq() int64 { return s.seq }

// Insert reports whether the current event is an insert (else a delete).
func (s *Source) Insert() bool { return s.insert }

// Fields are the current event's fields, one per column.
func (s *Source) Fields() [][]byte { return s.fields }

// Line is the 1-based line number of the current event in the file.
func (s *Source) Line() int { return s.line }

// Path is the file path the source reads.
func (s *Source) Path() string { return s.path }

// Err is the error that stopped Next, if any: a *FieldError.
func (s *Source) Err() error { return s.err }

// Lines counts the records (lines, unless another framing is declared) of
// the source's data, for progress reports.
func (s *Source) Lines() int {
	if s.recWidth > 0 {
		return (len(s.data) + s.recWidth - 1) / s.recWidth
	}
	if s.recSep != nil {
		return bytes.Count(s.data, s.recSep) + 1
	}
	n := bytes.Count(s.data, []byte{'\n'})
	if len(s.data) > 0 && s.data[len(s.data)-1] != '\n' {
		n++
	}
	return n
}

// nextLine returns the next non-empty record (a line without its line end,
// unless another framing is declared), or false at the end of the data or on
// a framing error (then s.err is set).
func (s *Source) nextLine() ([]byte, bool) {
	if s.recWidth > 0 {
		return s.nextFixed()
	}
	if s.recSep != nil {
		return s.nextDelimited()
	}
	for s.pos < len(s.data) {
		rest := s.data[s.pos:]
		i := bytes.IndexByte(rest, '\n')
		var ln []byte
		if i < 0 {
			ln = rest
			s.pos = len(s.data)
		} else {
			ln = rest[:i]
			s.pos += i + 1
		}
		s.line++
		if len(ln) > 0 && ln[len(ln)-1] == '\r' {
			ln = ln[:len(ln)-1]
		}
		if len(ln) > 0 {
			return ln, true
		}
	}
	return nil, false
}

// nextFixed returns the next record of exactly s.recWidth bytes.
func (s *Source) nextFixed() ([]byte, bool) {
	if s.pos >= len(s.data) {
		return nil, false
	}
	s.line++
	rest := s.data[s.pos:]
	if len(rest) < s.recWidth {
		s.err = &FieldError{Path: s.path, Row: s.line, Err: fmt.Errorf("the last record has %d bytes, FIXEDWIDTH %d needs %d per record", len(rest), s.recWidth, s.recWidth)}
		return nil, false
	}
	s.pos += s.recWidth
	return rest[:s.recWidth], true
}

// nextDelimited returns the next non-empty record ended by s.recSep (or by
// the end of the data).
func (s *Source) nextDelimited() ([]byte, bool) {
	for s.pos < len(s.data) {
		rest := s.data[s.pos:]
		var rec []byte
		if i := bytes.Index(rest, s.recSep); i < 0 {
			rec = rest
			s.pos = len(s.data)
		} else {
			rec = rest[:i]
			s.pos += i + len(s.recSep)
		}
		s.line++
		// Line ends around a record are not part of it: "a#b#\n" is two
		// records, not three.
		rec = bytes.Trim(rec, "\r\n")
		if len(rec) > 0 {
			return rec, true
		}
	}
	return nil, false
}

// fieldError is the *FieldError of field got of the current record, which
// does not parse as want; err is the parser's error.
func (s *Source) fieldError(col, want string, got []byte, err error) error {
	return &FieldError{Path: s.path, Row: s.line, Column: col, Want: want, Got: string(got), Err: err}
}

// split splits ln at s.delim into s.fields, reusing its storage.
func (s *Source) split(ln []byte) {
	f := s.fields[:0]
	if len(s.delim) == 1 {
		d := s.delim[0]
		for {
			i := bytes.IndexByte(ln, d)
			if i < 0 {
				break
			}
			f = append(f, ln[:i])
			ln = ln[i+1:]
		}
	} else {
		for {
			i := bytes.Index(ln, s.delim)
			if i < 0 {
				break
			}
			f = append(f, ln[:i])
			ln = ln[i+len(s.delim):]
		}
	}
	s.fields = append(f, ln)
}

func (s *Source) nextCSV() bool {
	ln, ok := s.nextLine()
	if !ok {
		return false
	}
	s.split(ln)
	want := s.ncols
	if s.deletions {
		want += 2
	}
	f := s.fields
	if len(f) == want+1 && len(f[want]) == 0 {
		f = f[:want]
	}
	if len(f) != want {
		s.err = countError(s.path, s.line, want, len(f))
		return false
	}
	if !s.deletions {
		s.seq, s.insert = int64(s.line), true
		s.fields = f
		return true
	}
	seq, err := ParseInt(f[0])
	if err != nil {
		s.err = s.fieldError("(sequence number)", "INT", f[0], err)
		return false
	}
	switch string(f[1]) {
	case "1":
		s.insert = true
	case "0":
		s.insert = false
	default:
		s.err = &FieldError{Path: s.path, Row: s.line, Column: "(operation)", Want: "1 or 0", Got: string(f[1])}
		return false
	}
	s.seq = seq
	s.fields = f[2:]
	return true
}

// orderBook is the state of the order-book adaptor for one book.
//
// Each message "t,id,action,volume,price" of the trace is applied to the
// book, which keeps the live orders by id:
//   - B (buy) is inserted into the bids book, S (sell) into the asks book;
//     the order's broker is id mod brokers when deterministic, otherwise a
//     pseudo-random broker in [0, brokers) drawn from a PCG generator with the
//     fixed seed (orderBookSeed1, orderBookSeed2), so runs are reproducible
//     (BIDS and ASKS each draw from their own generator, in message order).
//     An order whose id is already live is replaced (its tuple deleted first).
//   - E (partial execution) of a live order deletes its tuple, subtracts the
//     message's volume, and if the remainder is positive inserts the tuple
//     again with the new volume (same T, ID, broker and price).
//   - D (cancel) or F (fill) of a live order deletes its tuple.
//   - Messages about ids not live in this book, and other actions (X, C, T,
//     …), change nothing.
type orderBook struct {
	action  byte // 'B' for bids, 'S' for asks
	brokers int64
	det     bool
	rng     *rand.Rand
	live    map[int64]bookOrder

	pending   bool // an insert of cur follows the delete just emitted
	cur       bookOrder
	brokerBuf []byte
	volBuf    []byte
}

// bookOrder is a live order. t, id, price and (until an execution changes
// the volume) vol alias the trace's bytes.
type bookOrder struct {
	t, id, price, vol []byte
	volume            float64
	broker            int64
}

// The fixed seed of the non-deterministic broker assignment.
const (
	orderBookSeed1 = 0x70a57
	orderBookSeed2 = 0xdb7
)

func newOrderBook(params map[string]string) (*orderBook, error) {
	b := &orderBook{brokers: 10, live: make(map[int64]bookOrder)}
	switch strings.ToLower(params["book"]) {
	case "bids":
		b.action = 'B'
	case "asks":
		b.action = 'S'
	default:
		return nil, fmt.Errorf("ORDERBOOK: book must be bids or asks, got %q", params["book"])
	}
	if v, ok := params["brokers"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("ORDERBOOK: brokers must be a positive integer, got %q", v)
		}
		b.brokers = n
	}
	b.det = strings.EqualFold(params["deterministic"], "yes")
	if !b.det {
		b.rng = rand.New(rand.NewPCG(orderBookSeed1, orderBookSeed2))
	}
	return b, nil
}

// emit sets the current event to the tuple of o.
func (s *Source) emit(o *bookOrder, insert bool) {
	b := s.book
	b.brokerBuf = strconv.AppendInt(b.brokerBuf[:0], o.broker, 10)
	vol := o.vol
	if vol == nil {
		b.volBuf = strconv.AppendFloat(b.volBuf[:0], o.volume, 'f', -1, 64)
		vol = b.volBuf
	}
	s.fields = append(s.fields[:0], o.t, o.id, b.brokerBuf, vol, o.price)
	s.insert = insert
}

func (s *Source) nextOrderBook() bool {
	b := s.book
	if b.pending {
		b.pending = false
		s.emit(&b.cur, true)
		return true
	}
	for {
		ln, ok := s.nextLine()
		if !ok {
			return false
		}
		s.split(ln)
		f := s.fields
		if len(f) == 6 && len(f[5]) == 0 {
			f = f[:5]
		}
		if len(f) != 5 {
			s.err = countError(s.path, s.line, 5, len(f))
			return false
		}
		act := bytes.TrimSpace(f[2])
		if len(act) != 1 {
			continue
		}
		a := act[0]
		if a != b.action && a != 'E' && a != 'D' && a != 'F' {
			continue
		}
		id, err := ParseInt(f[1])
		if err != nil {
			s.err = s.fieldError("id", "INT", f[1], err)
			return false
		}
		s.seq = int64(s.line)
		if a == b.action {
			o := bookOrder{t: f[0], id: f[1], price: f[4], vol: f[3]}
			if o.volume, err = ParseFloat(f[3]); err != nil {
				s.err = s.fieldError("volume", "FLOAT", f[3], err)
				return false
			}
			if _, err := ParseFloat(f[4]); err != nil {
				s.err = s.fieldError("price", "FLOAT", f[4], err)
				return false
			}
			if b.det {
				o.broker = (id%b.brokers + b.brokers) % b.brokers
			} else {
				o.broker = b.rng.Int64N(b.brokers)
			}
			if old, ok := b.live[id]; ok {
				// A duplicate id replaces the live order.
				b.live[id] = o
				b.cur, b.pending = o, true
				s.emit(&old, false)
				return true
			}
			b.live[id] = o
			s.emit(&o, true)
			return true
		}
		o, ok := b.live[id]
		if !ok {
			continue
		}
		if a == 'E' {
			v, err := ParseFloat(f[3])
			if err != nil {
				s.err = s.fieldError("volume", "FLOAT", f[3], err)
				return false
			}
			s.emit(&o, false)
			o.volume -= v
			o.vol = nil
			if o.volume > 0 {
				b.live[id] = o
				b.cur, b.pending = o, true
			} else {
				delete(b.live, id)
			}
			return true
		}
		// D or F
		delete(b.live, id)
		s.emit(&o, false)
		return true
	}
}

// ReplayOptions configures Replay and Collect.
type ReplayOptions struct {
	// Dir is the directory against which relative source paths are resolved;
	// empty means the working directory.
	Dir string
	// Progress, if set, is called now and then with the number of input lines
	// consumed so far and the total number of lines of the stream files.
	Progress func(done, total int)
	// position, if set, is told the file and line of each event before
	// it is applied (Workers, which applies events later, positions its
	// errors with it).
	position func(path string, line int)
}

// positioner is an engine that wants the position of each event Replay
// applies (ReplayOptions.position).
type positioner interface {
	notePosition(path string, line int)
}

// resolve returns the file path of a source path.
func (o ReplayOptions) resolve(path string) string {
	if o.Dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(o.Dir, path)
}

// sink receives events; rel indexes Engine.Relations().
type sink func(rel int, insert bool, fields [][]byte) error

// openSources opens the sources of the relations that have one and that a
// view reads (not Relation.Unread), reading every file once. tables and streams hold the static and stream relations'
// sources, in declaration order, with their relation indexes.
func openSources(rels []Relation, opts ReplayOptions) (tables, streams []indexedSource, err error) {
	files := make(map[string][]byte)
	for i, r := range rels {
		if r.Source == nil || r.Unread {
			continue
		}
		path := opts.resolve(r.Source.Path)
		data, ok := files[path]
		if !ok {
			if data, err = os.ReadFile(path); err != nil {
				return nil, nil, fmt.Errorf("relation %s: %w", r.Name, err)
			}
			files[path] = data
		}
		s, err := NewSource(r, path, data)
		if err != nil {
			return nil, nil, err
		}
		if r.Stream {
			streams = append(streams, indexedSource{i, s})
		} else {
			tables = append(tables, indexedSource{i, s})
		}
	}
	return tables, streams, nil
}

// indexedSource is a source with the index of its relation.
type indexedSource struct {
	rel int
	src *Source
}

// drainTables feeds every event of the static tables to fn, table by table.
func drainTables(tables []indexedSource, fn sink, position func(string, int)) (int, error) {
	n := 0
	for _, t := range tables {
		for t.src.Next() {
			if position != nil {
				position(t.src.Path(), t.src.Line())
			}
			if err := fn(t.rel, t.src.Insert(), t.src.Fields()); err != nil {
				return n, positionError(t.src.Path(), t.src.Line(), err)
			}
			n++
		}
		if err := t.src.Err(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// mergeStreams feeds the events of the stream sources to fn, ordered by
// (sequence number, relation index), each source's events in file order.
func mergeStreams(streams []indexedSource, fn sink, progress func(done, total int), position func(string, int)) (int, error) {
	total := 0
	if progress != nil {
		for _, s := range streams {
			total += s.src.Lines()
		}
		progress(0, total)
	}
	// Sources holding a current event. Streams are few: a linear scan for
	// the minimum beats a heap.
	live := make([]indexedSource, 0, len(streams))
	for _, s := range streams {
		if s.src.Next() {
			live = append(live, s)
		} else if err := s.src.Err(); err != nil {
			return 0, err
		}
	}
	n := 0
	for len(live) > 0 {
		m := 0
		for i := 1; i < len(live); i++ {
			if live[i].src.seq < live[m].src.seq {
				m = i
			}
		}
		s := live[m]
		if position != nil {
			position(s.src.Path(), s.src.Line())
		}
		if err := fn(s.rel, s.src.Insert(), s.src.Fields()); err != nil {
			return n, positionError(s.src.Path(), s.src.Line(), err)
		}
		n++
		if progress != nil && n&0xfff == 0 {
			done := 0
			for _, s := range streams {
				done += s.src.line
			}
			progress(done, total)
		}
		if !s.src.Next() {
			if err := s.src.Err(); err != nil {
				return n, err
			}
			live = append(live[:m], live[m+1:]...)
		}
	}
	if progress != nil {
		progress(total, total)
	}
	return n, nil
}

// replay loads the tables, then merges the streams, into fn. It returns the
// number of events.
func replay(rels []Relation, opts ReplayOptions, fn sink) (int, error) {
	tables, streams, err := openSources(rels, opts)
	if err != nil {
		return 0, err
	}
	nt, err := drainTables(tables, fn, opts.position)
	if err != nil {
		return nt, err
	}
	ns, err := mergeStreams(streams, fn, opts.Progress, opts.position)
	return nt + ns, err
}

// Replay feeds e the events of its relations' sources: first every static
// table (Stream false), in declaration order, then the events of all streams
// merged by (sequence number, relation index). Relations without a source get
// no events. A malformed line or a field that Apply rejects stops the replay
// with a *FieldError that names the file and line.
func Replay(e Engine, opts ReplayOptions) error {
	if p, ok := e.(positioner); ok {
		opts.position = p.notePosition
	}
	_, err := replay(e.Relations(), opts, e.Apply)
	return err
}

// Collect reads the same events as Replay but adds them to a new batch of e
// instead of applying them, so that the triggers can be timed apart from
// reading and parsing.
func Collect(e Engine, opts ReplayOptions) (Batch, error) {
	b := InOrder(e.NewBatch())
	_, err := replay(e.Relations(), opts, b.Add)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// errNoSources is returned by Bench when no stream has a source.
var errNoSources = errors.New("no stream relation has a FROM FILE source")
