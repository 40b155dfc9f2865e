// Package livetarget is the live target (`run --live AGENT`): a runner.Target that answers
// conformance cases with a real harness — driven over ACP, or one prompt at a time — with the
// fake provider as its model. For each case it can express it prepares a fresh session directory,
// scripts the fake so that the model makes exactly the calls the case's steps make, plays the
// person's steps (prompts, the clock, the mode, a model move, a compaction, files changed on
// disk), and reads the answer out of what the harness sent the fake. A case the harness or its
// profile cannot express is skipped with the reason. docs/live.md says what each area can
// express and how each answer is read.
package livetarget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/runner"
)

// Areas are the areas the live target plays; cases of others are skipped unsent.
var Areas = []string{"context", "fs_access", "instructions", "jobs", "modules", "prefix", "search", "workspace"}

// Unplayed are the areas whose rules show in what a harness sends its model or answers its
// client, but which no harness here is proved to carry yet: each of their cases is a skip that
// says what would carry it (docs/live.md, The LLeMbas extensions).
var Unplayed = map[string]string{
	"prompts": "a prompt file's text shows in the system prompt a harness sends its model; the reference agent " +
		"starts no subagent (blocks/subagent.md, agents/*.md) and is no chat (blocks/workspace.md), and its " +
		"blocks/context.md is read by the prefix area's recall case, so no play reads a prompts case yet",
	"skills": "a harness's skills show in its prompt's skills index (prompts/blocks/skills.md, not vendored) and " +
		"its skills_list, skill_view and skill_manage calls; the reference agent has no skill tools, so no play " +
		"reads them yet",
	"loop": "the loop's rules show in what a harness sends its model and answers its client: the wrap-up request " +
		"(a play that runs a prompt to its step limit and reads the request after), one step's calls run " +
		"together (a harness that reports when each call starts and ends), capacity and the job registry (a " +
		"harness that runs subagents and background commands; the reference agent runs its calls one after " +
		"another and has no task tool and no job of its own), the MCP wait (a play with a server that connects " +
		"late); no play reads them yet",
}

// DefaultTimeout bounds one case: the harness's start when it must be (re)started, the session,
// every turn.
const DefaultTimeout = 2 * time.Minute

// crashesInRow end the run: after so many crashes in a row no further case is sent.
const crashesInRow = 3

// Options say which harness and how.
type Options struct {
	Profile *agents.Profile
	// Bin is the harness's program.
	Bin string
	// OneShot drives it one prompt at a time even where its profile has an ACP command; A2A as
	// an A2A server (its profile's a2a command), one conversation a case; HTTP as a server its
	// profile's http section drives, one session a case.
	OneShot, A2A, HTTP bool
	// Timeout bounds one case (DefaultTimeout when 0).
	Timeout time.Duration
	// After is the clock Timeout is kept by: a channel that delivers once d has passed (nil:
	// time.After). A test gives one that never fires where nothing hangs (go test's -timeout
	// catches a hang), so that no verdict depends on the machine's speed.
	After func(d time.Duration) <-chan time.Time
	// Keep, when set, is a directory that keeps what the run sent and got: every request the
	// harness sent the fake (requests.jsonl, the recording format) and the ACP transcript.
	Keep string
	// Version is lembas-check's, said to the harness.
	Version string
}

// Target is a live harness as a runner.Target. Cases run one at a time: the fake plays the model
// for the case being played.
type Target struct {
	o       Options
	work    string
	home    string
	srv     *fakeprovider.Server
	rec     *replay.Writer
	ag      *live.Agent
	clock   *live.Clock
	clockNo string // why the clock is not controlled ("" when it is)
	env     []string
	trans   io.Writer

	mu      sync.Mutex
	playing *playing
	agent   *agentProc
	seq     int
	streak  int
	last    string
	kept    []Kept

	// mcp are the MCP servers the fake serves the cases (serveMCP), by their path's name.
	mcpMu sync.Mutex
	mcp   map[string]wire.MCPServer
}

// Settings are run --live's settings as a person gives them (--live, --profile, --oneshot,
// --keep; docs/live.md).
type Settings struct {
	// Agent is a profile's name, a profile file, or a command 'CMD ARGS'; Profile the profile of
	// that command.
	Agent, Profile string
	OneShot        bool
	Keep           string
	// Transport is --transport: acp, one-shot, a2a or http ("": the profile's first of acp,
	// one-shot).
	Transport string
}

