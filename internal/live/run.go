package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/internal/replay/cassette"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

// Options say what to drive and how.
type Options struct {
	Profile *agents.Profile
	// Bin is the agent's program (Profile.Find, or the command given).
	Bin string
	// ACP drives the agent over ACP, RPC over its own JSON lines (the profile's rpc command);
	// otherwise one prompt at a time (the profile's one-shot command, carrying the session on
	// with its continue command).
	ACP, RPC bool
	// A2A drives it as an A2A server (the profile's a2a command), over message/stream.
	A2A bool
	// HTTP drives it through its profile's http section (a server's own API).
	HTTP     bool
	Scenario *Scenario
	// Work is a directory the run may use (HOME, the session directory, the ACP transcript, the
	// recording unless Record says elsewhere); made and removed when empty, so give Record then.
	Work string
	// Record is the recording's path, Transcript the transcript's (default: in Work, which
	// goes when Work was made here).
	Record, Transcript string
	// StepTimeout bounds one prompt (default 5 min); every other call has a minute, or
	// StepTimeout when that is shorter.
	StepTimeout time.Duration
	// Lax (live --strict=false) has the fake check only what it reads, not answer a request the
	// API would refuse with its 400 error.
	Lax bool
	// Cassette, when set, is a folder of an earlier run's recordings: the scenario's agent is
	// answered from <Cassette>/<scenario>.jsonl (docs/recording.md, Cassettes), not by the policy.
	Cassette string
	// After is the clock the timeouts are kept by (nil: time.After): a test's fires on its cue,
	// so that no verdict depends on the machine's speed.
	After func(d time.Duration) <-chan time.Time
	// Log gets a line per step as it starts, for a person watching; nil: none.
	Log io.Writer
	// Tool is lembas-check's name and version, for the recording and initialize.
	Tool, Version string
	// Stream, when set, is shown each verdict as its scenario is judged (runner.Result.Stream:
	// a failure whole, with Verbose every verdict's line), before the next scenario runs.
	Stream  io.Writer
	Verbose bool
}

// Run is what happened: the steps as made, and the recording of what the agent sent.
type Run struct {
	Scenario *Scenario
	Profile  *agents.Profile
	// Driven is "acp", "rpc", "a2a" or "one-shot" (Options.Driven).
	Driven string
	// AgentName and AgentVersion are what the agent said of itself (ACP initialize), else the
	// profile's.
	AgentName, AgentVersion string
	Dir, Home               string
	Recording               string
	// Transcript is the transcript's path: ACP's or RPC's lines each way, or each one-shot
	// command and what it printed.
	Transcript string
	// Session is the one session the driver held: which requests it sent is the driver's to
	// know, not the judge's to guess from their bytes.
	Session Session
	Steps   []StepRun
	// Shown are the texts the agent's tool calls showed its client (ACP's session/update
	// tool_call content); only the ACP driver fills it, for the session it held.
	Shown []acp.Shown
	// Fault is what ended the scenario early: the agent died, hung, spoke garbage, reached
	// outside its directory, or exited non-zero; nil when it ran to its end.
	Fault error
	// Clock says whether the agent's clock was moved, and why not.
	Clock ClockInfo
	// Warnings are the fake's (a policy that found no tool to use).
	Warnings []string
	// Stderr is the tail of what the agent wrote on stderr.
	Stderr string
}

// StepRun is one step as made.
type StepRun struct {
	Step Step
	// First and Last are the seqs of the requests the agent sent during the step (Last < First:
	// none).
	First, Last int
	// Skipped says why the step could not be made (the agent offers no way to); Err what went
	// wrong making it.
	Skipped, Err string
	// At is the agent's clock when the step began.
	At time.Time
	// Said is what the agent answered a prompt with.
	Said string
}

// Session is a session as its driver knows it: what it is (the ACP session's id, the RPC
// process, the one-shot chain) and the seqs of the requests the fake got while it was open
// (First, Last; Last < First: to the end).
type Session struct {
	ID          string
	First, Last int
}

// NotRun is what kept a scenario from being run, or from being finished, that is no doing of the
// agent's: its program could not be started, a file the run needs could not be made. What the
// scenario would have checked is not checked (docs/live.md: exit 2), not failed.
type NotRun struct{ Err error }

func (e *NotRun) Error() string { return e.Err.Error() }

func (e *NotRun) Unwrap() error { return e.Err }

// ClockInfo says whether the clock reached the agent.
type ClockInfo struct {
	// Set: the scenario sets a clock; Controlled: the agent's clock was moved with it.
	Set, Controlled bool
	// Why it was not.
	Why string
}

