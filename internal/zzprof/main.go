package main

import (
	"os"
	"runtime/pprof"

	"github.com/toastgen/toastgen/internal/zzprof/q"
	"github.com/toastgen/toastgen/runtime"
)

func main() {
	f, _ := os.Create(os.Getenv("PROF"))
	pprof.StartCPUProfile(f)
	defer pprof.StopCPUProfile()
	runtime.BenchMain(func() runtime.Engine { return q.New() })
}