// Target is the live target the settings name; timeout bounds each case (0: DefaultTimeout, a
// case being a session, not one answer).
func (s Settings) Target(timeout time.Duration, version string) (*Target, error) {
	p, bin, err := agents.Resolve(s.Agent, s.Profile)
	if err != nil {
		return nil, err
	}
	o := Options{Profile: p, Bin: bin, OneShot: s.OneShot, Keep: s.Keep, Timeout: timeout, Version: version}
	switch s.Transport {
	case "", "acp":
	case "one-shot", "oneshot":
		o.OneShot = true
	case "a2a":
		if p.A2A == nil {
			return nil, fmt.Errorf("--transport a2a: the %s profile has no a2a command (docs/live.md)", p.Name)
		}
		o.A2A = true
	case "http":
		if p.HTTP == nil {
			return nil, fmt.Errorf("--transport http: the %s profile has no http section (docs/live.md)", p.Name)
		}
		o.HTTP = true
	default:
		return nil, fmt.Errorf("--transport %q: want acp, one-shot, a2a or http", s.Transport)
	}
	return New(o), nil
}

// New makes a live target; Start starts it.
func New(o Options) *Target {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.After == nil {
		o.After = time.After
	}
	return &Target{o: o}
}

// models are the models the fake serves: the harness's, and those a case moves it to.
var models = []string{live.Model, live.Model + "-2", live.Model + "-3", live.Model + "-4"}

// Start makes the run's directory and HOME, starts the fake, writes the profile's files, runs its
// setup, and — over ACP — starts the harness and reads who it is. An error means the run could
// not be made.
func (t *Target) Start(ctx context.Context) (runner.TargetInfo, error) {
	p := t.o.Profile
	if !t.o.OneShot && !t.o.A2A && !t.o.HTTP && p.ACP == nil && p.Oneshot == nil {
		return runner.TargetInfo{}, fmt.Errorf("the %s profile says neither how to run it over ACP nor one-shot",
			p.Name)
	}
	if p.ACP == nil && !t.o.A2A && !t.o.HTTP {
		t.o.OneShot = true
	}
	cfg, err := t.prepare()
	if err != nil {
		return runner.TargetInfo{}, err
	}
	if t.srv, err = fakeprovider.Start(cfg); err != nil {
		return runner.TargetInfo{}, err
	}
	if t.ag, err = live.Prepare(p, t.o.Bin, t.home, t.work, t.srv.URL); err != nil {
		return runner.TargetInfo{}, err
	}
	t.env = t.ag.Env
	if err := t.startClock(); err != nil {
		return runner.TargetInfo{}, err
	}
	var setup proc.Tail
	if err := t.ag.Setup(ctx, &setup); err != nil {
		return runner.TargetInfo{}, fmt.Errorf("%v\n%s", err, setup.String())
	}
	areas := append(slices.Clone(Areas), slices.Sorted(maps.Keys(Unplayed))...)
	info := runner.TargetInfo{Kind: "live", Areas: areas,
		Implementation: runner.Implementation{Name: p.Name, Version: p.Version}}
	if t.o.OneShot {
		argv, _ := t.ag.Oneshot("{prompt}", false)
		info.Command = strings.Join(argv, " ") + " (one-shot)"
		return info, nil
	}
	if t.o.HTTP {
		return t.startHTTP(ctx, info)
	}
	argv, _ := t.ag.ACP()
	how := "acp"
	if t.o.A2A {
		argv, _ = t.ag.A2A()
		how = "a2a"
	}
	info.Command = strings.Join(argv, " ") + " (" + how + ")"
	a, err := t.startAgent(ctx, false, "")
	if err != nil {
		return runner.TargetInfo{}, fmt.Errorf("%s over %s: %v", p.Name, strings.ToUpper(how), err)
	}
	t.agent = a
	if a.info.Name != "" {
		info.Implementation.Name, info.Implementation.Version = a.info.Name, a.info.Version
	}
	return info, nil
}

