package livetarget

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/instructions"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// oneLevel says whether a case reads the same on a harness whose whole boundary is one access
// level (a CLI: stage in its directory, nothing outside, no floor, no mount, its root a
// repository's): the reference answers the case as it is and with its access replaced by that
// (edit changes the case's object), and the case is expressible only when the two answers agree.
// ans is the answer on one level, for the reason of a skip.
func oneLevel(c conformance.Case, edit func(map[string]json.RawMessage)) (same bool, ans string, err error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(c.Input, &m); err != nil {
		return false, "", err
	}
	asIs, err := reference(c.Area, c.Input)
	if err != nil {
		return false, "", err
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		return false, "", err
	}
	one, err := reference(c.Area, b)
	if err != nil {
		return false, "", fmt.Errorf("the case on one level: %v", err)
	}
	return conformance.Diff(asIs, one) == "", string(one), nil
}

// atStage makes a case's view the one a harness of one access level has: its grants `/` at
// stage, no floor, no mount, no forge account's level (which is a mount's).
func atStage(m map[string]json.RawMessage) {
	delete(m, "floor")
	delete(m, "mounts")
	delete(m, "forge")
	m["grants"] = json.RawMessage(`{"/":"stage"}`)
}

// reference is the reference's answer to a case.
func reference(area string, input []byte) ([]byte, error) {
	a, _ := conformance.ByName(area)
	d, err := a.Decode(input)
	if err != nil {
		return nil, err
	}
	got, err := a.Reference(d)
	if err != nil {
		return nil, err
	}
	return jsonx.Marshal(got)
}

// gitTree is the marker gitMarker writes at the root, as an fs_access tree lists it.
var gitTree = []string{"/.git/HEAD", "/.git/config", "/.git/objects/", "/.git/refs/heads/"}

// marker is the content the live target gives a file of a case's tree, to know it when a
// result shows it.
func marker(p string) string {
	h := sha256.Sum256([]byte(p))
	return "lembas-check marker " + hex.EncodeToString(h[:6]) + "\n"
}

// written is what a write step writes.
const written = "lembas-check wrote this\n"

// planFS plays an fs_access case on a harness of one access level: the case's tree on disk, one
// call of the op's tool. Only the ops a harness has a tool for, and only the cases whose answer
// does not hang on grants, a floor or mounts, are expressible (docs/live.md).
func planFS(p *agents.Profile, c conformance.Case) (*plan, error) {
	cs, err := decoded[conformance.FSAccessCase](c)
	if err != nil {
		return nil, err
	}
	if cs.Op == "level" {
		return planLevel(p, c, cs)
	}
	if mk, ok := fsPlays[cs.Op]; ok {
		return mk(p, c, cs)
	}
	op := map[string]string{"read": "read", "list": "list", "write": "write", "mkdir": "mkdir", "rm": "delete"}[cs.Op]
	if op == "" {
		return nil, unplayedFS(cs.Op)
	}
	fc, err := fsCall(p, c, cs, op, func(_ *env, v vals) {
		switch op {
		case "write":
			v["content"] = written
		case "list":
			v["depth"] = 1 // the entries of one level, as the case's answer lists them
		}
	})
	if err != nil {
		return nil, err
	}
	fc.pl.answer = func(e *env) (any, error) { return fsAnswer(e, cs.Op, fc.after, fc.id, fc.target, fc.existed) }
	return fc.pl, nil
}

// fsCalled is a play of one call on the case's tree: the plan, the request after the call (its
// result), the call's id, the path resolved and every path the tree held.
type fsCalled struct {
	pl      *plan
	first   *slot
	after   *slot
	id      string
	target  string
	existed map[string]bool
}

// fsCall is the play of one call of op on the case's path: the case's tree on disk, its
// permission rules given where one level answers otherwise, the call made with the path and what
// more sets (its values, as the request comes), then a reply that ends the turn.
func fsCall(p *agents.Profile, c conformance.Case, cs conformance.FSAccessCase, op string,
	more func(*env, vals)) (*fsCalled, error) {
	path := *cs.Path
	rules, err := fsPlayable(c, cs, path)
	if err != nil {
		return nil, err
	}
	pl, existed := fsTree(cs)
	id := callPrefix + "fs"
	if _, err := makeCall(p, op, id, vals{}); err != nil {
		return nil, err
	}
	first := &slot{replyFn: func(e *env, _ *request) script.Reply {
		v := vals{"path": e.callPath(path)}
		more(e, v)
		call, err := makeCall(p, op, id, v)
		if err != nil {
			return text("(lembas-check could not make the call: " + err.Error() + ")")
		}
		return callReply(call)
	}}
	after := &slot{reply: text("done")}
	pl.turns = []*turn{{words: "lembas-check: one file operation", slots: []*slot{first, after}}}
	if rules != nil {
		pl.turns[0].before = []action{*rules}
	}
	return &fsCalled{pl: pl, first: first, after: after, id: id, target: fsaccess.Resolve(pl.cwd, path),
		existed: existed}, nil
}

