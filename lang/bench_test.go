package lang

import (
	"os"
	"testing"
)

func BenchmarkParseTPCH(b *testing.B) {
	src, _ := os.ReadFile("testdata/tpch.sql")
	for b.Loop() {
		Parse("testdata/tpch.sql", src)
	}
}

func BenchmarkNested(b *testing.B) {
	src := []byte("CREATE STREAM R (A INT); SELECT SUM(((((((((((((((((((((A + 1))))))))))))))))))))) FROM R;")
	for b.Loop() {
		if _, err := Parse("n.sql", src); err != nil {
			b.Fatal(err)
		}
	}
}
