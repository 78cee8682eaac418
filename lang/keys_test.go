package lang

import (
	"slices"
	"testing"
)

func TestPrimaryKey(t *testing.T) {
	f, err := Parse("k.sql", []byte(`CREATE STREAM R (a INT PRIMARY KEY, b VARCHAR(3));
CREATE TABLE S (a INT, b INT NOT NULL, c INT, PRIMARY KEY (c, a));
CREATE STREAM T (a INT, b INT);
SELECT SUM(R.a) FROM R, S, T;`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]int{{0}, {2, 0}, nil} {
		r := f.Relations[i]
		if !slices.Equal(r.Key, want) {
			t.Errorf("%s: key %v, want %v", r.Name, r.Key, want)
		}
		for _, j := range want {
			if c := r.Columns[j]; c.Nullable {
				t.Errorf("%s.%s is a key column and nullable", r.Name, c.Name)
			}
		}
	}
}

func TestPrimaryKeyErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"CREATE STREAM R (a INT PRIMARY KEY, b INT, PRIMARY KEY (b));\nSELECT SUM(a) FROM R;",
			`k.sql:1:44: R has more than one PRIMARY KEY
	CREATE STREAM R (a INT PRIMARY KEY, b INT, PRIMARY KEY (b));
	                                           ^`},
		{"CREATE STREAM R (a INT, b INT, PRIMARY KEY (a, c));\nSELECT SUM(a) FROM R;",
			`k.sql:1:48: PRIMARY KEY: R has no column C
	CREATE STREAM R (a INT, b INT, PRIMARY KEY (a, c));
	                                               ^`},
		{"CREATE STREAM R (a INT, b INT, PRIMARY KEY (a, b, a));\nSELECT SUM(a) FROM R;",
			`k.sql:1:51: PRIMARY KEY: column A is listed twice
	CREATE STREAM R (a INT, b INT, PRIMARY KEY (a, b, a));
	                                                  ^`},
		{"CREATE STREAM R (a INT, b INT, PRIMARY KEY ());\nSELECT SUM(a) FROM R;",
			`k.sql:1:45: unexpected token ")" (expected <int> ("," <int>)* ")")
	CREATE STREAM R (a INT, b INT, PRIMARY KEY ());
	                                            ^`},
	} {
		_, err := Parse("k.sql", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\ngot  %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
