package runtime

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// Snapshots. An engine's state is its maps — a finite function from key
// tuples to an int64 or a compensated float sum per map; every index, the
// top-K orders, the levels of factorized views and the triangle kernels
// are functions of them. A snapshot holds the maps' entries, so that both
// engines (generated code and the interpreter) write and read the same
// bytes for the same compiled query, and a restored engine rebuilds the
// rest by the same code that maintains it.
//
// The format (version 1), all integers varints unless said otherwise:
//
//	magic      "toastgen snapshot\n" (18 bytes)
//	version    uvarint (1)
//	query      string: the query file's path as compiled (for messages)
//	hash       string: the fingerprint of the compiled maps (viewlet's
//	           Program.Fingerprint): relations, map names, key and value
//	           types, definitions, dialect
//	sources    uvarint n, then n × (string relation, uvarint events): how
//	           many events of each relation's source the state covers
//	maps       per map of the program, in order: string name, then its
//	           entries, each a byte 1 followed by the key columns and the
//	           value, then a byte 0
//	trailer    "end\n", then the CRC-32 (Castagnoli) of every byte before
//	           it, 4 bytes little-endian
//
// A string is a uvarint length and the bytes; an INT key or value a
// zigzag varint; a FLOAT key 8 bytes (IEEE 754, little-endian); a DATE
// key a zigzag varint; a FLOAT value two such floats, the compensated
// sum's rounded sum and its compensation (FloatSum), so that the restored
// sum has the same bits. A keyless map is a map with no key columns.
//
// Reading checks the magic, the version, the hash (a snapshot of another
// query is an error), every entry (a duplicate key or a zero value is an
// error) and the checksum; it never trusts a length beyond the bytes that
// are there. The reading engine is discarded on any error.

// SnapshotVersion is the snapshot format version written.
const SnapshotVersion = 1

const (
	snapshotMagic   = "toastgen snapshot\n"
	snapshotTrailer = "end\n"
)

// SourceCount says how many events of a relation's source a snapshot's
// state covers: toastgen run -resume skips them.
type SourceCount struct {
	Relation string
	Events   int64
}

// SnapshotHeader is what a snapshot says about itself.
type SnapshotHeader struct {
	Version int
	Query   string // the query file's path as compiled
	Hash    string // the fingerprint of the compiled maps
	Sources []SourceCount
}

// SnapshotError is a snapshot that cannot be read: truncated, corrupted,
// of another query or of another format version.
type SnapshotError struct {
	Offset int64 // bytes read before the problem
	Msg    string
}

func (e *SnapshotError) Error() string {
	return fmt.Sprintf("snapshot: byte %d: %s", e.Offset, e.Msg)
}

// SnapshotWriter writes a snapshot: the header, then map sections, then
// Close writes the trailer. Its methods record the first write error and
// do nothing after it; Close returns it.
type SnapshotWriter struct {
	w   *bufio.Writer
	crc hash.Hash32
	buf []byte
	err error
	n   int64 // bytes written
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// NewSnapshotWriter writes the header of a snapshot of h.Query (h.Hash,
// h.Sources; h.Version is ignored) to w and returns the writer of the
// rest.
func NewSnapshotWriter(w io.Writer, h SnapshotHeader) *SnapshotWriter {
	sw := &SnapshotWriter{w: bufio.NewWriterSize(w, 64<<10), crc: crc32.New(castagnoli)}
	sw.buf = append(sw.buf, snapshotMagic...)
	sw.buf = binary.AppendUvarint(sw.buf, SnapshotVersion)
	sw.String(h.Query)
	sw.String(h.Hash)
	sw.buf = binary.AppendUvarint(sw.buf, uint64(len(h.Sources)))
	for _, s := range h.Sources {
		sw.String(s.Relation)
		sw.buf = binary.AppendUvarint(sw.buf, uint64(max(s.Events, 0)))
	}
	sw.flush()
	return sw
}

// flush moves the buffered bytes to the underlying writer (through the
// checksum) once there are enough of them, or when force is set.
func (w *SnapshotWriter) flush() {
	if w.err != nil {
		w.buf = w.buf[:0]
		return
	}
	w.crc.Write(w.buf)
	_, w.err = w.w.Write(w.buf)
	w.n += int64(len(w.buf))
	w.buf = w.buf[:0]
}

func (w *SnapshotWriter) maybeFlush() {
	if len(w.buf) >= 32<<10 {
		w.flush()
	}
}

// Map starts the section of the map name.
func (w *SnapshotWriter) Map(name string) {
	w.String(name)
}

// Entry starts an entry of the current map: its key columns and value
// follow.
func (w *SnapshotWriter) Entry() {
	w.maybeFlush()
	w.buf = append(w.buf, 1)
}

// End ends the current map's section.
func (w *SnapshotWriter) End() {
	w.buf = append(w.buf, 0)
}

// Int writes an INT key or value.
func (w *SnapshotWriter) Int(v int64) { w.buf = binary.AppendVarint(w.buf, v) }

// Float writes a FLOAT key.
func (w *SnapshotWriter) Float(v float64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
}

// Date writes a DATE key.
func (w *SnapshotWriter) Date(d Date) { w.buf = binary.AppendVarint(w.buf, int64(d)) }

// String writes a STRING key.
func (w *SnapshotWriter) String(s string) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
	if len(s) > 4<<10 {
		w.flush()
		if w.err == nil {
			w.crc.Write([]byte(s))
			_, w.err = w.w.WriteString(s)
			w.n += int64(len(s))
		}
		return
	}
	w.buf = append(w.buf, s...)
}

