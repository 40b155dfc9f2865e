package main

import (
	"context"
	"io"
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
