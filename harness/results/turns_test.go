package results

import (
	"encoding/json"
	"strings"
	"testing"
)

// An undone turn's read is no stub's target, and no row of the compaction table; a read of the
// turn before it still is both. Before turns, the re-read was a stub of the undone read.
func TestUndoTakesItsReads(t *testing.T) {
	s, _ := New(Options{})
	mustRead := func(id, p, c string) string {
		t.Helper()
		out, err := s.Read(id, p, c, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	mustRead("#0001", "a.md", "a\n")
	s.Turn()
	mustRead("#0002", "b.md", "b\n")
	mustRead("#0003", "c.md", "c\n")
	if err := s.Rewind(1); err != nil {
		t.Fatal(err)
	}
	if out := mustRead("#0004", "b.md", "b\n"); strings.Contains(out, "Unchanged") {
		t.Errorf("a read after its turn was undone is a stub: %q", out)
	}
	if out := mustRead("#0005", "a.md", "a\n"); !strings.Contains(out, "Unchanged since #0001") {
		t.Errorf("a read of the turn kept is not a stub: %q", out)
	}
	table := s.Compact()
	if strings.Contains(table, "c.md") || !strings.Contains(table, "#0001") || !strings.Contains(table, "#0004") {
		t.Errorf("the table after an undo:\n%s", table)
	}
	// The undone result is still stored: recall shows it.
	if out, err := s.Recall("#0006", "#0003", 0, 0); err != nil || !strings.Contains(out, "c") {
		t.Errorf("recall of an undone result: %q, %v", out, err)
	}
}

// A rewind takes back a listing's result too, and never reaches past a compaction.
func TestRewindByResultAndBounds(t *testing.T) {
	s, _ := New(Options{})
	args := json.RawMessage(`{"path":"."}`)
	if _, err := s.Output("#0001", "list", args, "a\nb"); err != nil {
		t.Fatal(err)
	}
	s.Turn()
	s.Turn()
	if s.Turns() != 3 {
		t.Fatalf("%d turns, want 3", s.Turns())
	}
	if err := s.Rewind(3); err != nil {
		t.Fatal(err)
	}
	if out, _ := s.Output("#0002", "list", args, "a\nb"); strings.Contains(out, "Same result") {
		t.Errorf("a listing after its turn was taken back is a stub: %q", out)
	}
	s.Compact()
	if err := s.Rewind(2); err == nil {
		t.Error("a rewind past the compaction was taken")
	}
	if err := s.Rewind(1); err != nil {
		t.Errorf("the turn after the summary: %v", err)
	}
}