// prepare makes the target's work directory and HOME, and the fake's configuration: the models
// it serves, and with Keep the recording and the transcript kept there.
func (t *Target) prepare() (fakeprovider.Config, error) {
	p := t.o.Profile
	var err error
	if t.work, err = os.MkdirTemp("", "lembas-live-"); err != nil {
		return fakeprovider.Config{}, err
	}
	// Every case's directories are made here; EvalSymlinks so that the harness's paths (it may
	// resolve its cwd) and the case's agree (/tmp is a link on macOS).
	if t.work, err = filepath.EvalSymlinks(t.work); err != nil {
		return fakeprovider.Config{}, err
	}
	t.home = filepath.Join(t.work, "home")
	if err := os.MkdirAll(t.home, 0o755); err != nil {
		return fakeprovider.Config{}, err
	}
	served := models
	if p.Model != "" { // an agent left on its default model (codex)
		served = append([]string{p.Model}, models...)
	}
	cfg := fakeprovider.Config{Turn: t.turn, Models: served, Log: io.Discard, MCP: t.mcpServer}
	if t.o.Keep == "" {
		return cfg, nil
	}
	if err := os.MkdirAll(t.o.Keep, 0o755); err != nil {
		return cfg, err
	}
	if t.rec, err = replay.Create(filepath.Join(t.o.Keep, "requests.jsonl"),
		replay.Header{Tool: "lembas-check " + t.o.Version, Source: "fake",
			Script: "run --live " + p.Name}); err != nil {
		return cfg, err
	}
	cfg.Record = t.rec
	// The transcript: ACP's lines each way, or each one-shot command and what it printed.
	name := "acp.log"
	if t.o.OneShot {
		name = "one-shot.log"
	} else if t.o.A2A {
		name = "a2a.log"
	} else if t.o.HTTP {
		name = "http.log"
	}
	f, err := os.Create(filepath.Join(t.o.Keep, name))
	if err != nil {
		return cfg, err
	}
	t.trans = f
	return cfg, nil
}

// startClock sets up the harness's clock where its profile says a moved clock reaches it.
func (t *Target) startClock() error {
	c, why, err := live.StartClock(t.o.Profile, t.o.Bin, t.home, time.Now())
	t.clock, t.clockNo = c, why
	if c != nil {
		t.env = append(t.env, c.Env()...)
	}
	return err
}

// Close ends the harness and the fake and removes the run's directory.
func (t *Target) Close() error {
	t.mu.Lock()
	a := t.agent
	t.agent = nil
	t.mu.Unlock()
	var errs []error
	if a != nil {
		errs = append(errs, a.stop())
	}
	if t.srv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		t.srv.Shutdown(sctx)
		cancel()
	}
	if t.rec != nil {
		t.rec.Close()
	}
	if c, ok := t.trans.(io.Closer); ok {
		c.Close()
	}
	if t.work != "" {
		os.RemoveAll(t.work)
	}
	return errors.Join(errs...)
}

// turn is the fake's Turn hook: the case being played answers, else (a request between cases)
// the harness is told done.
func (t *Target) turn(q *wire.Request, body []byte) (*script.Reply, error) {
	t.mu.Lock()
	p := t.playing
	t.mu.Unlock()
	if p == nil {
		return &script.Reply{Text: "done"}, nil
	}
	return p.serve(q, body), nil
}

func (t *Target) setPlaying(p *playing) {
	t.mu.Lock()
	t.playing = p
	t.mu.Unlock()
}

// Answer plays one case and reads its answer.
func (t *Target) Answer(ctx context.Context, c conformance.Case) runner.Outcome {
	t.mu.Lock()
	if t.streak >= crashesInRow {
		msg := fmt.Sprintf("not sent: the harness crashed on %d cases in a row (the last: %s)", t.streak, t.last)
		t.mu.Unlock()
		return runner.Outcome{Verdict: runner.Crashed, Message: msg}
	}
	t.seq++
	seq := t.seq
	t.mu.Unlock()
	pl, err := planCase(t.o.Profile, c)
	if err != nil {
		var s *skip
		if errors.As(err, &s) {
			return runner.Outcome{Verdict: runner.Skip, Message: s.why}
		}
		return runner.Outcome{Verdict: runner.Error, Message: err.Error()}
	}
	if pl.clock && t.clock == nil {
		return runner.Outcome{Verdict: runner.Skip,
			Message: "the case sets the date, and the harness's clock is " + t.clockNo}
	}
	out := t.play(ctx, pl, seq)
	t.mu.Lock()
	// A case skipped once played (its rule was not put to the harness) counts as not played.
	if k := kept(c.ID, c.Area, pl); k.Requests > 0 && out.Verdict != runner.Skip {
		t.kept = append(t.kept, k)
	}
	switch out.Verdict {
	case runner.Crashed:
		t.streak++
		t.last = out.Message
	case runner.Interrupted:
	default:
		t.streak = 0
	}
	t.mu.Unlock()
	return out
}

