package audit

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/gen"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// On a session longer than the recent window, the audit keeps the window and the conversation's
// latest request, no more: the part store holds exactly the kept requests' parts, and every index
// points at a kept request.
func TestOldRequestsAreForgotten(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a session")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	if err := gen.WriteLarge(w, gen.LargeOptions{Requests: recent + 150, Tokens: int64(recent+150) * 9000, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	f.Close()
	r, done := openSession(t, path)
	defer done()
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if _, err := a.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	kept, refs := 0, map[tokens.Sum]int{}
	for _, p := range a.reqs {
		if p == nil {
			continue
		}
		kept++
		for _, r := range p.parts {
			refs[r.sum]++
		}
	}
	if len(a.reqs) != recent+150 || kept > recent+len(a.tips)+len(a.asks) {
		t.Errorf("kept %d of %d requests; the window is %d, with %d conversations", kept, len(a.reqs), recent, len(a.tips))
	}
	if len(a.store) != len(refs) {
		t.Errorf("the store holds %d parts, the kept requests %d", len(a.store), len(refs))
	}
	for s, n := range refs {
		if st := a.store[s]; st == nil || st.refs != n {
			t.Fatalf("a part held %d times has %+v in the store", n, st)
		}
	}
	for _, m := range []map[tokens.Sum]int{a.prefix, a.head} {
		for _, i := range m {
			if a.reqs[i] == nil {
				t.Fatalf("an index points at forgotten request %d", i)
			}
		}
	}
	for _, idxs := range a.full {
		for _, i := range idxs {
			if a.reqs[i] == nil {
				t.Fatalf("a history points at forgotten request %d", i)
			}
		}
	}
}
