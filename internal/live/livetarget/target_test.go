package livetarget

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/internal/gherkin"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
	"github.com/LLeMbas/lembas-check/runner"
)

// The test binary is the harness too: with LIVETARGET_TEST_AGENT set it is the reference agent
// (refagent, its fault from LIVETARGET_TEST_BREAK), or a faulty one in front of it.
func TestMain(m *testing.M) {
	mode := os.Getenv("LIVETARGET_TEST_AGENT")
	if mode == "" {
		os.Exit(m.Run())
	}
	os.Exit(testAgent(mode))
}

func testAgent(mode string) int {
	o := refagent.Options{BaseURL: os.Getenv("OPENAI_BASE_URL"), Key: os.Getenv("OPENAI_API_KEY"), Model: os.Getenv("OPENAI_MODEL"), Version: "test"}
	if b := os.Getenv("LIVETARGET_TEST_BREAK"); b != "" {
		o.Break = strings.Split(b, ",")
	}
	if mode == "oneshot" {
		return oneshotAgent(o, os.Args[len(os.Args)-1])
	}
	if mode == "a2a" {
		return a2aAgent(o)
	}
	if mode == "dies" {
		fmt.Fprintln(os.Stderr, "the test agent dies at its start")
		return 3
	}
	if pids := os.Getenv("LIVETARGET_TEST_PIDS"); pids != "" {
		f, _ := os.OpenFile(pids, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "%d\n", os.Getpid())
		if os.Getenv("LIVETARGET_TEST_CHILD") != "" {
			// It leaves a child running, which must not outlive the run.
			child := exec.Command("sleep", "300")
			child.Start()
			fmt.Fprintf(f, "%d\n", child.Process.Pid)
		}
		f.Close()
	}
	in := io.Reader(os.Stdin)
	if mode != "reference" && mode != "noclose" {
		r, w := io.Pipe()
		go func() {
			sc := bufio.NewScanner(os.Stdin)
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				if mode == "plain" && strings.Contains(sc.Text(), `"method":"initialize"`) {
					// A plain ACP agent: the client's _meta.lembas is not heard, so it says none.
					w.Write(append(withoutMeta(sc.Bytes()), '\n'))
					continue
				}
				if strings.Contains(sc.Text(), `"method":"session/prompt"`) {
					switch mode {
					case "crash":
						fmt.Fprintln(os.Stderr, "the test agent crashes on a prompt")
						os.Exit(2)
					case "hang":
						if f := os.Getenv("LIVETARGET_TEST_STUCK"); f != "" {
							// Says it will never answer, for the test's clock (stuckClock).
							w, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
							fmt.Fprintln(w, os.Getpid())
							w.Close()
						}
						select {}
					case "garbage":
						fmt.Println("Starting the agent, version 1.2…")
						continue
					}
				}
				w.Write(append(sc.Bytes(), '\n'))
			}
			w.Close()
		}()
		in = r
	}
	out := io.Writer(os.Stdout)
	if mode == "noclose" {
		out = noClose{os.Stdout}
	}
	refagent.Serve(context.Background(), in, out, o)
	return 0
}

