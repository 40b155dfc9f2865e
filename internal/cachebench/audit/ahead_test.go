package audit

import (
	"errors"
	"io"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

type countingSource struct {
	n, end int
	err    error
}

func (s *countingSource) Next() (replay.Entry, error) {
	if s.n >= s.end {
		return replay.Entry{}, s.err
	}
	s.n++
	return replay.Entry{Line: s.n}, nil
}

// The read-ahead gives the source's entries in its order and its error once, last; stopped
// early, its goroutine has ended and reads no further than the few it was ahead.
func TestAheadKeepsOrderAndStops(t *testing.T) {
	damage := errors.New("line 9: damaged")
	src := &countingSource{end: 100, err: damage}
	next, stop := ahead(src)
	for i := 1; i <= 100; i++ {
		e, err := next()
		if err != nil || e.Line != i {
			t.Fatalf("entry %d: got line %d, %v", i, e.Line, err)
		}
	}
	if _, err := next(); err != damage {
		t.Fatalf("after the entries: %v, want the source's error", err)
	}
	if _, err := next(); err != io.EOF {
		t.Fatalf("after the error: %v, want io.EOF", err)
	}
	stop()

	src = &countingSource{end: 1000, err: io.EOF}
	next, stop = ahead(src)
	next()
	stop()
	read := src.n
	if read > 1+readAhead+1 {
		t.Errorf("read %d entries for 1 taken: more than the read-ahead", read)
	}
	if src.n != read {
		t.Error("the source was read after stop returned")
	}
}
