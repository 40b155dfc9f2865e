package livetarget

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/harness/workspace"
	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/internal/live/a2a"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// wsCase is a workspace case as the live target plays it.
type wsCase struct {
	Tree    []string          `json:"tree"`
	Links   map[string]string `json:"links"`
	Default string            `json:"default"`
	Roots   []string          `json:"roots"`
	Steps   []struct {
		Op   string  `json:"op"`
		Cwd  *string `json:"cwd"`
		Path *string `json:"path"`
	} `json:"steps"`
}

// serve is how a harness is started as a serve with workspace roots (seeds/002, Slice A 2.): in
// its default root, the others in WORKSPACE_ROOTS (path-list separated), as case paths.
type serve struct {
	dflt  string
	roots []string
}

// wsRootOption is the workspace-root picker's config option (seeds/002, Implementation status
// 5.: "a workspace-root select listing allowlisted roots").
const wsRootOption = "workspace-root"

// planWorkspace plays a workspace case on a harness started as a serve in the case's default
// root with its roots registered: each `new` a session/new (and a prompt, whose request's system
// prompt names the root), `load` a session/load of the last session made, `set_root` its
// set_config_option, `options` the picker the first session/new answered, each `read` and
// `write` the model's call of the profile's tool in the last session.
func planWorkspace(p *agents.Profile, c conformance.Case) (*plan, error) {
	var cs wsCase
	if err := json.Unmarshal(c.Input, &cs); err != nil {
		return nil, err
	}
	if err := wsPlayable(cs); err != nil {
		return nil, err
	}
	pl := &plan{cwd: path.Clean(cs.Default), files: map[string]string{}, links: map[string]string{},
		serve: &serve{dflt: path.Clean(cs.Default), roots: cs.Roots}}
	for _, t := range cs.Tree {
		if strings.HasSuffix(t, "/") {
			pl.files[t] = ""
		} else {
			pl.files[t] = marker(path.Clean(t))
		}
		for d := path.Dir(path.Clean(t)); d != "/"; d = path.Dir(d) {
			pl.files[d+"/"+dirMarker(d)] = ""
		}
		if strings.HasSuffix(t, "/") {
			d := path.Clean(t)
			pl.files[d+"/"+dirMarker(d)] = ""
		}
	}
	for l, target := range cs.Links {
		pl.links[l] = target
	}
	w := &wsPlay{p: p, cs: cs, answers: make([]any, len(cs.Steps))}
	var err error
	if w.from, err = wsFrom(c, cs); err != nil {
		return nil, err
	}
	for i := range cs.Steps {
		if err := w.step(pl, i); err != nil {
			return nil, err
		}
	}
	pl.answer = func(e *env) (any, error) { return w.answer(e) }
	return pl, nil
}

// wsPlayable says why a case cannot be played: the /files API, a step on no session, the spellings
// of "no cwd" told apart, a link that climbs above / (it would leave the session directory; a
// path that does is given as climbPath says).
func wsPlayable(cs wsCase) error {
	made := false
	spelled := map[string]map[bool]bool{}
	for i, s := range cs.Steps {
		switch s.Op {
		case "files":
			return skipf("step %d is a /files request, the serve's HTTP API (seeds/002, Implementation status 6.), "+
				"which ACP does not carry: seeds/002 names its routes (GET /files, /files/content) and its root "+
				"parameter (422 when not allowed), not its path parameter nor its answers; a harness serving "+
				"them, with those fixed, would carry it", i+1)
		case "new":
			made = true
		case "options":
		default:
			if !made {
				return skipf("step %d acts on no session, and the live target's session/new is a step's own: "+
					"every ACP request after it names a sessionId, so no request can carry a step on none", i+1)
			}
		}
		if s.Op == "new" || s.Op == "load" {
			if spelled[s.Op] == nil {
				spelled[s.Op] = map[bool]bool{}
			}
			spelled[s.Op][s.Cwd == nil || *s.Cwd == ""] = s.Cwd == nil || *s.Cwd == "" || *s.Cwd == "/"
			if len(spelled[s.Op]) == 2 && spelled[s.Op][true] && spelled[s.Op][false] {
				return skipf("the case tells \"\" or no cwd from the sentinel \"/\" at %s, and ACP's session/%s "+
					"requires a cwd: the live target sends \"/\" for both", s.Op, s.Op)
			}
		}
	}
	for l, t := range cs.Links {
		if !strings.HasPrefix(t, "/") && fsaccess.AboveRoot(path.Dir(l), t) {
			return skipf("the link %s → %s climbs above /, which from a session directory leaves it", l, t)
		}
	}
	return nil
}

