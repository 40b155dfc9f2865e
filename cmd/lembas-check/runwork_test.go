package main

import (
	"context"
	"io"
	"runtime"
	"testing"
)

// BenchmarkRunWork is `run`'s own work on the embedded suite, in-process and after its first
// call: what a process pays beyond start-up and first use. Its allocations matter as much as its
// time, since in a fresh process each new heap page is a page fault (2,000 of run's 2,650).
func BenchmarkRunWork(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := cmdRun(context.Background(), nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("run exited %d", code)
		}
	}
}

// The builtin answers on every CPU unless --jobs says otherwise; an adapter is one process
// unless --jobs says more (its processes are the user's to pay for).
func TestBuiltinWorkersPerCPU(t *testing.T) {
	for _, c := range []struct {
		args []string
		impl string
		want int
	}{
		{nil, "", runtime.GOMAXPROCS(0)},
		{[]string{"--jobs", "1"}, "", 1},
		{[]string{"--jobs", "3"}, "", 3},
		{nil, "lembas-check adapter", 1},
	} {
		fs := newFlags("run", io.Discard)
		af := addAdapterFlags(fs)
		lf := addLiveFlags(fs)
		if _, err := parse(fs, c.args); err != nil {
			t.Fatal(err)
		}
		_, workers, err := runTarget(fs, af, lf, c.impl)
		if err != nil {
			t.Fatal(err)
		}
		if workers != c.want {
			t.Errorf("run %q with impl %q: %d workers, want %d", c.args, c.impl, workers, c.want)
		}
	}
}