// deviceListable is nil unless a listing of the case's path answers otherwise on a device: the
// reference agent is one, and its listings leave out what fsaccess.DeviceTree does (a directory
// holding no file it would list, build directories), where a server's tree shows them.
func deviceListable(c conformance.Case, cs conformance.FSAccessCase, path string) error {
	switch cs.Op {
	case "list", "read", "list_text", "read_text":
	default:
		return nil
	}
	cwd := "/"
	if cs.Cwd != nil {
		cwd = *cs.Cwd
	}
	same, ans, err := oneLevel(c, func(m map[string]json.RawMessage) {
		m["tree"], _ = json.Marshal(fsaccess.DeviceTree(cs.Tree, nil, fsaccess.Resolve(cwd, path)))
	})
	if err == nil && !same {
		err = skipf("on a device (the reference agent is one) the listing leaves out what a server's shows "+
			"(filesystem.md, A listing: directories holding no file it would list, build directories): "+
			"the reference answers %s there", ans)
	}
	return err
}

// fsPlayable says why an fs_access case cannot be played: its path climbs out of the session
// directory, or the reference answers it otherwise with the .git the session directory holds. A
// case that reads otherwise on one access level needs its grants, floor and mounts: rules is the
// action that gives them (_lembas/configure), nil when one level answers it alike.
func fsPlayable(c conformance.Case, cs conformance.FSAccessCase, path string) (rules *action, err error) {
	cwd := "/"
	if cs.Cwd != nil {
		cwd = *cs.Cwd
	}
	if fsaccess.AboveRoot(cwd, path) {
		return nil, skipf("%s climbs above /, which from a session directory leaves it", path)
	}
	withGit := func(m map[string]json.RawMessage) {
		var tree []string
		json.Unmarshal(m["tree"], &tree)
		m["tree"], _ = json.Marshal(append(tree, gitTree...))
	}
	if cs.Device { // one level already, and a device's listing leaves the session's .git out
		same, ans, err := oneLevel(c, withGit)
		if err == nil && !same {
			err = skipf("with the .git the session directory holds the reference answers %s", ans)
		}
		return nil, err
	}
	if err := deviceListable(c, cs, path); err != nil {
		return nil, err
	}
	same, ans, err := oneLevel(c, func(m map[string]json.RawMessage) {
		atStage(m)
		withGit(m)
	})
	if err != nil || same {
		return nil, err
	}
	grants := maps.Clone(cs.Grants)
	if grants == nil {
		grants = map[string]string{} // fs_access: grants absent are none
	}
	if same, gitAns, err := oneLevel(c, withGit); err != nil || !same {
		if err != nil {
			return nil, err
		}
		// The session directory's .git is the live target's, not the case's: a grant of none
		// hides it, where the reference then answers as the case.
		hidden := func(m map[string]json.RawMessage) {
			withGit(m)
			g := maps.Clone(grants)
			g["/.git"] = "none"
			m["grants"], _ = json.Marshal(g)
		}
		if same, _, err := oneLevel(c, hidden); err != nil || !same || cs.Grants["/.git"] != "" {
			if err == nil {
				err = skipf("with the .git the session directory holds the reference answers %s: "+
					"the case's tree has none", gitAns)
			}
			return nil, err
		}
		grants["/.git"] = "none"
	}
	set := map[string]any{"grants": grants, "floor": cs.Floor, "mounts": cs.Mounts, "forge": cs.Forge}
	a := configureAction("the case's permission rules", set)
	give := a.do
	a.do = func(ctx context.Context, e *env) error {
		err := give(ctx, e)
		var u *acp.Unsupported
		if errors.As(err, &u) {
			return &acp.Unsupported{What: "the case's grants, floor, mounts or forge", Why: fmt.Sprintf(
				"on a harness of one "+
					"access level (its directory at stage, no floor, no mount, a repository's root) the reference "+
					"answers %s, and %s", ans, u.Why)}
		}
		return err
	}
	return &a, nil
}

