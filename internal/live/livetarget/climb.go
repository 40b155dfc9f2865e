package livetarget

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// climbPath is a case path that climbs above / as the model's call gives it on the session
// directory (from: the case directory a relative path is read from). Each `..` that climbs above
// the case's / climbs above the disk's / instead — as many `..` as the session directory is deep,
// and one more — and comes back down to the session directory, so the harness's text resolution
// ("`..` above `/` stays at `/`") is put to the test and lands where the case's would. A path
// that does not climb is callPath's.
func (e *env) climbPath(p, from string) string {
	if !fsaccess.AboveRoot(from, p) {
		return e.callPath(p)
	}
	rel := !strings.HasPrefix(p, "/")
	if rel && e.t.o.Profile.Tools.Paths == "absolute" {
		p, rel = strings.TrimSuffix(from, "/")+"/"+p, false
	}
	depth := 0
	if rel {
		for _, n := range strings.Split(from, "/") {
			if n != "" && n != "." {
				depth++
			}
		}
	}
	up := strings.Repeat("../", strings.Count(strings.TrimSuffix(e.root, "/"), "/")+1) +
		strings.TrimPrefix(e.root, "/")
	names := strings.Split(p, "/")
	for i, n := range names {
		switch {
		case n == "" || n == ".":
		case n != "..":
			depth++
		case depth > 0:
			depth--
		default:
			names[i] = up
		}
	}
	out := strings.Join(names, "/")
	if rel {
		return out
	}
	return e.root + out
}

// wsFrom is, for each step of a workspace case, the root of the session it acts on as the
// reference answers the case: what a relative path that climbs above / is read from.
func wsFrom(c conformance.Case, cs wsCase) ([]string, error) {
	ans, err := reference(c.Area, c.Input)
	if err != nil {
		return nil, err
	}
	var steps []*struct {
		Root *string `json:"root"`
	}
	if err := json.Unmarshal(ans, &steps); err != nil {
		return nil, err
	}
	from := make([]string, len(cs.Steps))
	cur := path.Clean(cs.Default)
	for i, st := range cs.Steps {
		if op := st.Op; (op == "new" || op == "load") && i < len(steps) && steps[i] != nil && steps[i].Root != nil {
			cur = *steps[i].Root
		}
		from[i] = cur
	}
	return from, nil
}
