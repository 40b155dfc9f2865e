package livetarget

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// An edit step of a file the session has not seen as its before is made by a write; one after a
// read of that content, or after the session's own change to it, stays an edit.
func TestUnseenEditIsAWrite(t *testing.T) {
	s := func(v string) *string { return &v }
	steps := []conformance.ContextStep{
		{Op: "edit", Path: s("a.txt"), Before: s("a\n"), After: s("b\n")},
		{Op: "edit", Path: s("./a.txt"), Before: s("b\n"), After: s("c\n")},
		{Op: "read", Path: s("b.txt"), Content: s("x\n")},
		{Op: "edit", Path: s("/b.txt"), Before: s("x\n"), After: s("y\n")},
		{Op: "edit", Path: s("c.txt"), Before: s("other\n"), After: s("z\n")},
	}
	var got []string
	for i := range steps {
		got = append(got, unseenEdit(steps, i, "/").Op)
	}
	if w := []string{"write", "edit", "read", "edit", "write"}; strings.Join(got, " ") != strings.Join(w, " ") {
		t.Errorf("ops %v, want %v", got, w)
	}
}