// dirMarker is the name of the file the live target puts in a directory, to know it when a
// listing shows it.
func dirMarker(d string) string {
	h := sha256.Sum256([]byte(d))
	return ".lembas-dir-" + hex.EncodeToString(h[:6])
}

// wsPlay is a workspace case's steps as they are played, and each one's answer once known.
type wsPlay struct {
	p       *agents.Profile
	cs      wsCase
	answers []any
	slots   map[int]*slot  // the request each new, load, read or write is read from
	wrote   map[int]string // where each write landed, a case path ("" for nowhere)
	first   wsDoor         // the session the harness was opened with: its picker
	from    []string       // the root each step's relative path is read from, the reference's
}

// wsWritten is what the k-th step's write writes, to find where it landed.
func wsWritten(k int) string { return fmt.Sprintf("lembas-check wrote this at step %d\n", k+1) }

// step adds a step's turn to the plan.
func (w *wsPlay) step(pl *plan, i int) error {
	s := w.cs.Steps[i]
	if w.slots == nil {
		w.slots, w.wrote = map[int]*slot{}, map[int]string{}
	}
	words := fmt.Sprintf("lembas-check: workspace step %d", i+1)
	tn := &turn{words: words}
	switch s.Op {
	case "options":
		tn.before = []action{{what: "the workspace-root picker", do: func(ctx context.Context, e *env) error {
			return w.options(ctx, e, i)
		}}}
		tn.none = func() bool { return true }
	case "new", "load", "set_root":
		tn.before = []action{{what: "session/" + map[string]string{"new": "new", "load": "load",
			"set_root": "set_config_option"}[s.Op], do: func(ctx context.Context, e *env) error {
			return w.session(ctx, e, i)
		}}}
		tn.none = func() bool { return w.answers[i] != nil }
		sl := &slot{reply: text("done")}
		if s.Op == "new" {
			sl.remade, sl.reset = 1, true // a session of its own: its prompt and history begin anew
		}
		tn.slots = []*slot{sl}
		w.slots[i] = sl
	case "read", "write":
		op, id := s.Op, fmt.Sprintf("%sws%d", callPrefix, i)
		if _, err := makeCall(w.p, op, id, vals{}); err != nil {
			return err
		}
		first := &slot{replyFn: func(e *env, _ *request) script.Reply {
			v := vals{"path": e.climbPath(*s.Path, w.from[i])}
			if op == "write" {
				v["content"] = wsWritten(i)
			}
			call, err := makeCall(w.p, op, id, v)
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			return callReply(call)
		}}
		after := &slot{reply: text("done")}
		if op == "write" {
			// The case's writes are probes of where a write lands; the reference's disk stays as
			// the case has it, so the file is noted and removed before the next step.
			after.before = []action{{what: "the write's place noted", do: func(_ context.Context, e *env) error {
				w.wrote[i] = writtenAt(e, wsWritten(i))
				if w.wrote[i] == "" {
					return nil
				}
				return os.Remove(e.root + w.wrote[i])
			}}}
		}
		tn.slots = []*slot{first, after}
		w.slots[i] = after
	}
	pl.turns = append(pl.turns, tn)
	return nil
}

// wsCwd is a step's cwd as the harness is sent it: the sentinel for none and "" (ACP requires a
// cwd; seeds/002 reads the three alike), a relative one as it is, an absolute one under the root.
func wsCwd(e *env, cwd *string) string {
	switch {
	case cwd == nil || *cwd == "" || *cwd == workspace.Sentinel():
		return workspace.Sentinel()
	case !strings.HasPrefix(*cwd, "/"):
		return *cwd
	}
	return e.root + *cwd
}

