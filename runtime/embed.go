package runtime

import "embed"

// Sources holds this package's Go source files (not its tests), so that the
// toastgen command can write the runtime into a temporary module and build
// generated code from any working directory. The list is explicit so that
// test files stay out; a test checks that it names every non-test file.
// The kafka subpackage is there too, for the drivers of toastgen run
// -kafka and toastgen merge, which build it against the franz-go modules
// that this binary was built with.
//
//go:embed btree.go btree2.go btree2search.go floatindex.go flatpair.go workers.go btreesearch.go changes.go run.go snapshot.go policy.go preagg.go lazy.go date.go groups.go guard.go treelevel.go triangle.go doc.go driver.go embed.go engine.go functions.go holistic.go multiset.go null.go nulljson.go number.go numbered.go output.go parse.go rangesum.go rangepair.go sortedset.go source.go sqlitefp.go statictable.go stdmath.go strfuncs.go threshold.go variance.go kafka/doc.go kafka/ends.go kafka/main.go kafka/member.go kafka/merger.go kafka/reach.go kafka/records.go kafka/state.go
var Sources embed.FS