// Sum writes a FLOAT value: the compensated sum's two parts.
func (w *SnapshotWriter) Sum(s FloatSum) {
	w.Float(s.s)
	w.Float(s.c)
}

// Close writes the trailer (with the checksum) and flushes; it returns the
// first error of the writer. It does not close the underlying writer.
func (w *SnapshotWriter) Close() error {
	w.buf = append(w.buf, snapshotTrailer...)
	w.flush()
	if w.err != nil {
		return w.err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], w.crc.Sum32())
	if _, err := w.w.Write(sum[:]); err != nil {
		return err
	}
	w.n += 4
	return w.w.Flush()
}

// Len returns the number of bytes written so far (after Close: the
// snapshot's size).
func (w *SnapshotWriter) Len() int64 { return w.n + int64(len(w.buf)) }

// SnapshotReader reads a snapshot written by SnapshotWriter. Its methods
// record the first problem and return zero values after it: a reader
// checks Err (or Close) before trusting what it built.
type SnapshotReader struct {
	src    io.Reader
	buf    []byte // read from src: buf[pos:end] not consumed yet
	pos    int
	end    int
	srcErr error  // src's error once it returned one
	sum    uint32 // CRC-32C of the bytes consumed before buf[summed:]
	summed int
	base   int64 // bytes consumed before buf[0]
	header SnapshotHeader
	err    error
	str    []byte
	where  string // the map being read, for messages
	entry  int64  // its entries read so far
}

// fill makes buf hold more unconsumed bytes, unless src is done; it
// reports whether there is at least one.
func (r *SnapshotReader) fill() bool {
	if r.pos < r.end {
		return true
	}
	if r.srcErr != nil {
		return false
	}
	r.sum = crc32.Update(r.sum, castagnoli, r.buf[r.summed:r.pos])
	r.base += int64(r.pos)
	r.pos, r.end, r.summed = 0, 0, 0
	for r.end == 0 && r.srcErr == nil {
		r.end, r.srcErr = r.src.Read(r.buf)
	}
	return r.end > 0
}

// offset is the number of bytes consumed.
func (r *SnapshotReader) offset() int64 { return r.base + int64(r.pos) }

// checksum is the CRC-32C of the bytes consumed.
func (r *SnapshotReader) checksum() uint32 {
	return crc32.Update(r.sum, castagnoli, r.buf[r.summed:r.pos])
}

// NewSnapshotReader reads the header of a snapshot from r and checks that
// it is of this format version and of the compiled query whose
// fingerprint is hash (query names it in the message).
func NewSnapshotReader(r io.Reader, query, hash string) (*SnapshotReader, error) {
	sr, err := readSnapshotHeader(r)
	if err != nil {
		return nil, err
	}
	if sr.header.Hash != hash {
		return nil, sr.fail(fmt.Sprintf("a snapshot of %s (maps %s), not of this engine's %s (maps %s): the compiled queries differ",
			sr.header.Query, short(sr.header.Hash), query, short(hash)))
	}
	return sr, nil
}

// ReadSnapshotHeader reads the header of a snapshot of any query from r:
// what it says about itself (runtime/kafka reads the input offsets a
// state covers so), without reading or checking its maps.
func ReadSnapshotHeader(r io.Reader) (SnapshotHeader, error) {
	sr, err := readSnapshotHeader(r)
	if err != nil {
		return SnapshotHeader{}, err
	}
	return sr.header, nil
}

