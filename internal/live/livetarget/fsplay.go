package livetarget

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/results"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// fsPlays are the fs_access ops played beyond one look or one change: a listing's text, an edit
// after reads, a move, a commit at a forge mount (docs/live.md).
var fsPlays map[string]func(*agents.Profile, conformance.Case, conformance.FSAccessCase) (*plan, error)

func init() {
	fsPlays = map[string]func(*agents.Profile, conformance.Case, conformance.FSAccessCase) (*plan, error){
		"list_text": planListText, "read_text": planListText, "edit": planEdit, "mv": planMv, "commit": planCommit,
	}
}

// edited is what an edit play puts after the file's marker.
const edited = "lembas-check edited this\n"

// fsResult is the call's result in the request after it, as the case's paths; ok is false when
// that request carries none.
func fsResult(e *env, fc *fsCalled) (body string, ok bool) {
	r, ok := fc.after.req.result(fc.id)
	if !ok {
		return "(the request after the call carries no result for it)", false
	}
	return e.casePaths(strings.TrimSpace(withoutBracket(r))), true
}

// planListText plays list_text (a list call, with the case's depth when it has one) and read_text
// (a read of the directory): the answer is the result's text as the tool shows it, which the case
// compares with filesystem.md's listing, or its error.
func planListText(p *agents.Profile, c conformance.Case, cs conformance.FSAccessCase) (*plan, error) {
	op := "list"
	if cs.Op == "read_text" {
		op = "read"
	}
	fc, err := fsCall(p, c, cs, op, func(_ *env, v vals) {
		if cs.Depth != nil {
			v["depth"] = *cs.Depth
		}
	})
	if err != nil {
		return nil, err
	}
	if err := recallCapped(p, c, fc); err != nil {
		return nil, err
	}
	fc.pl.answer = func(e *env) (any, error) {
		body, ok := fsResult(e, fc)
		if !ok || isFSError(body) {
			return map[string]any{"error": body}, nil
		}
		if st, err := os.Stat(e.real(fc.target, "/")); op == "read" && err == nil && !st.IsDir() {
			return fsAnswer(e, "read", fc.after, fc.id, fc.target, fc.existed)
		}
		return map[string]any{"text": body}, nil
	}
	return fc.pl, nil
}

// recallCapped: a listing longer than loop.json's cap on a result (context.cap, max_lines 400
// where the listing's own cap is 400 lines and its cap line) reaches the model elided, its full
// output stored with the session (context.md); the tool's text is then read from a recall of the
// result, which the cap does not apply to. The recall's result is the one judged.
func recallCapped(p *agents.Profile, c conformance.Case, fc *fsCalled) error {
	ref, err := reference(c.Area, c.Input)
	if err != nil {
		return err
	}
	var want struct {
		Text *string `json:"text"`
	}
	json.Unmarshal(ref, &want)
	cp := spec.LoopJSON().Context.Cap.Cap
	if want.Text == nil || results.Cap(*want.Text, cp, "#0") == *want.Text {
		return nil
	}
	id := callPrefix + "recall"
	if _, err := makeCall(p, "recall", id, vals{}); err != nil {
		return err
	}
	listed := "#" + strings.TrimPrefix(fc.id, callPrefix)
	recall := &slot{replyFn: func(e *env, _ *request) script.Reply {
		call, err := makeCall(p, "recall", id, vals{"id": e.harnessID(listed)})
		if err != nil {
			return text("(lembas-check could not make the call: " + err.Error() + ")")
		}
		return callReply(call)
	}}
	done := &slot{reply: text("done")}
	fc.pl.turns[0].slots = []*slot{fc.first, recall, done}
	fc.after, fc.id = done, id
	return nil
}

// planEdit plays an edit with the session's reads: each path the case's reads name is read by a
// call first; then each path changed since is changed on disk (its marker kept, a line added);
// then the edit replaces the file's marker. The answer is the edit's error, or ok when the disk
// holds the edited file.
func planEdit(p *agents.Profile, c conformance.Case, cs conformance.FSAccessCase) (*plan, error) {
	cwd := fsaccess.Resolve("/", str(cs.Cwd))
	for _, r := range append(append([]string{}, cs.Reads...), cs.Changed...) {
		if fsaccess.AboveRoot(cwd, r) {
			return nil, skipf("%s climbs above /, which from a session directory leaves it", r)
		}
	}
	if _, err := makeCall(p, "read", callPrefix+"r", vals{}); err != nil {
		return nil, err
	}
	fc, err := fsCall(p, c, cs, "edit", func(e *env, v vals) {
		m := marker(fsaccess.Resolve(cwd, *cs.Path))
		v["old"], v["new"] = m, m+edited
	})
	if err != nil {
		return nil, err
	}
	var reads []*slot
	for k, r := range cs.Reads {
		id := fmt.Sprintf("%sr%d", callPrefix, k)
		reads = append(reads, &slot{replyFn: func(e *env, _ *request) script.Reply {
			call, err := makeCall(p, "read", id, vals{"path": e.callPath(r)})
			if err != nil {
				return text("(lembas-check could not make the call: " + err.Error() + ")")
			}
			return callReply(call)
		}})
	}
	for _, ch := range cs.Changed {
		fc.first.before = append(fc.first.before, action{what: "changing " + ch + " on disk after the session read it",
			do: func(_ context.Context, e *env) error {
				real := e.real(ch, cwd)
				b, err := os.ReadFile(real)
				if err != nil {
					return nil // not there to change: the case's edit meets it as it is
				}
				return os.WriteFile(real, append(b, "changed by lembas-check\n"...), 0o644)
			}})
	}
	fc.pl.turns[0].slots = append(reads, fc.pl.turns[0].slots...)
	fc.pl.answer = func(e *env) (any, error) {
		body, ok := fsResult(e, fc)
		if !ok || isFSError(body) {
			return map[string]any{"error": body}, nil
		}
		if b, err := os.ReadFile(e.real(fc.target, "/")); err == nil && strings.HasSuffix(string(b), edited) {
			return map[string]any{"ok": true}, nil
		}
		return map[string]any{"error": body}, nil
	}
	return fc.pl, nil
}