// Driven is how the options drive the agent: "acp", "rpc" or "one-shot".
func (o Options) Driven() string {
	switch {
	case o.A2A:
		return "a2a"
	case o.HTTP:
		return "http"
	case o.ACP:
		return "acp"
	case o.RPC:
		return "rpc"
	}
	return "one-shot"
}

// Drive runs a scenario against an agent with the fake as its model. An error means the run
// could not be made at all (the server or the recording could not be started); what the agent
// did wrong is in the Run.
func Drive(ctx context.Context, o Options) (*Run, error) {
	sc, p := o.Scenario, o.Profile
	if o.StepTimeout == 0 {
		o.StepTimeout = 5 * time.Minute
	}
	if o.After == nil {
		o.After = time.After
	}
	work := o.Work
	if work == "" {
		var err error
		if work, err = os.MkdirTemp("", "lembas-live-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	r := &Run{Scenario: sc, Profile: p, Driven: o.Driven(), AgentName: p.Name, AgentVersion: p.Version,
		Recording: o.Record}
	var err error
	if r.Home, r.Dir, err = makeSession(work, ""); err != nil {
		return nil, err
	}
	srv, stop, err := r.startFake(o, work)
	if err != nil {
		return nil, err
	}
	defer stop()

	ag, err := Prepare(p, o.Bin, r.Home, r.Dir, srv.URL)
	if err != nil {
		return nil, err
	}
	var stderr proc.Tail
	if err := ag.Setup(ctx, &stderr); err != nil {
		r.Fault, r.Stderr = err, stderr.String()
		return r, nil
	}
	clock, err := r.startClock(p, o.Bin, ag, sc)
	if err != nil {
		return nil, err
	}
	now := func() time.Time {
		if clock != nil {
			return clock.Now()
		}
		return time.Now().UTC()
	}
	tf, err := openTranscript(o.Transcript, work, r)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	d := &driver{o: o, r: r, ag: ag, srv: srv, clock: clock, now: now, stderr: &stderr, tr: syncbuf.NewWriter(tf)}
	// The fake serves this one agent: every request it gets from here on is the session's, or
	// beside it (a title, a suggestion), which the judge tells by what it is. The agent has
	// ended when its driver returns, so Last is the session's last request.
	r.Session = Session{ID: sessionName(r.Driven), First: srv.Requests() + 1}
	d.drive(ctx)
	r.Session.Last = srv.Requests()
	r.Stderr = stderr.String()
	return r, nil
}

// startFake starts the fake the agent is pointed at, recording into the run's recording (made in
// work unless asked for), its policy the profile's; stop ends it and keeps its warnings.
func (r *Run) startFake(o Options, work string) (*fakeprovider.Server, func(), error) {
	sc, p := o.Scenario, o.Profile
	if r.Recording == "" {
		r.Recording = filepath.Join(work, sc.Name+".jsonl")
	}
	h := replay.Header{Tool: o.Tool, Source: "fake", Script: "live " + sc.Name + " (" + p.Name + ")"}
	var cas *cassette.Cassette
	if o.Cassette != "" {
		var err error
		if cas, err = cassette.Open(filepath.Join(o.Cassette, sc.Name+".jsonl"), nil); err != nil {
			return nil, nil, err
		}
		h.Source, h.Cassette, h.Script = "cassette", cas.File, ""
	}
	rec, err := replay.Create(r.Recording, h)
	if err != nil {
		return nil, nil, err
	}
	warn := &syncbuf.Buffer{}
	srv, err := fakeprovider.Start(fakeprovider.Config{Cassette: cas,
		Script: &script.Script{Name: "(the " + p.Name + " profile's policy)", Rules: []script.Rule{summaryRule()},
			Default: p.Policy(r.Dir)},
		Record: rec, Log: warn, Models: Served(sc, ModelOf(p)),
		// A request the API would refuse is a harness bug: seen here, not in production
		// (docs/fakeprovider.md, --strict).
		Strict: !o.Lax,
	})
	if err != nil {
		rec.Close()
		return nil, nil, err
	}
	return srv, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		rec.Close()
		r.Warnings = lines(warn)
	}, nil
}

// startClock starts the agent's moved clock when the scenario sets one (nil when it sets none or
// the agent's clock cannot be moved, the run saying why).
func (r *Run) startClock(p *agents.Profile, bin string, ag *Agent, sc *Scenario) (*Clock, error) {
	if sc.Clock == nil {
		return nil, nil
	}
	r.Clock.Set = true
	clock, why, err := StartClock(p, bin, r.Home, *sc.Clock)
	if err != nil {
		return nil, err
	}
	r.Clock.Controlled, r.Clock.Why = clock != nil, why
	if clock != nil {
		ag.Env = append(ag.Env, clock.Env()...)
	}
	return clock, nil
}