// session makes a new, load or set_root step; a refusal is its answer, and no turn follows.
func (w *wsPlay) session(ctx context.Context, e *env, i int) error {
	d, ok := e.h.(wsDoor)
	if !ok {
		return &acp.Unsupported{What: "a workspace step", Why: "the harness is driven one-shot, with no session/new"}
	}
	if w.first == nil {
		w.first = d
	}
	s := w.cs.Steps[i]
	var err error
	switch s.Op {
	case "new":
		var h harness
		if h, err = d.open(ctx, e, wsCwd(e, s.Cwd)); err == nil {
			e.h = h
		}
	case "load":
		err = d.load(ctx, wsCwd(e, s.Cwd))
	case "set_root":
		if err = d.setRoot(ctx, wsCwd(e, s.Cwd)); err == nil {
			w.answers[i] = map[string]string{"error": "(the workspace root's change was accepted)"}
		}
	}
	var ce *acp.CallError
	var re *a2a.Refused
	switch {
	case errors.As(err, &ce):
		w.answers[i] = map[string]string{"error": refusalWord(ce.Message)}
	case errors.As(err, &re):
		w.answers[i] = map[string]string{"error": refusalWord(re.Message)}
	default:
		return err
	}
	return nil
}

// wsDoor is how a workspace step reaches a serve: ACP's session/new, session/load and
// session/set_config_option, or over A2A a conversation per session/new, its workspace its first
// message's, and _lembas/configure for the rest (docs/live.md).
type wsDoor interface {
	open(ctx context.Context, e *env, cwd string) (harness, error)
	load(ctx context.Context, cwd string) error
	setRoot(ctx context.Context, cwd string) error
	// roots is the workspace-root picker the session was offered (nil: none).
	roots(ctx context.Context) ([]string, error)
}

func (h *acpHarness) open(ctx context.Context, e *env, cwd string) (harness, error) {
	s, model, err := e.t.ag.NewSession(ctx, h.c, cwd)
	if err != nil {
		return nil, err
	}
	nh := *h
	nh.s = s
	if model != "" {
		nh.model = model
	}
	return &nh, nil
}

func (h *acpHarness) load(ctx context.Context, cwd string) error {
	return h.c.LoadSession(ctx, h.s.ID, cwd)
}

func (h *acpHarness) setRoot(ctx context.Context, cwd string) error {
	return h.c.SetOption(ctx, h.s.ID, wsRootOption, cwd)
}

func (h *acpHarness) roots(context.Context) ([]string, error) { return h.s.Selects[wsRootOption], nil }

func (h *a2aHarness) open(ctx context.Context, e *env, cwd string) (harness, error) {
	nh, err := h.a.conversation(ctx, e.t, cwd, false)
	if err != nil {
		return nil, err
	}
	_, err = nh.(*a2aHarness).opened(ctx)
	return nh, err
}

// opened opens the conversation on the server before its first message (_lembas/configure with
// its workspace), and answers the picker the configure answer carries.
func (h *a2aHarness) opened(ctx context.Context) ([]string, error) {
	if h.c.Context == "" {
		h.c.Context = fmt.Sprintf("lembas-ws-%d", time.Now().UnixNano())
	}
	var out struct {
		Roots []string `json:"roots"`
	}
	err := h.c.Call(ctx, spec.Text("acp.method.configure"), map[string]any{"sessionId": h.c.Context,
		"metadata": live.Workspace(h.cwd, false)}, &out)
	return out.Roots, err
}

func (h *a2aHarness) load(ctx context.Context, cwd string) error {
	return h.c.Call(ctx, spec.Text("acp.method.configure"), map[string]any{"sessionId": h.c.Context,
		"metadata": live.Workspace(cwd, false)}, nil)
}

func (h *a2aHarness) setRoot(ctx context.Context, cwd string) error {
	return h.c.Call(ctx, spec.Text("acp.method.configure"), map[string]any{"sessionId": h.c.Context, "root": cwd}, nil)
}

func (h *a2aHarness) roots(ctx context.Context) ([]string, error) { return h.opened(ctx) }

// refusalWord is the refusal a message begins with ("not_allowed: …"), else the message whole.
func refusalWord(msg string) string {
	word, _, _ := strings.Cut(msg, ":")
	for _, r := range []workspace.Refusal{workspace.NotAbsolute, workspace.NotAllowed, workspace.Immutable,
		workspace.NoSession, workspace.Escape, workspace.NotFound, workspace.Loop} {
		if word == string(r) {
			return word
		}
	}
	return msg
}

