package lang

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSourceErrors checks that bad source clauses are positioned errors at
// compile time: unknown sources, adaptors and parameters, bad values.
func TestSourceErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"socket", "CREATE STREAM R(A int) FROM SOCKET 'localhost' 9000 LINE DELIMITED CSV;",
			`e.sql:1:24: FROM SOCKET sources are not supported: toastgen replays files (FROM FILE 'path' …)
	CREATE STREAM R(A int) FROM SOCKET 'localhost' 9000 LINE DELIMITED CSV;
	                       ^`},
		{"unknown source", "CREATE STREAM R(A int) FROM PIPE 'x' CSV;",
			`e.sql:1:24: unknown source FROM PIPE (want FROM FILE 'path')
	CREATE STREAM R(A int) FROM PIPE 'x' CSV;
	                       ^`},
		{"unknown adaptor", "CREATE STREAM R(A int) FROM FILE 'r' LINE DELIMITED JSON ();",
			`e.sql:1:53: unknown adaptor JSON (want CSV or ORDERBOOK)
	CREATE STREAM R(A int) FROM FILE 'r' LINE DELIMITED JSON ();
	                                                    ^`},
		{"misspelled parameter", "CREATE STREAM R(A int) FROM FILE 'r' CSV (delimeter := '|');",
			`e.sql:1:43: unknown CSV parameter delimeter (want one of deletions, delimiter, fields)
	CREATE STREAM R(A int) FROM FILE 'r' CSV (delimeter := '|');
	                                          ^`},
		{"deletions yes", "CREATE STREAM R(A int) FROM FILE 'r' CSV (Deletions := 'yes');",
			`e.sql:1:43: CSV parameter deletions must be 'true' or 'false', got 'yes'
	CREATE STREAM R(A int) FROM FILE 'r' CSV (Deletions := 'yes');
	                                          ^`},
		{"empty delimiter", "CREATE STREAM R(A int) FROM FILE 'r' CSV (delimiter := '');",
			`e.sql:1:43: CSV parameter delimiter must be a non-empty string, got ''
	CREATE STREAM R(A int) FROM FILE 'r' CSV (delimiter := '');
	                                          ^`},
		{"parameter twice", "CREATE STREAM R(A int) FROM FILE 'r' CSV (delimiter := '|', DELIMITER := ',');",
			`e.sql:1:61: CSV parameter delimiter is given twice
	CREATE STREAM R(A int) FROM FILE 'r' CSV (delimiter := '|', DELIMITER := ',');
	                                                            ^`},
		{"orderbook book", "CREATE STREAM B(T float, ID int, BROKER_ID int, VOLUME float, PRICE float) FROM FILE 'f' ORDERBOOK (book := 'both');",
			`e.sql:1:101: ORDERBOOK parameter book must be 'bids' or 'asks', got 'both'
	CREATE STREAM B(T float, ID int, BROKER_ID int, VOLUME float, PRICE float) FROM FILE 'f' ORDERBOOK (book := 'both');
	                                                                                                    ^`},
		{"orderbook brokers", "CREATE STREAM B(T float, ID int, BROKER_ID int, VOLUME float, PRICE float) FROM FILE 'f' ORDERBOOK (book := 'asks', brokers := '0');",
			`e.sql:1:117: ORDERBOOK parameter brokers must be a positive integer, got '0'
	CREATE STREAM B(T float, ID int, BROKER_ID int, VOLUME float, PRICE float) FROM FILE 'f' ORDERBOOK (book := 'asks', brokers := '0');
	                                                                                                                    ^`},
		{"orderbook without book", "CREATE STREAM B(T float, ID int, BROKER_ID int, VOLUME float, PRICE float) FROM FILE 'f' ORDERBOOK;",
			`e.sql:1:76: an ORDERBOOK source needs book := 'bids' or book := 'asks'
	CREATE STREAM B(T float, ID int, BROKER_ID int, VOLUME float, PRICE float) FROM FILE 'f' ORDERBOOK;
	                                                                           ^`},
		{"fixedwidth zero", "CREATE STREAM R(A int) FROM FILE 'r' FIXEDWIDTH 0 CSV;",
			`e.sql:1:38: FIXEDWIDTH needs a positive record length, got 0
	CREATE STREAM R(A int) FROM FILE 'r' FIXEDWIDTH 0 CSV;
	                                     ^`},
		{"empty record separator", "CREATE STREAM R(A int) FROM FILE 'r' '' DELIMITED CSV;",
			`e.sql:1:38: the record separator of '…' DELIMITED must not be empty
	CREATE STREAM R(A int) FROM FILE 'r' '' DELIMITED CSV;
	                                     ^`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.sql", []byte(tt.src+"\nSELECT COUNT(*) FROM R;"))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want an *Error, got %T: %v", err, err)
			}
			if d := cmp.Diff(tt.want, err.Error()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