// play makes the case's directories, opens a session, plays the turns, reads the answer, and
// removes the directories.
func (t *Target) play(ctx context.Context, pl *plan, seq int) runner.Outcome {
	e := &env{t: t, seq: seq, cwd: pl.cwd, ids: map[string]string{},
		root: filepath.Join(t.work, fmt.Sprintf("case-%d", seq)), out: filepath.Join(t.work, fmt.Sprintf("out-%d",
			seq))}
	defer os.RemoveAll(e.root)
	defer os.RemoveAll(e.out)
	for _, d := range []string{e.root, e.out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return runner.Outcome{Verdict: runner.Error, Message: err.Error()}
		}
	}
	if err := writeFiles(e.root, pl.files); err != nil {
		return runner.Outcome{Verdict: runner.Error, Message: "making the case's files: " + err.Error()}
	}
	if err := writeLinks(e.root, pl.links); err != nil {
		return runner.Outcome{Verdict: runner.Error, Message: "making the case's links: " + err.Error()}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	up := t.o.After(t.o.Timeout)
	go func() {
		select {
		case <-up:
			cancel(context.DeadlineExceeded)
		case <-cctx.Done():
		}
	}()
	h, err := t.harness(cctx, pl, e)
	if err == nil {
		e.h = h
		err = t.turns(cctx, pl, e)
		if err == nil {
			t.release(cctx, e.h) // the case's last session (a workspace case opens several)
		}
	}
	if err != nil {
		return t.fault(ctx, cctx, err)
	}
	ans, err := pl.answer(e)
	var s *skip
	if errors.As(err, &s) { // what the harness did shows that the case's rule was not put to it
		return runner.Outcome{Verdict: runner.Skip, Message: s.why}
	}
	if err != nil {
		return runner.Outcome{Verdict: runner.Error, Message: err.Error()}
	}
	b, err := jsonx.Marshal(ans)
	if err != nil {
		return runner.Outcome{Verdict: runner.Error, Message: err.Error()}
	}
	return runner.Outcome{Answer: b}
}

