package livetarget

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/search"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// planJobs plays a jobs case: a turn whose first request is answered with a read, and while the
// model answers it the job ends (_lembas/configure's `job`, the case's record); loop.json `jobs`
// gives the note "while a prompt runs, as a user message at the next step boundary", so the
// answer is the note the request after the read carries.
func planJobs(p *agents.Profile, c conformance.Case) (*plan, error) {
	var rec map[string]any
	if err := json.Unmarshal(c.Input, &rec); err != nil {
		return nil, err
	}
	if rec["kind"] == "to_subagent" {
		return nil, skipf("a message to a subagent shows in the subagent's own requests (acp.md's capability jobs, " +
			"_lembas/job/send): the reference agent runs no subagent; a harness that runs its subagents on the " +
			"fake would carry it")
	}
	delete(rec, "about")
	pl := &plan{cwd: "/", files: map[string]string{"README.md": marker("/README.md")}}
	gitMarker(pl.files, "/")
	id := callPrefix + "job"
	if _, err := makeCall(p, "read", id, vals{}); err != nil {
		return nil, err
	}
	first := &slot{before: []action{configureAction("the job ending", map[string]any{"job": rec})},
		replyFn: func(e *env, _ *request) script.Reply {
			call, err := makeCall(p, "read", id, vals{"path": e.callPath("README.md")})
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			return callReply(call)
		}}
	after := &slot{reply: text("done")}
	pl.turns = []*turn{{words: "lembas-check: read README.md while a job runs", slots: []*slot{first, after}}}
	pl.answer = func(*env) (any, error) { return map[string]string{"text": jobNote(after.req)}, nil }
	return pl, nil
}

// jobNote is the note a request carries after the last call: the user message that begins with
// one of loop.json's marks, else all that was added after the results (the diff shows it).
func jobNote(q *request) string {
	m := spec.LoopJSON().Jobs.Marks
	for i := len(q.msgs) - 1; i >= 0 && q.msgs[i].role != "assistant"; i-- {
		t := q.msgs[i].text
		if q.msgs[i].role != "user" {
			continue
		}
		for _, mark := range []string{m.Command, m.Subagent, m.Message, m.ToSubagent} {
			if strings.HasPrefix(t, mark+"\n") {
				return t
			}
		}
	}
	return q.afterCalls()
}

// searchInput is a search case as the live target plays it: the view's fields, the index's
// passages (given by _lembas/configure as they are) and the call's parameters.
type searchInput struct {
	conformance.FSAccessCase
	Passages []map[string]any `json:"passages"`
	Path     *string          `json:"path"`
	Limit    *int             `json:"limit"`
	Grep     *string          `json:"grep"`
}

// planSearch plays a search case: the case's tree on disk, its view and its index given by
// _lembas/configure (`grants`, `floor`, `mounts`, `index`) before the first turn, one search
// call. The answer is the call's result, each passage found split out by its result line.
// unplayedGrep is a grep case's skip: what a play of it would need.
var unplayedGrep = skipf("a grep case needs its passages written as the files' lines and a call of the " +
	"harness's grep (tools/grep.json is not vendored, so its parameters are unfixed); no play makes one yet")

func planSearch(p *agents.Profile, c conformance.Case) (*plan, error) {
	var in searchInput
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return nil, err
	}
	if in.Grep != nil {
		return nil, unplayedGrep
	}
	cwd := "/"
	if in.Cwd != nil {
		cwd = *in.Cwd
	}
	if in.Path != nil && fsaccess.AboveRoot(cwd, *in.Path) {
		return nil, skipf("%s climbs above /, which from a session directory leaves it", *in.Path)
	}
	withGit := func(m map[string]json.RawMessage) {
		var tree []string
		json.Unmarshal(m["tree"], &tree)
		m["tree"], _ = json.Marshal(append(tree, gitTree...))
	}
	if same, ans, err := oneLevel(c, withGit); err != nil || !same {
		if err == nil {
			err = skipf("with the .git the session directory holds the reference answers %s", ans)
		}
		return nil, err
	}
	id := callPrefix + "search"
	v := vals{"query": "lembas-check"}
	if _, err := makeCall(p, "search", id, v); err != nil {
		return nil, err
	}
	pl, _ := fsTree(in.FSAccessCase)
	grants := in.Grants
	if grants == nil {
		grants = map[string]string{"/": "ro"} // search: grants absent are / at ro
	}
	set := map[string]any{"grants": grants, "floor": in.Floor, "mounts": in.Mounts, "index": in.Passages}
	first := &slot{replyFn: func(e *env, _ *request) script.Reply {
		w := vals{"query": "lembas-check"}
		if in.Path != nil {
			w["path"] = e.callPath(*in.Path)
		}
		if in.Limit != nil {
			w["limit"] = *in.Limit
		}
		call, err := makeCall(p, "search", id, w)
		if err != nil {
			return text("(lembas-check could not make the call: " + err.Error() + ")")
		}
		return callReply(call)
	}}
	after := &slot{reply: text("done")}
	pl.turns = []*turn{{before: []action{configureAction("the case's view and index", set)},
		words: "lembas-check: one search", slots: []*slot{first, after}}}
	pl.answer = func(e *env) (any, error) { return searchAnswer(e, after, id, in) }
	return pl, nil
}

// searchAnswer reads the call's result: one of filesystem.md's errors, or the results — each a
// passage of the case's in the spec's result form, told apart by matching them, since a passage
// may hold blank lines; what matches none is kept whole, for the diff to show.
func searchAnswer(e *env, after *slot, id string, in searchInput) (any, error) {
	r, ok := after.req.result(id)
	if !ok {
		return map[string]any{"error": "(the request after the call carries no result for it)"}, nil
	}
	body := e.casePaths(strings.TrimSpace(withoutBracket(r)))
	if isFSError(body) {
		return map[string]any{"error": body}, nil
	}
	var forms []string
	for _, m := range in.Passages {
		b, _ := json.Marshal(m)
		var ps struct {
			Path  string `json:"path"`
			Lines [2]int `json:"lines"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(b, &ps); err != nil {
			return nil, fmt.Errorf("a passage of the case: %v", err)
		}
		forms = append(forms, search.Result(search.Passage{Path: ps.Path, Start: ps.Lines[0], End: ps.Lines[1],
			Text: ps.Text}))
	}
	results := []string{}
	for rest := body; rest != ""; {
		found := ""
		for _, f := range forms {
			if (rest == f || strings.HasPrefix(rest, f+"\n\n")) && len(f) > len(found) {
				found = f
			}
		}
		if found == "" {
			results = append(results, rest)
			break
		}
		results = append(results, found)
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, found), "\n\n")
	}
	return map[string]any{"results": results}, nil
}