// options is the picker the session the harness was opened with offered: its roots as case
// paths, or null when it offers none.
func (w *wsPlay) options(ctx context.Context, e *env, i int) error {
	d := w.first
	if d == nil {
		var ok bool
		if d, ok = e.h.(wsDoor); !ok {
			return &acp.Unsupported{What: "the workspace-root picker", Why: "the harness is driven one-shot"}
		}
	}
	got, err := d.roots(ctx)
	if err != nil {
		return err
	}
	var roots []string
	for _, r := range got {
		roots = append(roots, e.casePaths(r))
	}
	w.answers[i] = map[string]any{"roots": roots}
	return nil
}

// answer is each step's: a refusal or the picker as made, a session's root from its request's
// system prompt, a read's or a write's from its result and the disk.
func (w *wsPlay) answer(e *env) (any, error) {
	out := make([]any, len(w.answers))
	for i, s := range w.cs.Steps {
		if w.answers[i] != nil {
			out[i] = w.answers[i]
			continue
		}
		sl := w.slots[i]
		if sl == nil || sl.req == nil {
			return nil, fmt.Errorf("step %d (%s): no request was read", i+1, s.Op)
		}
		switch s.Op {
		case "new", "load":
			out[i] = map[string]string{"root": wsRootIn(e, sl.req.system)}
		default:
			out[i] = w.pathAnswer(e, i, sl)
		}
	}
	return out, nil
}

// wsRootIn is the directory under the case's root the system prompt names first, as a case path.
func wsRootIn(e *env, system string) string {
	at := strings.Index(system, e.root)
	if at < 0 {
		return "(the system prompt names no directory of the case)"
	}
	rest := system[at:]
	if end := strings.IndexAny(rest, "`'\" \n\t)"); end >= 0 {
		rest = rest[:end]
	}
	return path.Clean(e.casePaths(rest))
}

// pathAnswer reads a read's or a write's result: a refusal; a read's file or directory by the
// marker it shows; a write's by the file on disk that holds what it wrote.
func (w *wsPlay) pathAnswer(e *env, i int, after *slot) any {
	id := fmt.Sprintf("%sws%d", callPrefix, i)
	r, ok := after.req.result(id)
	if !ok {
		return map[string]string{"error": "(the request after the call carries no result for it)"}
	}
	body := e.casePaths(strings.TrimSpace(withoutBracket(r)))
	if word := refusalWord(body); word != body {
		return map[string]string{"error": word}
	}
	if w.cs.Steps[i].Op == "write" {
		if p := w.wrote[i]; p != "" {
			return map[string]string{"path": p}
		}
		return map[string]string{"error": body}
	}
	var found []string
	for _, t := range w.cs.Tree {
		t = path.Clean(t)
		if strings.Contains(r, strings.TrimSuffix(marker(t), "\n")) || strings.Contains(r, dirMarker(t)) {
			found = append(found, t)
		}
	}
	for d := range dirsOf(w.cs.Tree) {
		if strings.Contains(r, dirMarker(d)) && !slices.Contains(found, d) {
			found = append(found, d)
		}
	}
	if len(found) == 1 {
		return map[string]string{"path": found[0]}
	}
	return map[string]string{"error": body}
}

// dirsOf is every directory a tree holds, its parents implied.
func dirsOf(tree []string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tree {
		c := path.Clean(t)
		if strings.HasSuffix(t, "/") {
			out[c] = true
		}
		for d := path.Dir(c); d != "/"; d = path.Dir(d) {
			out[d] = true
		}
	}
	return out
}

// writtenAt is the case path of the file under the root that holds content ("" for none).
func writtenAt(e *env, content string) string {
	found := ""
	filepath.WalkDir(e.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && string(b) == content {
			found = e.casePaths(filepath.ToSlash(p))
		}
		return nil
	})
	return found
}

// serveIn is the serve's roots under root as a key: its directory, a newline, then the others
// path-list separated; "" for a plan that is no serve's.
func (pl *plan) serveIn(root string) string {
	if pl.serve == nil {
		return ""
	}
	var roots []string
	for _, r := range pl.serve.roots {
		roots = append(roots, root+r)
	}
	return root + pl.serve.dflt + "\n" + strings.Join(roots, string(filepath.ListSeparator))
}