// sessionName is what the session is called for the way it is driven. The fake serves this one
// agent: every request it gets from the session's first on is the session's, or beside it (a
// title, a suggestion), which the judge tells by what it is.
func sessionName(driven string) string {
	if id, ok := map[string]string{"acp": "the ACP session", "rpc": "the RPC process", "a2a": "the A2A conversation",
		"http": "the HTTP session"}[driven]; ok {
		return id
	}
	return "the one-shot chain"
}

// drive plays the scenario the way the options say the agent is driven.
func (d *driver) drive(ctx context.Context) {
	switch o := d.o; {
	case o.HTTP:
		d.httpd(ctx)
	case o.A2A:
		d.a2a(ctx)
	case o.ACP:
		d.acp(ctx)
	case o.RPC:
		d.rpc(ctx)
	default:
		d.oneshot(ctx)
	}
}

type driver struct {
	o      Options
	r      *Run
	ag     *Agent
	srv    *fakeprovider.Server
	clock  *Clock
	now    func() time.Time
	stderr *proc.Tail
	// tr is the transcript: every line each way, "> " sent, "< " received.
	tr io.Writer
}

// openTranscript makes the run's transcript, at path or else in work as <driven>.log, and says
// where in r: every way of driving keeps one (ACP's lines, RPC's lines, each one-shot command and
// what it printed).
func openTranscript(path, work string, r *Run) (*os.File, error) {
	if path == "" {
		path = filepath.Join(work, r.Driven+".log")
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("the transcript: %v", err)
	}
	r.Transcript = path
	return f, nil
}

func (d *driver) logf(format string, args ...any) {
	if d.o.Log != nil {
		fmt.Fprintf(d.o.Log, format+"\n", args...)
	}
}

// each runs the steps in order, each with the requests it caused, until one faults.
func (d *driver) each(ctx context.Context, do func(StepRun) (StepRun, error)) {
	for i, s := range d.r.Scenario.Steps {
		d.logf("lembas-check live: %s, %s, step %d of %d: %s", d.r.Profile.Name, d.r.Scenario.Name, i+1,
			len(d.r.Scenario.Steps), s)
		sr := StepRun{Step: s, First: d.srv.Requests() + 1, At: d.now()}
		var err error
		switch {
		case s.SetClock != nil || s.MoveClock != 0:
			if d.clock != nil {
				if s.SetClock != nil {
					err = d.clock.Set(*s.SetClock)
				} else {
					err = d.clock.Move(s.MoveClock)
				}
				if err != nil {
					err = &NotRun{fmt.Errorf("moving the clock: %v", err)}
				}
			} else {
				sr.Skipped = "clock " + d.r.Clock.Why
				if !d.r.Clock.Set {
					sr.Skipped = "the scenario sets no clock"
				}
			}
		case s.Wait > 0:
			select {
			case <-time.After(s.Wait):
			case <-ctx.Done():
				err = ctx.Err()
			}
		default:
			sr, err = do(sr)
		}
		sr.Last = d.srv.Requests()
		if err != nil {
			var u *acp.Unsupported
			if errors.As(err, &u) {
				sr.Skipped = u.Why
				err = nil
			} else {
				sr.Err = err.Error()
			}
		}
		d.r.Steps = append(d.r.Steps, sr)
		if err != nil {
			d.r.Fault = err
			return
		}
	}
}

// startStdio starts an agent that speaks on its stdio for the whole scenario (ACP, RPC), in the
// session directory.
func (d *driver) startStdio(argv []string) (*Stdio, error) {
	a, err := StartStdio(argv, d.ag.Env, d.r.Dir, d.stderr, grace)
	if err != nil {
		return nil, &NotRun{err}
	}
	return a, nil
}

// endStdio ends what startStdio started (Stdio.End); a fault of an agent that died says how it
// ended.
func (d *driver) endStdio(a *Stdio) {
	left, end := a.End(d.o.After, "the agent")
	if f := new(acp.Fault); errors.As(d.r.Fault, &f) && f.Kind == acp.Died {
		d.r.Fault = fmt.Errorf("%w (%s)", d.r.Fault, exitText(end))
	}
	if left != "" {
		d.logf("lembas-check live: %s", left)
	}
}