// readSnapshotHeader reads the header of a snapshot of this format
// version from r.
func readSnapshotHeader(r io.Reader) (*SnapshotReader, error) {
	sr := &SnapshotReader{src: r, buf: make([]byte, 64<<10)}
	var magic [len(snapshotMagic)]byte
	sr.full(magic[:])
	if sr.err != nil {
		return nil, &SnapshotError{Offset: sr.offset(), Msg: "not a toastgen snapshot (too short)"}
	}
	if string(magic[:]) != snapshotMagic {
		return nil, sr.fail("not a toastgen snapshot")
	}
	v := sr.uvarint()
	if sr.err == nil && v != SnapshotVersion {
		return nil, sr.fail(fmt.Sprintf("format version %d; this engine reads version %d", v, SnapshotVersion))
	}
	sr.header.Version = int(min(v, math.MaxInt32))
	sr.header.Query = sr.String()
	sr.header.Hash = sr.String()
	n := sr.uvarint()
	for i := uint64(0); i < n && sr.err == nil; i++ {
		rel := sr.String()
		ev := sr.uvarint()
		if ev > math.MaxInt64 {
			sr.fail("event count out of range")
		}
		sr.header.Sources = append(sr.header.Sources, SourceCount{Relation: rel, Events: int64(ev)})
	}
	if sr.err != nil {
		return nil, sr.err
	}
	return sr, nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Header returns the snapshot's header.
func (r *SnapshotReader) Header() SnapshotHeader { return r.header }

// Err returns the first problem met, or nil.
func (r *SnapshotReader) Err() error { return r.err }

// Fail records a problem found by the caller (a duplicate key, a zero
// value) at the current position, unless one was recorded before.
func (r *SnapshotReader) Fail(msg string) {
	if r.where != "" {
		msg = fmt.Sprintf("map %s, entry %d: %s", r.where, r.entry, msg)
	}
	r.fail(msg)
}

func (r *SnapshotReader) fail(msg string) error {
	if r.err == nil {
		r.err = &SnapshotError{Offset: r.offset(), Msg: msg}
	}
	return r.err
}

// full reads len(b) bytes, failing on a short read.
func (r *SnapshotReader) full(b []byte) {
	for len(b) > 0 && r.err == nil {
		if !r.fill() {
			clear(b)
			r.truncated(r.srcErr)
			return
		}
		n := copy(b, r.buf[r.pos:r.end])
		r.pos += n
		b = b[n:]
	}
	clear(b)
}

func (r *SnapshotReader) truncated(err error) {
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		if r.where != "" {
			r.fail(fmt.Sprintf("truncated in map %s", r.where))
		} else {
			r.fail("truncated")
		}
		return
	}
	r.fail(err.Error())
}

func (r *SnapshotReader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.pos == r.end && !r.fill() {
		r.truncated(r.srcErr)
		return 0
	}
	c := r.buf[r.pos]
	r.pos++
	return c
}

func (r *SnapshotReader) uvarint() uint64 {
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break
			}
			return x | uint64(c)<<s
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	r.fail("malformed number")
	return 0
}

// Map starts reading the section of the map name (the next in the
// program's order).
func (r *SnapshotReader) Map(name string) {
	got := r.String()
	if r.err == nil && got != name {
		r.fail(fmt.Sprintf("map %q where map %s was expected", got, name))
	}
	r.where, r.entry = name, 0
}

// Next reports whether the current map has another entry, whose key
// columns and value follow; false at the map's end or after a problem.
func (r *SnapshotReader) Next() bool {
	switch r.byte() {
	case 1:
		r.entry++
		return true
	case 0:
		return false
	}
	if r.err == nil {
		r.Fail("malformed entry marker")
	}
	return false
}

// Int reads an INT key or value.
func (r *SnapshotReader) Int() int64 {
	u := r.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// Float reads a FLOAT key.
func (r *SnapshotReader) Float() float64 {
	var b [8]byte
	r.full(b[:])
	return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
}

// Date reads a DATE key.
func (r *SnapshotReader) Date() Date {
	v := r.Int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.Fail("date out of range")
		return 0
	}
	return Date(v)
}

// String reads a STRING key. Its bytes are read in pieces, so that a
// corrupted length allocates no more than the bytes that are there.
func (r *SnapshotReader) String() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	r.str = r.str[:0]
	for n > 0 && r.err == nil {
		k := min(n, 64<<10)
		start := len(r.str)
		r.str = append(r.str, make([]byte, k)...)
		r.full(r.str[start:])
		n -= k
	}
	if r.err != nil {
		return ""
	}
	return string(r.str)
}

// Sum reads a FLOAT value.
func (r *SnapshotReader) Sum() FloatSum {
	s := r.Float()
	c := r.Float()
	return FloatSum{s: s, c: c}
}

// Close reads the trailer and checks the checksum and that nothing
// follows; it returns the first problem of the whole read.
func (r *SnapshotReader) Close() error {
	r.where = ""
	var t [len(snapshotTrailer)]byte
	r.full(t[:])
	if r.err == nil && string(t[:]) != snapshotTrailer {
		r.fail("malformed trailer (a map too many?)")
	}
	if r.err != nil {
		return r.err
	}
	want := r.checksum()
	var sum [4]byte
	r.full(sum[:])
	if r.err != nil {
		return r.err
	}
	if got := binary.LittleEndian.Uint32(sum[:]); got != want {
		return r.fail(fmt.Sprintf("checksum mismatch (stored %08x, computed %08x): the snapshot is corrupted", got, want))
	}
	if r.fill() {
		return r.fail("bytes after the snapshot's end")
	}
	if r.srcErr != io.EOF {
		return r.fail(r.srcErr.Error())
	}
	return nil
}

// Snapshotter is implemented by engines that save and restore their state
// (generated engines and the interpreter): toastgen run's -snapshot and
// -resume use it.
type Snapshotter interface {
	// WriteSnapshot writes the engine's state to w; sources record how
	// many events of each relation it covers.
	WriteSnapshot(w io.Writer, sources ...SourceCount) error
	// RestoreSnapshot replaces the engine's state with a snapshot's and
	// returns the event counts it records. On an error the engine is as it
	// was.
	RestoreSnapshot(r io.Reader) ([]SourceCount, error)
}