// withoutMeta is an initialize request without the client's _meta.
func withoutMeta(line []byte) []byte {
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		return line
	}
	if p, ok := m["params"].(map[string]any); ok {
		if cc, ok := p["clientCapabilities"].(map[string]any); ok {
			delete(cc, "_meta")
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// noClose is the agent's output without its saying it can close a session.
type noClose struct{ w io.Writer }

func (n noClose) Write(p []byte) (int, error) {
	n.w.Write([]byte(strings.Replace(string(p), `"sessionCapabilities":{"close":{}}`, `"sessionCapabilities":{}`, 1)))
	return len(p), nil
}

// oneshotAgent is a one-shot harness: the reference agent, driven through one prompt in the
// directory it was started in by an ACP client of its own, then gone.
func oneshotAgent(o refagent.Options, prompt string) int {
	toAgent, fromClient := io.Pipe()
	fromAgent, toClient := io.Pipe()
	go refagent.Serve(context.Background(), toAgent, toClient, o)
	dir, _ := os.Getwd()
	c := acp.New(fromClient, fromAgent, acp.Options{Dir: dir})
	ctx := context.Background()
	if _, err := c.Initialize(ctx, "test"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := c.NewSession(ctx)
	if err == nil {
		_, _, err = c.Prompt(ctx, s.ID, prompt)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// profile is the reference agent's profile with the test binary as its program.
func profile(t *testing.T, mode string, env ...string) *agents.Profile {
	t.Helper()
	p, err := agents.Builtin("lembas-check")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	q := *p
	q.Bin = exe
	q.ACP = &agents.Command{Args: []string{}}
	q.Env = map[string]string{"LIVETARGET_TEST_AGENT": mode, "OPENAI_MODEL": "{model}"}
	for i := 0; i+1 < len(env); i += 2 {
		q.Env[env[i]] = env[i+1]
	}
	return &q
}

// run runs items through a live target and returns the report, closed. Its timeouts are on
// after (nil: never up, go test's -timeout catches a hang), so that no verdict depends on the
// machine's speed.
func run(t *testing.T, p *agents.Profile, items []runner.Item, after func(time.Duration) <-chan time.Time) *runner.Report {
	t.Helper()
	rep, _ := runKept(t, p, items, after)
	return rep
}

// never is a clock on which no time is ever up.
func never(time.Duration) <-chan time.Time { return nil }

// stuckClock is a clock on which a time is up once a test harness more than there were when it
// was set has said, in the file stuck, that it hangs for good: what times out does not depend on
// the machine's speed.
func stuckClock(t *testing.T, stuck string) func(time.Duration) <-chan time.Time {
	count := func() int { b, _ := os.ReadFile(stuck); return len(strings.Fields(string(b))) }
	return func(time.Duration) <-chan time.Time {
		n := count()
		up := make(chan time.Time, 1)
		go func() {
			for count() <= n {
				select {
				case <-t.Context().Done():
					return
				case <-time.After(5 * time.Millisecond): // a poll of the file, not a bound
				}
			}
			up <- time.Time{}
		}()
		return up
	}
}

// runKept is run, with what the cases said of the universal rules.
func runKept(t *testing.T, p *agents.Profile, items []runner.Item, after func(time.Duration) <-chan time.Time) (*runner.Report, []Kept) {
	t.Helper()
	if after == nil {
		after = never
	}
	tg := New(Options{Profile: p, Bin: p.Bin, After: after, Version: "test"})
	ctx := context.Background()
	info, err := tg.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep := runner.Run(ctx, tg, info, items, runner.Options{Workers: 1})
	rep.Closed(tg.Close())
	if rep.CloseErr != "" {
		t.Errorf("closing: %s", rep.CloseErr)
	}
	return rep, tg.Kept()
}

func liveCases(t *testing.T) []conformance.Case {
	t.Helper()
	cases, err := runner.LoadCases(runner.SuiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []conformance.Case
	for _, c := range cases {
		if slices.Contains(Areas, c.Area) {
			out = append(out, c)
		}
	}
	return out
}

var (
	referenceReport *runner.Report
	referenceKept   []Kept
)

// referenceRun is every case of the live target's areas, on the reference agent (run once).
func referenceRun(t *testing.T) *runner.Report {
	t.Helper()
	if referenceReport == nil {
		referenceReport, referenceKept = runKept(t, profile(t, "reference"), runner.CaseItems(liveCases(t)), nil)
	}
	return referenceReport
}

// The reference agent passes every case the live target can express; each other case is
// skipped, with its reason; and every area has cases it expresses.
func TestReferenceAgentPasses(t *testing.T) {
	rep := referenceRun(t)
	passed := map[string]int{}
	for _, r := range rep.Results {
		switch r.Verdict {
		case runner.Pass:
			passed[r.Case.Area]++
		case runner.Skip:
			if r.Message == "" {
				t.Errorf("%s is skipped with no reason", r.Case.ID)
			}
		default:
			t.Errorf("%s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
		}
	}
	for _, a := range Areas {
		if passed[a] == 0 {
			t.Errorf("no %s case passed: the live target expresses none", a)
		}
	}
}

// The reference agent keeps the universal rules in every case it plays; an agent that puts the
// date in its system prompt breaks the prompt's rule exactly where the date changes.
func TestUniversalRules(t *testing.T) {
	rep := referenceRun(t)
	played := 0
	for _, r := range rep.Results {
		if r.Verdict == runner.Pass {
			played++
		}
	}
	if len(referenceKept) != played {
		t.Errorf("%d cases said what they kept, %d were played", len(referenceKept), played)
	}
	var dated []runner.Item
	for _, k := range referenceKept {
		if len(k.Broke) > 0 {
			t.Errorf("%s: the reference agent broke %v", k.ID, k.Broke)
		}
	}
	for _, r := range rep.Results {
		if r.Verdict == runner.Pass && r.Case.Area == "prefix" {
			dated = append(dated, runner.Item{Case: r.Case})
		}
	}
	_, kept := runKept(t, profile(t, "reference", "LIVETARGET_TEST_BREAK", refagent.BreakDateInSystem), dated, nil)
	broke := 0
	for _, k := range kept {
		if msg := k.Broke[RulePrompt]; msg != "" {
			broke++
			if !strings.Contains(msg, "system prompt changed") {
				t.Errorf("%s: %q", k.ID, msg)
			}
		}
		if k.Broke[RuleTools] != "" || k.Broke[RuleRewritten] != "" {
			t.Errorf("%s: a date in the system prompt broke %v", k.ID, k.Broke)
		}
	}
	if broke == 0 {
		t.Error("a date in the system prompt broke the prompt's rule in no case")
	}
}

// The Gherkin scenarios go through the live target the same way.
func TestReferenceAgentPassesTheScenarios(t *testing.T) {
	scs, err := gherkin.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var items []runner.Item
	for _, it := range gherkin.Items(scs) {
		if slices.Contains(Areas, it.Case.Area) {
			items = append(items, it)
		}
	}
	rep := run(t, profile(t, "reference"), items, nil)
	n := 0
	for _, r := range rep.Results {
		switch r.Verdict {
		case runner.Pass:
			n++
		case runner.Skip:
		default:
			t.Errorf("%s: %s: %s%s", r.Case.ID, r.Verdict, r.Message, r.Diff)
		}
	}
	if n == 0 {
		t.Error("no scenario passed")
	}
}

// A reference agent broken on purpose fails exactly the expressible cases whose rule its fault
// breaks — each known from the case itself — with a diff that shows it, and passes the rest.
func TestBrokenAgentFailsTheCasesItsRuleGuards(t *testing.T) {
	ref := referenceRun(t)
	expressed := map[string]bool{}
	var items []runner.Item
	for _, r := range ref.Results {
		if r.Verdict == runner.Pass {
			expressed[r.Case.ID] = true
			items = append(items, runner.Item{Case: r.Case})
		}
	}
	stubbed := func(c conformance.Case) bool {
		var want []string
		json.Unmarshal(c.Expect, &want)
		for _, s := range want {
			if strings.Contains(s, "Unchanged since #") || strings.Contains(s, "Same result as #") {
				return true
			}
		}
		return false
	}
	// dateSeen: a date changed is met by a request before the prompt is made again (a move to
	// another model or a compaction makes it anew, with the new date in it when broken).
	dateSeen := func(c conformance.Case) bool {
		var cs struct {
			Start struct {
				Date json.RawMessage `json:"date"`
			} `json:"start"`
			Steps []map[string]json.RawMessage `json:"steps"`
		}
		json.Unmarshal(c.Input, &cs)
		pending, date := false, string(cs.Start.Date)
		for _, s := range cs.Steps {
			switch op := string(s["op"]); {
			case op == `"set"`:
				// A date set to the day it already is changes nothing.
				if d, ok := s["date"]; ok && string(d) != date {
					pending, date = true, string(d)
				}
			case op == `"model"` || op == `"compact"`:
				pending = false
			case pending:
				return true
			}
		}
		return false
	}
	noted := func(c conformance.Case) bool {
		var want []struct {
			Note *string `json:"note"`
		}
		json.Unmarshal(c.Expect, &want)
		for _, w := range want {
			if w.Note != nil {
				return true
			}
		}
		return false
	}
	// escapes: a read or a write the case expects refused as an escape.
	escapes := func(c conformance.Case) bool {
		var cs struct {
			Steps []struct {
				Op string `json:"op"`
			} `json:"steps"`
		}
		var want []struct {
			Error string `json:"error"`
		}
		json.Unmarshal(c.Input, &cs)
		json.Unmarshal(c.Expect, &want)
		for i, w := range want {
			if w.Error == "escape" && i < len(cs.Steps) && (cs.Steps[i].Op == "read" || cs.Steps[i].Op == "write") {
				return true
			}
		}
		return false
	}
	// climbs: a read or a write whose path climbs above / and that the case expects answered
	// otherwise than as an escape.
	climbs := func(c conformance.Case) bool {
		var cs wsCase
		var want []struct {
			Error string `json:"error"`
		}
		json.Unmarshal(c.Input, &cs)
		json.Unmarshal(c.Expect, &want)
		for i, st := range cs.Steps {
			if st.Path == nil || (st.Op != "read" && st.Op != "write") || i >= len(want) || want[i].Error == "escape" {
				continue
			}
			for _, r := range append([]string{cs.Default}, cs.Roots...) {
				if fsaccess.AboveRoot(r, *st.Path) {
					return true
				}
			}
		}
		return false
	}
	for _, tc := range []struct {
		fault  string
		guards func(conformance.Case) bool
		shows  string // a regular expression
	}{
		{refagent.BreakNoStub, func(c conformance.Case) bool { return c.Area == "context" && stubbed(c) },
			"Unchanged since|Same result as"},
		{refagent.BreakDateInSystem, func(c conformance.Case) bool { return c.Area == "prefix" && dateSeen(c) }, `"system"`},
		{refagent.BreakNoteFirst, func(c conformance.Case) bool { return c.Area == "prefix" && noted(c) }, "session-note"},
		{refagent.BreakNoContainment, func(c conformance.Case) bool { return c.Area == "workspace" && escapes(c) }, "escape"},
		{refagent.BreakAboveRoot, func(c conformance.Case) bool { return c.Area == "workspace" && climbs(c) }, "escape"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			rep := run(t, profile(t, "reference", "LIVETARGET_TEST_BREAK", tc.fault), items, nil)
			fails := 0
			for _, r := range rep.Results {
				want := runner.Pass
				if tc.guards(r.Case) {
					want = runner.Fail
				}
				if r.Verdict != want {
					t.Errorf("%s: %s, want %s (%s)", r.Case.ID, r.Verdict, want, r.Message)
					continue
				}
				if r.Verdict == runner.Fail {
					fails++
					if !diffLine.MatchString(r.Diff) || !regexp.MustCompile(tc.shows).MatchString(r.Diff) {
						t.Errorf("%s: the diff does not show the fault:\n%s", r.Case.ID, r.Diff)
					}
				}
			}
			if fails == 0 {
				t.Errorf("no case failed: the live target does not catch %s", tc.fault)
			}
		})
	}
}

// diffLine is a line of go-cmp's report that says what differs (go-cmp puts a no-break space
// after the mark at random, so that its output is not parsed as stable).
var diffLine = regexp.MustCompile(`(?m)^\s*[-+][\s\x{00a0}]`)

// expressible are a few cases the live target plays, for the fault tests.
func expressible(t *testing.T, n int) []runner.Item {
	t.Helper()
	var items []runner.Item
	for _, r := range referenceRun(t).Results {
		if r.Verdict == runner.Pass && r.Case.Area == "context" && len(items) < n {
			items = append(items, runner.Item{Case: r.Case})
		}
	}
	return items
}

// One-shot, a case is one run of the harness per prompt: the cases of one prompt pass as over
// ACP, and a second prompt, which this harness cannot carry on, is skipped with the reason.
// usesConfigure: the case's plan gives the harness something by _lembas/configure, which a
// harness run one-shot has no way to take.
func usesConfigure(t *testing.T, c conformance.Case) bool {
	t.Helper()
	pl, err := planCase(profile(t, "reference"), c)
	var sk *skip
	if errors.As(err, &sk) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range pl.turns {
		for _, a := range tn.before {
			if strings.Contains(a.what, "_lembas/configure") {
				return true
			}
		}
		for _, s := range tn.slots {
			for _, a := range s.before {
				if strings.Contains(a.what, "_lembas/configure") {
					return true
				}
			}
		}
	}
	return false
}

func TestOneShot(t *testing.T) {
	var items []runner.Item
	want := map[string]runner.Verdict{}
	per := map[string]int{}
	for _, r := range referenceRun(t).Results {
		if r.Verdict != runner.Pass || per[r.Case.Area] >= 4 {
			continue
		}
		per[r.Case.Area]++
		items = append(items, runner.Item{Case: r.Case})
		want[r.Case.ID] = runner.Pass
		var cs struct {
			Steps []struct {
				Op string `json:"op"`
			} `json:"steps"`
		}
		json.Unmarshal(r.Case.Input, &cs)
		users := 0
		for _, st := range cs.Steps {
			if st.Op == "user" || st.Op == "compact" {
				users++
			}
		}
		// A workspace case's sessions are session/new's: one-shot has none.
		if r.Case.Area == "prefix" && users > 1 || r.Case.Area == "context" && users > 0 || usesConfigure(t, r.Case) ||
			r.Case.Area == "workspace" {
			want[r.Case.ID] = runner.Skip
		}
	}
	p := profile(t, "oneshot")
	p.ACP, p.Oneshot = nil, &agents.Command{Args: []string{"{prompt}"}}
	rep := run(t, p, items, nil)
	if rep.Target.Command == "" || !strings.HasSuffix(rep.Target.Command, "(one-shot)") {
		t.Errorf("the target says it runs %q", rep.Target.Command)
	}
	got := map[runner.Verdict]int{}
	for _, r := range rep.Results {
		got[r.Verdict]++
		if r.Verdict != want[r.Case.ID] {
			t.Errorf("%s: %s, want %s (%s%s)", r.Case.ID, r.Verdict, want[r.Case.ID], r.Message, r.Diff)
		}
	}
	if got[runner.Pass] == 0 || got[runner.Skip] == 0 || len(per) != len(Areas) {
		t.Errorf("the test plays no case of some kind: %v over %v", got, per)
	}
}

// A harness serves case after case, each session closed after its case; one that cannot close
// a session is ended after each case instead, so that nothing a session holds piles up.
func TestSessionsClosed(t *testing.T) {
	items := expressible(t, 3)
	for _, tc := range []struct {
		mode  string
		procs int
	}{{"reference", 1}, {"noclose", len(items)}} {
		pids := filepath.Join(t.TempDir(), "pids")
		rep := run(t, profile(t, tc.mode, "LIVETARGET_TEST_PIDS", pids), items, nil)
		for _, r := range rep.Results {
			if r.Verdict != runner.Pass {
				t.Errorf("%s: %s: %s %s", tc.mode, r.Case.ID, r.Verdict, r.Message)
			}
		}
		b, _ := os.ReadFile(pids)
		if n := len(strings.Fields(string(b))); n != tc.procs {
			t.Errorf("%s: %d harness processes for %d cases, want %d", tc.mode, n, len(items), tc.procs)
		}
	}
}

// A harness that crashes on every prompt: each case is crashed, with what it said on stderr,
// and it is started again; after three crashes in a row no case is sent.
func TestCrashingHarness(t *testing.T) {
	rep := run(t, profile(t, "crash"), expressible(t, 5), nil)
	for i, r := range rep.Results {
		if r.Verdict != runner.Crashed {
			t.Errorf("case %d: %s, want crashed (%s)", i+1, r.Verdict, r.Message)
		}
		switch {
		case i < crashesInRow && (!strings.Contains(r.Message, "died") || !strings.Contains(r.Stderr, "crashes on a prompt")):
			t.Errorf("case %d: message %q, stderr %q", i+1, r.Message, r.Stderr)
		case i >= crashesInRow && !strings.Contains(r.Message, "not sent"):
			t.Errorf("case %d was sent after %d crashes in a row: %s", i+1, crashesInRow, r.Message)
		}
	}
}

// A harness that hangs on a prompt, and leaves a child running: the case times out, the
// harness is ended with what it started, and the next case has a new one; after the run
// nothing it started is left.
func TestHangingHarness(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	stuck := filepath.Join(t.TempDir(), "stuck")
	rep := run(t, profile(t, "hang", "LIVETARGET_TEST_PIDS", pids, "LIVETARGET_TEST_CHILD", "1", "LIVETARGET_TEST_STUCK", stuck), expressible(t, 2), stuckClock(t, stuck))
	for i, r := range rep.Results {
		if r.Verdict != runner.Timeout || !strings.HasPrefix(r.Message, "the case did not end within 2m0s (") {
			t.Errorf("case %d: %s, want timeout (%s)", i+1, r.Verdict, r.Message)
		}
	}
	b, _ := os.ReadFile(pids)
	lines := strings.Fields(string(b))
	// The start's harness serves the first case; each timeout ends the one it hit, and the next
	// case starts another.
	if len(lines) != 2*len(rep.Results) {
		t.Errorf("%d harness processes started, want %d", len(lines)/2, len(rep.Results))
	}
	for _, l := range lines {
		pid, _ := strconv.Atoi(l)
		if alive(pid) {
			t.Errorf("process %d outlived the run", pid)
		}
	}
}

// alive says whether a process runs (a zombie does not), on Linux, where /proc tells (this file
// builds on every OS: no syscall.Kill).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) == 0 || f[0] != "Z"
}

// A harness that prints what is not JSON-RPC: a protocol error naming the line.
func TestGarbageHarness(t *testing.T) {
	rep := run(t, profile(t, "garbage"), expressible(t, 1), nil)
	if r := rep.Results[0]; r.Verdict != runner.ProtocolError || !strings.Contains(r.Message, "Starting the agent") {
		t.Errorf("%s: %s", r.Verdict, r.Message)
	}
}

// A harness that dies before it can say who it is: the run cannot be made, and the error says
// what it printed.
func TestHarnessThatDiesAtStart(t *testing.T) {
	p := profile(t, "dies")
	tg := New(Options{Profile: p, Bin: p.Bin, After: never, Version: "test"})
	_, err := tg.Start(context.Background())
	tg.Close()
	if err == nil || !strings.Contains(err.Error(), "dies at its start") {
		t.Errorf("Start: %v", err)
	}
}

// run --live's settings name the target: a profile that is not there is an error, a command
// with a profile is a target.
func TestSettingsTarget(t *testing.T) {
	if _, err := (Settings{Agent: "/nonexistent/profile.json"}).Target(0, "v"); err == nil {
		t.Error("a missing profile file: no error")
	}
	tg, err := Settings{Agent: "sh -c true", Profile: "lembas-check", Keep: t.TempDir()}.Target(0, "v")
	if err != nil || tg == nil {
		t.Fatalf("%v, %v", tg, err)
	}
	tg.Close()
}

// A case's MCP servers are served by the fake and the harness reads their instructions over
// MCP (initialize), not from the configure request: the case passes, and the fake saw each
// server's initialize.
func TestMCPServedByTheFake(t *testing.T) {
	var items []conformance.Case
	for _, c := range liveCases(t) {
		if c.Area == "prefix" && strings.Contains(string(c.Input), `"mcp":{"docs"`) {
			items = append(items, c)
		}
	}
	if len(items) == 0 {
		t.Fatal("no prefix case with an MCP server")
	}
	p := profile(t, "reference")
	keep := t.TempDir()
	tg := New(Options{Profile: p, Bin: p.Bin, After: never, Version: "test", Keep: keep})
	ctx := context.Background()
	info, err := tg.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep := runner.Run(ctx, tg, info, runner.CaseItems(items), runner.Options{Workers: 1})
	rep.Closed(tg.Close())
	played := 0
	for _, r := range rep.Results {
		switch r.Verdict {
		case runner.Pass:
			played++
		case runner.Skip:
		default:
			t.Errorf("%s: %s: %s", r.Case.ID, r.Verdict, r.Message)
		}
	}
	b, err := os.ReadFile(filepath.Join(keep, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if played == 0 || !strings.Contains(string(b), `"path":"/mcp/c`) || !strings.Contains(string(b), `"method":"initialize"`) {
		t.Errorf("%d cases passed; the fake saw no MCP initialize:\n%.2000s", played, b)
	}
	if acpLog, _ := os.ReadFile(filepath.Join(keep, "acp.log")); strings.Contains(string(acpLog), `"mcp":{`) {
		t.Error("the instructions went in the configure request, not over MCP")
	}
}