// acp drives the agent over ACP, one process for the whole scenario.
func (d *driver) acp(ctx context.Context) {
	argv, ok := d.ag.ACP()
	if !ok {
		d.r.Fault = &NotRun{fmt.Errorf("the %s profile has no ACP command: drive it one-shot", d.r.Profile.Name)}
		return
	}
	a, err := d.startStdio(argv)
	if err != nil {
		d.r.Fault = err
		return
	}
	defer d.endStdio(a)
	c := acp.New(a.In, a.Out, acp.Options{Dir: d.r.Dir, Lembas: true, Timeout: min(time.Minute, d.o.StepTimeout),
		PromptTimeout: d.o.StepTimeout, After: d.o.After, Transcript: d.tr})
	info, err := c.Initialize(ctx, d.o.Version)
	if err != nil {
		d.r.Fault = err
		return
	}
	if info.Name != "" {
		d.r.AgentName, d.r.AgentVersion = info.Name, info.Version
	}
	s, _, err := d.ag.NewSession(ctx, c, d.r.Dir)
	if err != nil {
		d.r.Fault = err
		return
	}
	d.r.Session.ID = "ACP session " + s.ID
	d.each(ctx, func(sr StepRun) (StepRun, error) {
		var err error
		switch st := sr.Step; {
		case st.Prompt != "":
			_, sr.Said, err = c.Prompt(ctx, s.ID, st.Prompt)
		case st.Mode != "":
			if !contains(s.Modes, st.Mode) && len(s.Modes) > 0 {
				return sr, &acp.Unsupported{What: "mode " + st.Mode,
					Why: "the agent offers the modes " + strings.Join(s.Modes, ", ")}
			}
			err = c.SetMode(ctx, s, st.Mode)
		case st.Model != "":
			err = setModel(ctx, c, s, st.Model)
		case st.Compact:
			_, err = c.Compact(ctx, s)
			var u *acp.Unsupported
			if cmd := d.r.Profile.ACP.Compact; cmd != "" && errors.As(err, &u) {
				_, sr.Said, err = c.Prompt(ctx, s.ID, cmd)
			}
		}
		return sr, err
	})
	d.r.Shown = c.Shown(s.ID)
}

// oneshot drives the agent one prompt at a time: the first starts the session, each later one
// carries it on.
func (d *driver) oneshot(ctx context.Context) {
	prompts := 0
	d.each(ctx, func(sr StepRun) (StepRun, error) {
		st := sr.Step
		if st.Prompt == "" {
			return sr, &acp.Unsupported{What: st.String(),
				Why: "one-shot, there is no way to make it between two prompts (drive the agent with --acp)"}
		}
		argv, ok := d.ag.Oneshot(st.Prompt, prompts > 0)
		if !ok {
			return sr, &acp.Unsupported{What: "a second prompt",
				Why: "the " + d.r.Profile.Name + " profile has no way to carry a session on one-shot (drive it with " +
					"--acp)"}
		}
		prompts++
		var out bytes.Buffer
		left, err := RunLogged(ctx, argv, Once{Env: d.ag.Env, Dir: d.r.Dir, Stdout: &out, Stderr: d.stderr,
			Timeout: d.o.StepTimeout, After: d.o.After}, d.tr)
		if left != "" {
			d.logf("lembas-check live: %s", left)
		}
		sr.Said = strings.TrimSpace(out.String())
		return sr, err
	})
}

// setModel moves the session to model, by the id the agent offers for it where it offers models
// (opencode's fake/fake-model-2), else by the name (a LLeMbas agent's _lembas/configure).
func setModel(ctx context.Context, c *acp.Client, s acp.Session, model string) error {
	if len(s.Models) == 0 {
		return c.SetModel(ctx, s, model)
	}
	id, ok := OfferedModel(s.Models, model)
	if !ok {
		return &acp.Unsupported{What: "model " + model, Why: "the agent offers the models " + strings.Join(s.Models,
			", ")}
	}
	return c.SetModel(ctx, s, id)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lines are the non-empty lines of what the fake logged: a policy's warning that it found no tool
// to use.
func lines(log *syncbuf.Buffer) []string {
	var out []string
	for _, s := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// summaryRule answers a LLeMbas agent's compaction — its request for a summary, the spec's
// tasks.compact.ask as the person's latest words (context.md §7) — with a summary, as a model
// would: the profile's policy alone answers it with a read call, and a reply without a summary
// fails the compaction (so the compaction scenario never got past it).
func summaryRule() script.Rule {
	ask := regexp.MustCompile(`\A\s*` + regexp.QuoteMeta(strings.TrimSpace(spec.Text("tasks.compact.ask"))) + `\s*\z`)
	return script.Rule{UserMatches: ask, Reply: script.Reply{Text: fakeprovider.DefaultCompaction}}
}
