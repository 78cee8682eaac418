package kafka

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/toastgen/toastgen/runtime"
)

// Config says where a query's topics are and how members commit.
type Config struct {
	Brokers []string // seed brokers, host:port
	Group   string   // the consumer group of the members
	// Prefix starts every topic name: Prefix + "lineitem", Prefix +
	// "state", Prefix + "changes".
	Prefix string
	// Name is the member's name, unique in the group and kept across
	// restarts: its transactional ID is Group + "." + Name, so that a
	// restarted member fences its previous incarnation.
	Name string
	// CommitEvery is the most records a member applies per transaction
	// (default 10,000).
	CommitEvery int
	// Opts are more options for every client (TLS, SASL, timeouts).
	Opts []kgo.Opt
	// ReachTimeout bounds how long Reach waits for a broker to answer
	// (default DefaultReachTimeout).
	ReachTimeout time.Duration
}

func (c Config) commitEvery() int {
	if c.CommitEvery > 0 {
		return c.CommitEvery
	}
	return 10000
}

// Topic returns the input topic of relation rel.
func (c Config) Topic(rel runtime.Relation) string { return c.Prefix + strings.ToLower(rel.Name) }

// StateTopic returns the topic of the tasks' snapshots.
func (c Config) StateTopic() string { return c.Prefix + "state" }

// ChangesTopic returns the topic of the tasks' view changes.
func (c Config) ChangesTopic() string { return c.Prefix + "changes" }

// opHeader is the header that marks a delete ("op": "delete").
const (
	opHeader = "op"
	opDelete = "delete"
)

// NewRecord returns the record of one event of relation rel (an index of
// e.Relations()) with the given fields, in schema order, as they would
// be written in a CSV source (NULL as \N): keyed by the canonical text of
// its partition column (none for a broadcast relation), for the topic of
// the relation under c.
func NewRecord(c Config, e runtime.Partitioned, rel int, insert bool, fields []string) (*kgo.Record, error) {
	rels := e.Relations()
	if rel < 0 || rel >= len(rels) {
		return nil, fmt.Errorf("kafka: relation %d of %d", rel, len(rels))
	}
	r := rels[rel]
	if len(fields) != len(r.Columns) {
		return nil, fmt.Errorf("kafka: %s has %d columns, the event %d fields", r.Name, len(r.Columns), len(fields))
	}
	rec := &kgo.Record{Topic: c.Topic(r)}
	if col := e.PartitionColumns()[rel]; col != runtime.Broadcast {
		key, ok := runtime.PartitionKey(r.Columns[col], []byte(fields[col]))
		if !ok {
			return nil, fmt.Errorf("kafka: %s.%s: %q is not a %s", r.Name, r.Columns[col].Name, fields[col], r.Columns[col].Type)
		}
		rec.Key = key
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(fields); err != nil {
		return nil, err
	}
	w.Flush()
	rec.Value = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(fields) == 1 && fields[0] == "" {
		rec.Value = []byte(`""`) // an empty line would be no record
	}
	if !insert {
		rec.Headers = []kgo.RecordHeader{{Key: opHeader, Value: []byte(opDelete)}}
	}
	return rec, nil
}

// event decodes a record of an input topic: whether it inserts, and its
// fields.
func event(r *kgo.Record) (insert bool, fields [][]byte, err error) {
	insert = true
	for _, h := range r.Headers {
		if h.Key == opHeader {
			switch string(h.Value) {
			case opDelete:
				insert = false
			case "insert":
			default:
				return false, nil, fmt.Errorf("header op is %q, not insert or delete", h.Value)
			}
		}
	}
	rd := csv.NewReader(bytes.NewReader(r.Value))
	rd.FieldsPerRecord = -1
	rec, err := rd.Read()
	if err != nil {
		return false, nil, fmt.Errorf("value is not a CSV line: %v", err)
	}
	fields = make([][]byte, len(rec))
	for i, f := range rec {
		fields[i] = []byte(f)
	}
	return insert, fields, nil
}
