package livetarget

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// probeDir is the directory a level's write probe makes inside a directory.
const probeDir = "lembas-check-probe"

// planLevel plays a level op by what the tools show of the path (lembas-check reading; no tool
// says a level): a read of a file or a list of a directory, then a write of the file's own
// content back or a mkdir inside the directory. Refused to read: none; a directory listed with
// entries left out that are on disk: none, a passage; read but refused the write: ro; both: stage.
// Stage and commit differ only at a forge mount, which no call reaches: a case whose path is at
// commit is skipped.
func planLevel(p *agents.Profile, c conformance.Case, cs conformance.FSAccessCase) (*plan, error) {
	// The reference's answer, not the case's expect: a scenario's is its Then step's.
	ref, err := reference(c.Area, c.Input)
	if err != nil {
		return nil, err
	}
	var want struct {
		Level string `json:"level"`
	}
	json.Unmarshal(ref, &want)
	if want.Level == "commit" {
		return nil, skipf("the path is at commit, which a call tells from stage only by a commit at a forge " +
			"mount: a level play whose change probe is a commit (as the commit op's play makes one) would carry it")
	}
	path := *cs.Path
	if !inTree(cs.Tree, fsaccess.Resolve(fsaccess.Resolve("/", str(cs.Cwd)), path)) {
		return nil, skipf("%s is not in the case's tree: a look at a missing path answers that it is missing, "+
			"whatever its level", path)
	}
	rules, err := fsPlayable(c, cs, path)
	if err != nil {
		return nil, err
	}
	pl, _ := fsTree(cs)
	target := fsaccess.Resolve(pl.cwd, path)
	dir := len(descendants(cs.Tree, target)) > 0 || isDirIn(cs.Tree, target)
	look, change := "read", "write"
	if dir {
		look, change = "list", "mkdir"
	}
	for _, op := range []string{look, change} {
		if _, err := makeCall(p, op, callPrefix+op, vals{}); err != nil {
			return nil, err
		}
	}
	call := func(op string, v func(*env) vals) func(*env, *request) script.Reply {
		return func(e *env, _ *request) script.Reply {
			c, err := makeCall(p, op, callPrefix+op, v(e))
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			return callReply(c)
		}
	}
	first := &slot{replyFn: call(look, func(e *env) vals { return vals{"path": e.callPath(path)} })}
	second := &slot{replyFn: call(change, func(e *env) vals {
		if dir {
			return vals{"path": e.callPath(strings.TrimSuffix(path, "/") + "/" + probeDir)}
		}
		return vals{"path": e.callPath(path), "content": marker(target)}
	})}
	slots := []*slot{first, second}
	// A passage is at none with something open below it: each path below is looked at too.
	below := descendants(cs.Tree, target)
	for k, d := range below {
		op := "read"
		if strings.HasSuffix(d, "/") {
			op = "list"
		}
		id := fmt.Sprintf("%sbelow%d", callPrefix, k)
		slots = append(slots, &slot{replyFn: func(e *env, _ *request) script.Reply {
			c, err := makeCall(p, op, id, vals{"path": e.callPath(d)})
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			return callReply(c)
		}})
	}
	after := &slot{reply: text("done")}
	slots = append(slots, after)
	pl.turns = []*turn{{words: "lembas-check: what the tools show of one path", slots: slots}}
	if rules != nil {
		pl.turns[0].before = []action{*rules}
	}
	pl.answer = func(e *env) (any, error) { return levelAnswer(e, len(below), look, change, second, after) }
	return pl, nil
}

// inTree says whether the case's tree holds target, as a file or a directory.
func inTree(tree []string, target string) bool {
	for _, t := range tree {
		r := fsaccess.Resolve("/", t)
		if r == target || strings.HasPrefix(r, strings.TrimSuffix(target, "/")+"/") {
			return true
		}
	}
	return target == "/"
}

// isDirIn says whether the case's tree lists target as a directory (an empty one has nothing
// below it, and a file's probes on it would read a directory's refused write as ro).
func isDirIn(tree []string, target string) bool {
	for _, t := range tree {
		if strings.HasSuffix(t, "/") && fsaccess.Resolve("/", t) == fsaccess.Resolve("/", target) {
			return true
		}
	}
	return false
}

// descendants are the paths below target in the case's tree, in its order (none: a file, or an
// empty directory).
func descendants(tree []string, target string) []string {
	d := strings.TrimSuffix(target, "/") + "/"
	var out []string
	for _, t := range tree {
		if r := fsaccess.Resolve("/", t); strings.HasPrefix(r, d) && r != d {
			out = append(out, t)
		}
	}
	return out
}

// levelAnswer reads the level from the probes' results: the look's in the request after it (the
// change's slot), the change's in the next, each path below's in the one after it.
func levelAnswer(e *env, below int, look, change string, second, after *slot) (any, error) {
	refused := func(q *request, id string) bool {
		r, ok := q.result(id)
		return !ok || isFSError(e.casePaths(strings.TrimSpace(withoutBracket(r))))
	}
	if refused(second.req, callPrefix+look) {
		passage := false
		for k := range below {
			passage = passage || !refused(after.req, fmt.Sprintf("%sbelow%d", callPrefix, k))
		}
		return map[string]any{"level": "none", "passage": passage}, nil
	}
	if refused(after.req, callPrefix+change) {
		return map[string]any{"level": "ro", "passage": false}, nil
	}
	return map[string]any{"level": "stage", "passage": false}, nil
}
