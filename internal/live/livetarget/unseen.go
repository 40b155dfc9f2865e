package livetarget

import (
	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// unseenEdit is step i as the live target makes it: an edit of a file the session has not seen as
// the step's before (no earlier step read it so, or changed it to it) is made by a write of the
// whole new content. filesystem.md's edit refuses such a file ("refuse to change an existing file
// the session has not seen"), and context.md §5 answers a write over an existing file with the
// same diff; a read first would be a result of its own, its id and its table row not the case's.
func unseenEdit(steps []conformance.ContextStep, i int, cwd string) conformance.ContextStep {
	st := steps[i]
	if st.Op != "edit" || st.Before == nil {
		return st
	}
	p := fsaccess.Resolve(fsaccess.Resolve("/", cwd), str(st.Path))
	for j := i - 1; j >= 0; j-- {
		e := steps[j]
		if e.Path == nil || fsaccess.Resolve(fsaccess.Resolve("/", cwd), *e.Path) != p {
			continue
		}
		switch {
		case e.Op == "read" && e.Content != nil && *e.Content == *st.Before,
			(e.Op == "edit" || e.Op == "write") && e.After != nil && *e.After == *st.Before:
			return st
		}
		break
	}
	st.Op = "write"
	return st
}