// fsTree is the case's tree on disk (each file holding its marker) and every path it holds,
// resolved, its parents implied.
func fsTree(cs conformance.FSAccessCase) (*plan, map[string]bool) {
	cwd := "/"
	if cs.Cwd != nil {
		cwd = *cs.Cwd
	}
	pl := &plan{cwd: fsaccess.Resolve("/", cwd), files: map[string]string{}}
	gitMarker(pl.files, "/")
	for _, t := range cs.Tree {
		if strings.HasSuffix(t, "/") {
			pl.files[t] = ""
		} else if lines, ok := cs.Gitignore[t]; ok {
			pl.files[t] = strings.Join(lines, "\n") + "\n" // a device case's .gitignore, its lines
		} else {
			pl.files[t] = marker(fsaccess.Resolve("/", t))
		}
	}
	for _, m := range cs.Mounts {
		pl.files[strings.TrimSuffix(m, "/")+"/"] = ""
	}
	existed := map[string]bool{}
	for p := range pl.files {
		for r := fsaccess.Resolve("/", p); r != "/"; r = fsaccess.Parent(r) {
			existed[r] = true
		}
	}
	if pl.cwd != "/" {
		pl.files[pl.cwd+"/"] = ""
	}
	return pl, existed
}

// fsAnswer reads the call's result: an error text, a listing, or ok only when the disk says it
// happened.
func fsAnswer(e *env, op string, after *slot, id, target string, existed map[string]bool) (any, error) {
	r, ok := after.req.result(id)
	if !ok {
		return map[string]any{"error": "(the request after the call carries no result for it)"}, nil
	}
	body := e.casePaths(strings.TrimSpace(withoutBracket(r)))
	if isFSError(body) {
		return map[string]any{"error": body}, nil
	}
	if t := fsaccess.SpecTexts(); body == t.EmptyList || body == t.EmptyRead {
		body = "" // an empty directory's text is a listing of no entries
	}
	real := e.root + target
	if target == "/" {
		real = e.root
	}
	st, statErr := os.Stat(real)
	ok = false
	switch op {
	case "list":
		return map[string]any{"entries": entries(body)}, nil
	case "read":
		if statErr == nil && st.IsDir() {
			return map[string]any{"entries": entries(body)}, nil
		}
		ok = statErr == nil && strings.Contains(r, strings.TrimSuffix(marker(target), "\n"))
	case "write":
		b, err := os.ReadFile(real)
		ok = err == nil && string(b) == written
	case "mkdir":
		ok = statErr == nil && st.IsDir()
	case "rm":
		// Gone, and there before: a removal of what was never there is no success.
		ok = os.IsNotExist(statErr) && existed[target]
	}
	if ok {
		return map[string]any{"ok": true}, nil
	}
	return map[string]any{"error": body}, nil
}

// withoutBracket is a result after its id's bracket.
func withoutBracket(r string) string {
	if !strings.HasPrefix(r, "[#") {
		return r
	}
	i := strings.Index(r, "]")
	if i < 0 {
		return r
	}
	return strings.TrimPrefix(strings.TrimPrefix(r[i+1:], "\n"), " ")
}

// isFSError says whether a text is one of filesystem.md's errors.
func isFSError(s string) bool {
	for _, t := range fsaccess.SpecTexts().Errors {
		if len(s) > len(t.Before)+len(t.After) && strings.HasPrefix(s, t.Before) && strings.HasSuffix(s, t.After) {
			return true
		}
	}
	return false
}

// entries are a listing's lines; none for an empty one.
func entries(body string) []string {
	if body == "" {
		return []string{}
	}
	return strings.Split(body, "\n")
}