// writeFiles writes a plan's files under root: a path ending in "/" is a directory.
func writeFiles(root string, files map[string]string) error {
	for p, content := range files {
		real := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(real, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(real, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeLinks makes a plan's links under root, an absolute target under root too.
func writeLinks(root string, links map[string]string) error {
	for l, target := range links {
		real := filepath.Join(root, filepath.FromSlash(l))
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return err
		}
		if strings.HasPrefix(target, "/") {
			target = root + target
		}
		if err := os.Symlink(filepath.FromSlash(target), real); err != nil {
			return err
		}
	}
	return nil
}

// turns plays each turn: what comes before it, then its prompt or compaction, while the fake
// serves its requests; a turn that ends before every request came is the harness's fault.
func (t *Target) turns(ctx context.Context, pl *plan, e *env) error {
	for i, tn := range pl.turns {
		for _, a := range tn.before {
			if err := a.do(ctx, e); err != nil {
				return fmt.Errorf("%s: %w", a.what, err)
			}
		}
		if tn.none != nil && tn.none() {
			continue
		}
		p := &playing{e: e, ctx: ctx, slots: tn.slots, compact: tn.compact}
		t.setPlaying(p)
		var err error
		if tn.compact {
			err = e.h.Compact(ctx)
			if tn.fails != nil {
				err = tn.fails(e, err)
			}
		} else {
			err = e.h.Prompt(ctx, tn.words)
		}
		t.setPlaying(nil)
		if err != nil {
			return err
		}
		if err := p.err(); err != nil {
			return err
		}
		if n := p.served(); n < len(tn.slots) {
			what := fmt.Sprintf("the prompt %q", tn.words)
			if tn.compact {
				what = "the compaction"
			}
			return &short{msg: fmt.Sprintf("turn %d (%s) ended after %d of the %d requests the case needs: the "+
				"harness stopped calling the model", i+1, what, n, len(tn.slots))}
		}
	}
	return nil
}

// short is a turn the harness ended before the case's requests came.
type short struct{ msg string }

func (s *short) Error() string { return s.msg }

// fault is the case's verdict for what went wrong; a harness that faulted is ended, and the next
// case starts another.
func (t *Target) fault(ctx, cctx context.Context, err error) runner.Outcome {
	var u *acp.Unsupported
	if errors.As(err, &u) {
		return runner.Outcome{Verdict: runner.Skip, Message: u.Error()}
	}
	stderr, ended := t.dropAgent()
	var f *acp.Fault
	switch {
	case ctx.Err() != nil:
		return runner.Outcome{Verdict: runner.Interrupted, Message: "run interrupted: " + ctx.Err().Error()}
	case errors.As(err, &f) && f.Kind == acp.Died:
		msg := "the harness died: " + f.Detail
		if ended != "" {
			msg += " (" + ended + ")"
		}
		return runner.Outcome{Verdict: runner.Crashed, Message: msg, Stderr: stderr}
	case errors.As(err, &f) && f.Kind == acp.Hung, cctx.Err() != nil:
		if errors.Is(err, context.Canceled) {
			err = context.Cause(cctx) // the case's time was up
		}
		return runner.Outcome{Verdict: runner.Timeout,
			Message: fmt.Sprintf("the case did not end within %s (%v): the harness was ended and is started again "+
				"for the next case", t.o.Timeout, err), Stderr: stderr}
	case errors.As(err, &f) && f.Kind == acp.Malformed:
		return runner.Outcome{Verdict: runner.ProtocolError, Message: f.Error(), Stderr: stderr}
	}
	return runner.Outcome{Verdict: runner.Error, Message: err.Error(), Stderr: stderr}
}

// dropAgent ends the harness process after a fault and returns the tail of its stderr, and how
// it ended when it had ended by itself ("" when it was still running).
func (t *Target) dropAgent() (stderr, ended string) {
	t.mu.Lock()
	a := t.agent
	t.agent = nil
	t.mu.Unlock()
	if a == nil {
		return "", ""
	}
	if a.exited() {
		// It died: what it said as it went is still coming in.
		<-a.P.Done()
		ended = a.P.State().String()
	}
	a.Kill()
	return a.stderr.String(), ended
}

// harness opens the case's session: over ACP on the harness process (started again when it
// is not running, or runs with another screen), or one-shot.
func (t *Target) harness(ctx context.Context, pl *plan, e *env) (harness, error) {
	cwd := e.root + pl.cwd
	if pl.cwd == "/" {
		cwd = e.root
	}
	if t.o.OneShot {
		return &oneshot{t: t, dir: cwd}, nil
	}
	if t.o.HTTP {
		return t.httpSession(ctx, filepath.Clean(cwd))
	}
	t.mu.Lock()
	a := t.agent
	t.mu.Unlock()
	srv := pl.serveIn(e.root)
	if a != nil && ((a.show != pl.show && !t.o.A2A) || a.exited() || a.serve != srv) {
		a.stop()
		a = nil
	}
	if a == nil {
		var err error
		if a, err = t.startAgent(ctx, pl.show, srv); err != nil {
			return nil, err
		}
		t.mu.Lock()
		t.agent = a
		t.mu.Unlock()
	}
	if t.o.A2A {
		return a.conversation(ctx, t, filepath.Clean(cwd), pl.show)
	}
	s, model, err := t.ag.NewSession(ctx, a.c, filepath.Clean(cwd))
	if err != nil {
		return nil, err
	}
	h := &acpHarness{c: a.c, s: s, p: t.o.Profile, lembas: a.info.Lembas, model: live.Model}
	if model != "" {
		h.model = model
	}
	return h, nil
}

// release frees the case's session: closed where the harness can close one; else the harness
// is ended, and the next case starts another (a harness may hold a process per session, as
// claude-agent-acp does).
func (t *Target) release(ctx context.Context, h harness) {
	if hh, ok := h.(*httpHarness); ok {
		hh.s.Close(ctx)
		return
	}
	ah, ok := h.(*acpHarness)
	if !ok {
		return
	}
	t.mu.Lock()
	a := t.agent
	t.mu.Unlock()
	if a == nil || a.c != ah.c {
		return
	}
	if a.info.CloseSession && a.c.CloseSession(ctx, ah.s.ID) == nil {
		return
	}
	t.mu.Lock()
	t.agent = nil
	t.mu.Unlock()
	a.stop()
}

// harness is a session as the person drives it.
type harness interface {
	Prompt(ctx context.Context, words string) error
	Compact(ctx context.Context) error
	SetMode(ctx context.Context, mode string) error
	SetModel(ctx context.Context, model string) error
	// Configure gives the person's settings (_lembas/configure: plan, memory, personality, mcp).
	Configure(ctx context.Context, settings map[string]any) error
	// Mode is the session's mode as the harness last said it ("" where it says none).
	Mode() string
}

type acpHarness struct {
	c      *acp.Client
	s      acp.Session
	p      *agents.Profile
	lembas bool   // the harness is a LLeMbas one: it has _lembas/configure
	model  string // the model the session is on, as far as the live target moved it
}

func (h *acpHarness) Prompt(ctx context.Context, words string) error {
	_, _, err := h.c.Prompt(ctx, h.s.ID, words)
	return err
}

func (h *acpHarness) Compact(ctx context.Context) error {
	_, err := h.c.Compact(ctx, h.s)
	var u *acp.Unsupported
	if cmd := h.p.ACP.Compact; cmd != "" && errors.As(err, &u) {
		_, _, err = h.c.Prompt(ctx, h.s.ID, cmd)
	}
	return err
}

func (h *acpHarness) SetMode(ctx context.Context, mode string) error {
	if h.c.Mode(h.s.ID) == mode {
		return nil
	}
	if len(h.s.Modes) > 0 && !slices.Contains(h.s.Modes, mode) {
		return &acp.Unsupported{What: "mode " + mode, Why: "the harness offers the modes " + strings.Join(h.s.Modes,
			", ")}
	}
	return h.c.SetMode(ctx, h.s, mode)
}

// SetModel moves the session to model: a LLeMbas harness (_lembas/configure) to the one the
// case names, any other to a model it offers that the fake serves and the session is not on.
func (h *acpHarness) SetModel(ctx context.Context, model string) error {
	if h.lembas || len(h.s.Models) == 0 {
		return h.c.SetModel(ctx, h.s, model)
	}
	for _, m := range h.s.Models {
		// A harness may name the fake's models after its provider: fake/fake-model-2.
		if name := m[strings.LastIndex(m, "/")+1:]; name != h.model && slices.Contains(models, name) {
			h.model = name
			return h.c.SetModel(ctx, h.s, m)
		}
	}
	return &acp.Unsupported{What: "a model change",
		Why: "the harness offers no other model the fake serves (it offers " + strings.Join(h.s.Models, ", ") + ")"}
}
func (h *acpHarness) Mode() string { return h.c.Mode(h.s.ID) }

func (h *acpHarness) Configure(ctx context.Context, settings map[string]any) error {
	return h.c.Configure(ctx, h.s, settings)
}

// oneshot is a harness run once per prompt, the first starting the session and each later one
// carrying it on with the profile's continue command.
type oneshot struct {
	t       *Target
	dir     string
	prompts int
}

func (o *oneshot) Prompt(ctx context.Context, words string) error {
	argv, ok := o.t.ag.Oneshot(words, o.prompts > 0)
	if !ok {
		return &acp.Unsupported{What: "a second prompt",
			Why: "the " + o.t.o.Profile.Name + " profile has no way to carry a session on one-shot"}
	}
	o.prompts++
	var stderr proc.Tail
	_, err := live.RunLogged(ctx, argv, live.Once{Env: o.t.env, Dir: o.dir, Stdout: io.Discard, Stderr: &stderr,
		Grace: 2 * time.Second}, o.t.trans)
	if f := new(acp.Fault); errors.As(err, &f) && f.Kind == acp.Died {
		f.Detail += "; its stderr ends:\n" + stderr.String()
	}
	return err
}

func (o *oneshot) Compact(context.Context) error {
	return &acp.Unsupported{What: "a compaction", Why: "one-shot, there is no way to make it between two prompts"}
}

func (o *oneshot) SetMode(context.Context, string) error {
	return &acp.Unsupported{What: "a mode change", Why: "one-shot, there is no way to make it between two prompts"}
}

func (o *oneshot) SetModel(context.Context, string) error {
	return &acp.Unsupported{What: "a model change", Why: "one-shot, there is no way to make it between two prompts"}
}

func (o *oneshot) Mode() string { return "" }

func (o *oneshot) Configure(context.Context, map[string]any) error {
	return &acp.Unsupported{What: "a change of the session's settings",
		Why: "one-shot, there is no _lembas/configure to send"}
}

// agentProc is the harness process serving ACP, reused from case to case.
type agentProc struct {
	*live.Stdio
	c      *acp.Client
	stderr *proc.Tail
	show   bool
	info   acp.Info
	url    string // an A2A server's
	serve  string // the serve's roots it was started with, a key (serveIn); "" for none
}

// startAgent starts the harness over ACP and greets it; srv, when set, is the serve's roots it is
// started with (serveIn: its directory, then WORKSPACE_ROOTS).
func (t *Target) startAgent(ctx context.Context, show bool, srv string) (*agentProc, error) {
	dir, env := t.serveEnv(srv)
	if t.o.A2A {
		return t.startServer(ctx, srv, dir, env)
	}
	argv, _ := t.ag.ACP()
	a := &agentProc{stderr: &proc.Tail{}, show: show, serve: srv}
	var err error
	if a.Stdio, err = live.StartStdio(argv, env, dir, a.stderr, 2*time.Second); err != nil {
		return nil, err
	}
	a.c = acp.New(a.In, a.Out, acp.Options{Dir: t.work, Lembas: true, Show: show, Timeout: t.o.Timeout,
		PromptTimeout: t.o.Timeout, After: t.o.After, Transcript: t.trans})
	if a.info, err = a.c.Initialize(ctx, t.o.Version); err != nil {
		a.Kill()
		return nil, fmt.Errorf("%v; its stderr ends:\n%s", err, a.stderr.String())
	}
	return a, nil
}

// serveEnv is where a harness is started and its environment: as a serve with workspace roots
// when srv says so (serveIn: its directory, PWD too so that a default root that is a link stays
// one, and WORKSPACE_ROOTS), else in the run's directory.
func (t *Target) serveEnv(srv string) (dir string, env []string) {
	if srv == "" {
		return t.work, t.env
	}
	first, roots, _ := strings.Cut(srv, "\n")
	return first, append(slices.Clone(t.env), "PWD="+first, "WORKSPACE_ROOTS="+roots)
}

func (a *agentProc) exited() bool {
	select {
	case <-a.P.Exited():
		return true
	default:
		return false
	}
}

// stop ends the harness (Stdio.End; on the real clock: a test's never fires, and a harness that
// does not exit when its input closes is stopped all the same); an error names what it left
// running.
func (a *agentProc) stop() error {
	end := func() (string, error) { return a.End(time.After, "the harness") }
	if a.url != "" { // an A2A server, stopped at once (live.Server.End)
		end = func() (string, error) { return (&live.Server{Stdio: a.Stdio}).End("the harness") }
	}
	if left, _ := end(); left != "" {
		return errors.New(left)
	}
	return nil
}

// skip is a case the live target cannot express on this harness, and why.
type skip struct{ why string }

func (s *skip) Error() string { return s.why }

func skipf(format string, args ...any) error { return &skip{why: fmt.Sprintf(format, args...)} }

// decoded is the case as its area decoded it — conformance's one decoder of each case format,
// checked (Case.Decode) — as the area's type C.
func decoded[C any](c conformance.Case) (C, error) {
	var cs C
	d, err := c.Decode()
	if err != nil {
		return cs, err
	}
	cs, ok := d.(C)
	if !ok {
		return cs, fmt.Errorf("a %s case decoded as %T, want %T", c.Area, d, cs)
	}
	return cs, nil
}

// str is an optional text of a case, "" when it is left out.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// planCase makes a case's plan, or says why it cannot be played.
func planCase(p *agents.Profile, c conformance.Case) (*plan, error) {
	var mk func(*agents.Profile, conformance.Case) (*plan, error)
	switch c.Area {
	case "context":
		mk = planContext
	case "fs_access":
		mk = planFS
	case "instructions":
		mk = planInstructions
	case "prefix":
		mk = planPrefix
	case "modules":
		mk = planModules
	case "jobs":
		mk = planJobs
	case "search":
		mk = planSearch
	case "workspace":
		mk = planWorkspace
	default:
		if why, ok := Unplayed[c.Area]; ok {
			return nil, &skip{why: why}
		}
		return nil, skipf("the live target does not play %s cases", c.Area)
	}
	pl, err := mk(p, c)
	var nc *noCall
	if errors.As(err, &nc) {
		return nil, &skip{why: nc.Error()}
	}
	return pl, err
}