// planMv plays a move: one call from the case's path to its target. The answer is the call's
// error, or ok when the disk has the source gone and the target there.
func planMv(p *agents.Profile, c conformance.Case, cs conformance.FSAccessCase) (*plan, error) {
	to := str(cs.To)
	cwd := fsaccess.Resolve("/", str(cs.Cwd))
	if fsaccess.AboveRoot(cwd, to) {
		return nil, skipf("%s climbs above /, which from a session directory leaves it", to)
	}
	fc, err := fsCall(p, c, cs, "mv", func(e *env, v vals) { v["to"] = e.callPath(to) })
	if err != nil {
		return nil, err
	}
	fc.pl.answer = func(e *env) (any, error) {
		body, ok := fsResult(e, fc)
		if !ok || isFSError(body) {
			return map[string]any{"error": body}, nil
		}
		_, gone := os.Stat(e.real(fc.target, "/"))
		_, there := os.Stat(e.real(to, cwd))
		if os.IsNotExist(gone) && there == nil && fc.existed[fc.target] {
			return map[string]any{"ok": true}, nil
		}
		return map[string]any{"error": body}, nil
	}
	return fc.pl, nil
}

// commitMessage is the message a commit play gives; the mount's newest commit says it when the
// commit was made.
const commitMessage = "lembas-check: a commit of the case's mount"

// planCommit plays a commit: each of the case's mounts a git repository on disk (a forge's
// working copy), the case's grants, floor and mounts given by _lembas/configure (mounts [] when
// it has none: a forge connected, its path outside every repository), one commit call. The answer
// is the call's error, or ok when the mount's newest commit is the call's.
func planCommit(p *agents.Profile, c conformance.Case, cs conformance.FSAccessCase) (*plan, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, skipf("a commit play makes the case's mounts git repositories, and git is not on PATH")
	}
	mounts := cs.Mounts
	if mounts == nil {
		mounts = []string{}
	}
	grants := cs.Grants
	if grants == nil {
		grants = map[string]string{} // fs_access: grants absent are none
	}
	fc, err := fsCall(p, c, cs, "commit", func(_ *env, v vals) { v["message"] = commitMessage })
	if err != nil {
		return nil, err
	}
	_, ans, err := oneLevel(c, atStage)
	if err != nil {
		return nil, err
	}
	repos := action{what: "the case's mounts made git repositories", do: func(ctx context.Context, e *env) error {
		for _, m := range mounts {
			if err := gitInit(ctx, e.real(m, "/")); err != nil {
				return err
			}
		}
		return nil
	}}
	give := configureAction("the case's permission rules and mounts",
		map[string]any{"grants": grants, "floor": cs.Floor, "mounts": mounts, "forge": cs.Forge})
	do := give.do
	give.do = func(ctx context.Context, e *env) error {
		err := do(ctx, e)
		var u *acp.Unsupported
		if errors.As(err, &u) {
			return &acp.Unsupported{What: "a forge mount", Why: fmt.Sprintf("a commit needs the case's mounts "+
				"as a forge's repositories, given with its grants by _lembas/configure (acp.md names no other "+
				"method); on a harness of one access level (no mount, no forge) the reference answers %s, and %s",
				ans, u.Why)}
		}
		return err
	}
	fc.pl.turns[0].before = []action{repos, give}
	fc.pl.answer = func(e *env) (any, error) {
		body, ok := fsResult(e, fc)
		if !ok || isFSError(body) {
			return map[string]any{"error": body}, nil
		}
		for _, m := range mounts {
			if m = fsaccess.Resolve("/", m); fsaccess.Within(m, fc.target) {
				subject, err := gitOut(context.Background(), e.real(m, "/"), "log", "-1", "--format=%s")
				if err == nil && subject == commitMessage {
					return map[string]any{"ok": true}, nil
				}
			}
		}
		return map[string]any{"error": body}, nil
	}
	return fc.pl, nil
}

// gitInit makes dir a git repository holding what is in it, committed.
func gitInit(ctx context.Context, dir string) error {
	for _, a := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"commit", "-q", "--allow-empty", "-m", "lembas-check: the case's tree"}} {
		if _, err := gitOut(ctx, dir, a...); err != nil {
			return err
		}
	}
	return nil
}

// gitOut runs git in dir as lembas-check, with no system or user configuration.
func gitOut(ctx context.Context, dir string, arg ...string) (string, error) {
	full := append([]string{"-C", dir, "-c", "user.name=lembas-check", "-c", "user.email=live@lembas-check.invalid",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, arg...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s in %s: %v: %s", arg[0], dir, err, strings.TrimSpace(out.String()))
	}
	return strings.TrimSpace(out.String()), nil
}