// planInstructions plays an instructions case: its files on disk (each holding a marker), the
// boundary a repository's root, the session started in the start directory, one prompt. The
// answer is the files whose markers the first request carries, in the order it carries them.
func planInstructions(p *agents.Profile, c conformance.Case) (*plan, error) {
	cs, err := decoded[conformance.InstructionsCase](c)
	if err != nil {
		return nil, err
	}
	if why := instructionsUnplayed(cs); why != "" {
		return nil, skipf("%s", why)
	}
	boundary := fsaccess.Resolve("/", *cs.Boundary)
	var rules []action
	if cs.Grants != nil {
		same, ans, err := oneLevel(c, func(m map[string]json.RawMessage) { delete(m, "grants") })
		if err != nil {
			return nil, err
		}
		if !same {
			rules = []action{grantsAction(cs.Grants, boundary, ans)}
		}
	}
	start := fsaccess.Resolve(boundary, *cs.Start)
	if instructions.StartDir(boundary, start) != start {
		return nil, skipf("the start directory %s is outside the boundary %s: a harness finds its boundary from "+
			"where it starts (neither ACP nor acp.md's _lembas/configure gives a session a boundary apart from its "+
			"cwd; a field that did would carry it)", start, boundary)
	}
	pl := &plan{cwd: start, files: map[string]string{}}
	gitMarker(pl.files, boundary)
	var files []string
	for _, f := range cs.Files {
		if strings.HasSuffix(f, "/") {
			pl.files[f] = ""
			continue
		}
		f = fsaccess.Resolve("/", f)
		pl.files[f] = marker(f)
		files = append(files, f)
	}
	if start != "/" {
		pl.files[start+"/"] = ""
	}
	first := &slot{reply: text("done")}
	pl.turns = []*turn{{before: rules, words: "lembas-check: what are your instructions?", slots: []*slot{first}}}
	pl.answer = func(e *env) (any, error) {
		all := first.req.all()
		type at struct {
			i int
			f string
		}
		var found []at
		for _, f := range files {
			if i := strings.Index(all, strings.TrimSuffix(marker(f), "\n")); i >= 0 {
				found = append(found, at{i, f})
			}
		}
		sort.Slice(found, func(a, b int) bool { return found[a].i < found[b].i })
		out := []string{}
		for _, x := range found {
			out = append(out, x.f)
		}
		return out, nil
	}
	return pl, nil
}

// instructionsUnplayed says what would carry an instructions case's 3.1.0 fields, which one
// prompt whose first request is searched for markers cannot show; "" when it has none.
func instructionsUnplayed(c conformance.InstructionsCase) string {
	switch {
	case c.Device != nil:
		return "a device's links, global AGENTS.md and configured instructions need a profile that says where the " +
			"agent's global file and configuration live; the reference agent has neither"
	case len(c.Reads) > 0:
		return "the nearby files a read hands need each read played as a read call and its result searched for " +
			"markers; the live target plays one prompt"
	case c.Relative:
		return "the path each file is given under is written in the agent's own prompt format, which the live " +
			"target does not parse; only the markers are found"
	}
	return ""
}

// grantsAction gives an instructions case's grants by _lembas/configure, in the session's terms
// ("/" its boundary): a grant inside the boundary by its path below it, the most specific grant
// at or above the boundary as "/". Without the extension the case is skipped, saying what one
// level answers.
func grantsAction(grants map[string]string, boundary, ans string) action {
	view := map[string]string{}
	above := ""
	for p, l := range grants {
		p = fsaccess.Resolve("/", p)
		switch {
		case fsaccess.Within(p, boundary) && len(p) >= len(above):
			above = p
			view["/"] = l
		case fsaccess.Within(boundary, p):
			view[strings.TrimPrefix(p, strings.TrimSuffix(boundary, "/"))] = l
		}
	}
	a := configureAction("the case's grants", map[string]any{"grants": view})
	give := a.do
	a.do = func(ctx context.Context, e *env) error {
		err := give(ctx, e)
		var u *acp.Unsupported
		if errors.As(err, &u) {
			return &acp.Unsupported{What: "the case's grants", Why: fmt.Sprintf("with everything readable (a harness "+
				"of one access level) the reference answers %s, and %s", ans, u.Why)}
		}
		return err
	}
	return a
}

// unplayedFS is the skip of an op no play carries (fsPlays and planFS's own carry every other op
// harness/fsaccess knows today), naming what would carry it.
func unplayedFS(op string) error {
	if op == "view" {
		return skipf("no play reads the levels the model is told: they are the workspace block's {{view}} " +
			"(prompts/blocks/workspace.md), which the reference agent, of one access level, does not write; " +
			"grants given by _lembas/configure and a parse of that block in the first request would carry it")
	}
	return skipf("no play makes a %s: the live target has no play for this op", op)
}
