package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/cmdline"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	supervisor "github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// The adapter protocol, version 1 (docs/protocol.md): a long-lived subprocess answering one JSON
// line per request line on its stdin/stdout.
const (
	// Protocol is the protocol version this runner speaks.
	Protocol = 1
	// DefaultTimeout bounds the hello answer and each case's answer.
	DefaultTimeout = 10 * time.Second
	// MaxAnswerLine is the longest answer line read; a longer one is a protocol error.
	MaxAnswerLine = 16 << 20
	// DefaultGrace is how long a process has to exit after bye, or after closing its stdout.
	DefaultGrace = time.Second

	stderrKept   = 64 << 10
	crashesInRow = 3
)

// AdapterOptions tune an adapter target.
type AdapterOptions struct {
	// Jobs is how many adapter processes serve the run; each case goes to exactly one. Default 1.
	Jobs int
	// Timeout bounds the hello answer and each case's answer. Default DefaultTimeout.
	Timeout time.Duration
	// Grace is how long a process is given to exit on its own (after bye, or after it closed its
	// stdout) before it is killed. Default DefaultGrace.
	Grace time.Duration

	// timer runs f when the time d that process pid has for what ("answer": Timeout, "exit":
	// Grace) is up, unless stopped first. nil is time.AfterFunc; the tests give one that fires when
	// the fake adapter says what will never come, so that what times out does not depend on the
	// machine's speed.
	timer func(pid int, what string, d time.Duration, f func()) (stop func() bool)
}

// Adapter is an implementation run as a pool of long-lived adapter processes speaking the
// protocol. A fault in one case (timeout, crash, protocol error) is that case's verdict and the
// process is replaced; only a hello that fails at the start stops the run.
type Adapter struct {
	command string
	argv    []string
	opts    AdapterOptions

	slots chan *slot
	all   []*slot

	mu       sync.Mutex
	streak   map[string]int    // crashes in a row, by area
	last     map[string]string // the last crash's message, by area
	closed   bool
	closeErr error
}

// slot is one place in the pool; p is nil while no process runs there (after a fault: the next
// case on this slot starts one).
type slot struct{ p *proc }

// NewAdapter makes an adapter target from a command line, split by cmdline.Split (as a shell
// splits words, $VAR expanded from lembas-check's environment) but never run by a shell.
func NewAdapter(command string, o AdapterOptions) (*Adapter, error) {
	argv, err := cmdline.Split(command)
	if err != nil {
		return nil, fmt.Errorf("adapter %v", err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("adapter command is empty: give the program to start, e.g. 'python3 test/adapter.py'")
	}
	if o.Jobs < 1 {
		o.Jobs = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.timer == nil {
		o.timer = func(_ int, _ string, d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	return &Adapter{command: command, argv: argv, opts: o, streak: map[string]int{}, last: map[string]string{}}, nil
}

// HelloError is an adapter that did not say hello as the protocol asks: the run cannot be made.
type HelloError struct {
	Command string
	Msg     string
	Stderr  string
}

func (e *HelloError) Error() string {
	s := fmt.Sprintf("adapter %q: %s", e.Command, e.Msg)
	if e.Stderr != "" {
		s += "\nits stderr ends:\n" + table.Indent(e.Stderr, "    ")
	}
	return strings.TrimRight(s, "\n")
}

// Start starts the pool: Jobs processes at once, each greeted with hello. Any that fails to answer
// hello stops the run (a *HelloError) and the others are ended.
func (a *Adapter) Start(ctx context.Context) (TargetInfo, error) {
	n := a.opts.Jobs
	procs := make([]*proc, n)
	hellos := make([]helloAnswer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { procs[i], hellos[i], errs[i] = a.launch(ctx) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, p := range procs {
			if p != nil {
				p.kill()
			}
		}
		// One message is enough when every process failed the same way.
		return TargetInfo{}, firstErr(errs)
	}
	a.slots = make(chan *slot, n)
	for _, p := range procs {
		s := &slot{p: p}
		a.all = append(a.all, s)
		a.slots <- s
	}
	h := hellos[0]
	return TargetInfo{Kind: "adapter", Command: a.command, Implementation: h.Implementation, Areas: h.Areas}, nil
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Answer sends one case to one free process of the pool and turns what comes back into an Outcome.
func (a *Adapter) Answer(ctx context.Context, c conformance.Case) Outcome {
	if a.slots == nil {
		return Outcome{Verdict: Error, Message: "the adapter target was not started (call Start first)"}
	}
	if out, ok := a.unsent(c.Area); ok {
		return out
	}
	var s *slot
	select {
	case s = <-a.slots:
	case <-ctx.Done():
		return interrupted(ctx)
	}
	out := a.answerOn(ctx, s, c)
	a.slots <- s
	a.tally(c.Area, out)
	return out
}

func interrupted(ctx context.Context) Outcome {
	return Outcome{Verdict: Interrupted, Message: "run interrupted: " + ctx.Err().Error()}
}

// unsent says whether the area's cases are no longer sent, after crashesInRow crashes in a row.
func (a *Adapter) unsent(area string) (Outcome, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.streak[area] < crashesInRow {
		return Outcome{}, false
	}
	return Outcome{Verdict: Crashed,
		Message: fmt.Sprintf("not sent: the adapter crashed on %d cases of %s in a row (the last: %s)", a.streak[area],
			area, a.last[area])}, true
}

func (a *Adapter) tally(area string, out Outcome) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if out.Verdict == Crashed {
		a.streak[area]++
		a.last[area] = out.Message
		return
	}
	if out.Verdict != Interrupted {
		a.streak[area] = 0
	}
}

func (a *Adapter) answerOn(ctx context.Context, s *slot, c conformance.Case) Outcome {
	if ctx.Err() != nil {
		return interrupted(ctx)
	}
	if s.p == nil {
		p, _, err := a.launch(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx)
			}
			var he *HelloError
			if errors.As(err, &he) {
				return Outcome{Verdict: Crashed, Message: "restarted after a fault, the adapter " + he.Msg,
					Stderr: he.Stderr}
			}
			return Outcome{Verdict: Crashed, Message: err.Error()}
		}
		s.p = p
	}
	p := s.p
	p.seq++
	req, err := json.Marshal(runRequest{Cmd: "run", Seq: p.seq, Area: c.Area, Case: c.Input})
	if err != nil {
		return Outcome{Verdict: Error, Message: "the case cannot be sent: " + err.Error()}
	}
	line, err := p.exchange(ctx, append(req, '\n'), a.opts.Timeout)
	if err != nil {
		s.p = nil
		return a.fault(ctx, p, line, err)
	}
	out, perr := parseAnswer(line, p.seq)
	if perr != nil {
		s.p = nil
		p.kill()
		return Outcome{Verdict: ProtocolError, Message: perr.Error() + ": " + format.Quote(line),
			Stderr: p.stderr.String()}
	}
	return out
}

// fault ends a process that failed a case and says what became of the case.
func (a *Adapter) fault(ctx context.Context, p *proc, partial []byte, err error) Outcome {
	var long *jsonx.LineTooLong
	switch {
	case ctx.Err() != nil:
		p.kill()
		return interrupted(ctx)
	case errors.Is(err, errTimeout):
		p.kill()
		return Outcome{Verdict: Timeout,
			Message: fmt.Sprintf("no answer within %s: the adapter was ended and is restarted for the next case",
				a.opts.Timeout), Stderr: p.stderr.String()}
	case errors.As(err, &long):
		p.kill()
		return Outcome{Verdict: ProtocolError, Message: fmt.Sprintf("an answer line over %d MiB (%s…)",
			MaxAnswerLine>>20, format.Quote(long.Head)), Stderr: p.stderr.String()}
	default:
		how := p.end(a.opts.Grace)
		msg := "the adapter " + how
		if len(partial) > 0 {
			msg += ", in the middle of a line: " + format.Quote(partial)
		}
		return Outcome{Verdict: Crashed, Message: msg, Stderr: p.stderr.String()}
	}
}

// Close says bye to every process, gives each Grace to exit, and kills what is left. The error
// names a process that did not exit cleanly after bye: the run stands, but the adapter has a bug.
// Run closes its target; a later Close returns the first one's error, for the caller to show.
func (a *Adapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return a.closeErr
	}
	a.closed = true
	errs := make([]error, len(a.all))
	var wg sync.WaitGroup
	for i, s := range a.all {
		if s.p != nil {
			wg.Go(func() { errs[i] = s.p.bye(a.opts.Grace) })
		}
	}
	wg.Wait()
	a.closeErr = errors.Join(errs...)
	return a.closeErr
}

// launch starts one process and greets it.
func (a *Adapter) launch(ctx context.Context) (*proc, helloAnswer, error) {
	p, err := startProc(a.argv, a.opts.Grace, a.opts.timer)
	if err != nil {
		return nil, helloAnswer{}, &HelloError{Command: a.command, Msg: fmt.Sprintf("cannot be started: %v", err)}
	}
	hello := []byte(fmt.Sprintf(`{"cmd":"hello","protocol":%d,"harness_spec":%q}`+"\n", Protocol, specVersion()))
	line, err := p.exchange(ctx, hello, a.opts.Timeout)
	if err != nil {
		fail := func(msg string) (*proc, helloAnswer, error) {
			return nil, helloAnswer{}, &HelloError{Command: a.command, Msg: msg, Stderr: p.stderr.String()}
		}
		var long *jsonx.LineTooLong
		switch {
		case ctx.Err() != nil:
			p.kill()
			return nil, helloAnswer{}, ctx.Err()
		case errors.Is(err, errTimeout):
			p.kill()
			return fail(fmt.Sprintf("did not answer hello within %s. Update the adapter: it must answer the first "+
				"line it reads, and flush stdout after each line", a.opts.Timeout))
		case errors.As(err, &long):
			p.kill()
			return fail(fmt.Sprintf("answered hello with a line over %d MiB. Update the adapter", MaxAnswerLine>>20))
		default:
			how := p.end(a.opts.Grace)
			return fail(how + " before answering hello. Check the command starts the adapter, and that the adapter " +
				"reads JSON lines on stdin (docs/protocol.md)")
		}
	}
	h, err := parseHello(line)
	if err != nil {
		p.kill()
		return nil, helloAnswer{}, &HelloError{Command: a.command, Msg: err.Error(), Stderr: p.stderr.String()}
	}
	return p, h, nil
}

type runRequest struct {
	Cmd  string          `json:"cmd"`
	Seq  int64           `json:"seq"`
	Area string          `json:"area"`
	Case json.RawMessage `json:"case"`
}

type helloAnswer struct {
	Implementation Implementation
	Areas          []string
}

// parseHello checks a hello answer. Its error says what is wrong and which side to update.
func parseHello(line []byte) (helloAnswer, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil || m == nil {
		return helloAnswer{}, fmt.Errorf("answered hello with a line that is not a JSON object: %s. Update the "+
			"adapter: everything it prints on stdout must be protocol lines (logs go to stderr)", format.Quote(line))
	}
	var proto int
	raw, ok := m["protocol"]
	if !ok || json.Unmarshal(raw, &proto) != nil {
		return helloAnswer{}, fmt.Errorf("answered hello without a protocol number: %s. Update the adapter to "+
			"protocol %d (docs/protocol.md)", format.Quote(line), Protocol)
	}
	var refusal string
	if raw, ok := m["error"]; ok {
		_ = json.Unmarshal(raw, &refusal)
		if refusal == "" {
			refusal = string(raw)
		}
	}
	switch {
	case proto > Protocol:
		return helloAnswer{}, fmt.Errorf("speaks protocol %d, this lembas-check speaks %d. Update lembas-check (go "+
			"install ./cmd/lembas-check in its clone, git pull first)%s", proto, Protocol, said(refusal))
	case proto < Protocol:
		return helloAnswer{}, fmt.Errorf("speaks protocol %d, this lembas-check speaks %d. Update the adapter to "+
			"protocol %d (docs/protocol.md)%s", proto, Protocol, Protocol, said(refusal))
	case refusal != "":
		return helloAnswer{}, fmt.Errorf("refused hello: %q", refusal)
	}
	for _, k := range []string{"implementation", "areas"} {
		if _, ok := m[k]; !ok {
			return helloAnswer{}, fmt.Errorf("answered hello without %q: %s. Update the adapter (docs/protocol.md)", k,
				format.Quote(line))
		}
	}
	var h helloAnswer
	for _, k := range messageKeys(m) {
		raw := m[k]
		var err error
		switch k {
		case "protocol":
		case "implementation":
			err = json.Unmarshal(raw, &h.Implementation)
			if err == nil && h.Implementation.Name == "" {
				err = errors.New(`it has no "name"`)
			}
		case "areas":
			err = json.Unmarshal(raw, &h.Areas)
			if err == nil && h.Areas == nil {
				err = errors.New("it is null")
			}
		default:
			err = errors.New("the hello answer has protocol, implementation and areas only")
		}
		if err != nil {
			return helloAnswer{}, fmt.Errorf("answered hello with a wrong %q (%v): %s. Update the adapter "+
				"(docs/protocol.md)", k, err, format.Quote(line))
		}
	}
	sort.Strings(h.Areas)
	return h, nil
}

// messageKeys orders a message's keys, so that of two faults the same one is always reported.
func messageKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func said(refusal string) string {
	if refusal == "" {
		return ""
	}
	return fmt.Sprintf("; it said: %q", refusal)
}

// parseAnswer checks an answer to the run request seq: exactly one of answer, skip or error.
func parseAnswer(line []byte, seq int64) (Outcome, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil || m == nil {
		return Outcome{}, errors.New("not a JSON object")
	}
	raw, ok := m["seq"]
	if !ok {
		return Outcome{}, errors.New(`no "seq"`)
	}
	var got int64
	if err := json.Unmarshal(raw, &got); err != nil {
		return Outcome{}, fmt.Errorf(`"seq" is %s, not an integer`, raw)
	}
	if got != seq {
		return Outcome{}, fmt.Errorf("the answer has seq %d, the request had seq %d (one answer per request, in order)",
			got, seq)
	}
	var out Outcome
	n := 0
	for _, k := range messageKeys(m) {
		raw := m[k]
		switch k {
		case "seq":
			continue
		case "answer":
			out = Outcome{Answer: raw}
		case "skip", "error":
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return Outcome{}, fmt.Errorf("%q is %s, not a string", k, raw)
			}
			out = Outcome{Verdict: Skip, Message: s}
			if k == "error" {
				out.Verdict = Error
			}
		default:
			return Outcome{}, fmt.Errorf("unknown key %q (an answer has seq and one of answer, skip, error)", k)
		}
		n++
	}
	if n != 1 {
		return Outcome{}, fmt.Errorf("%d of answer, skip, error (want exactly one)", n)
	}
	return out, nil
}

var (
	errTimeout = errors.New("timeout")
	errClosed  = errors.New("closed")
)

// proc is one running adapter process, started by the supervisor (internal/proc: its own
// process group, and whatever it starts ended with it): its stdin and stdout held by us as
// pipes, each exchange bounded by the injected timer (see exchange), its stderr's tail kept.
type proc struct {
	sv     *supervisor.Process
	pid    int
	stdin  *os.File
	stdout *os.File
	rd     *bufio.Reader
	stderr *supervisor.Tail
	errR   *os.File
	copied chan struct{} // the stderr copier ended
	exited chan struct{} // the process was reaped, what it left ended, its stderr read
	grace  time.Duration
	timer  func(pid int, what string, d time.Duration, f func()) (stop func() bool)
	seq    int64
}

func startProc(argv []string, grace time.Duration, timer func(int, string, time.Duration, func()) func() bool) (*proc,
	error) {
	var files []*os.File
	pipe := func() (r, w *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, nil
		}
		files = append(files, r, w)
		return r, w
	}
	inR, inW := pipe()
	outR, outW := pipe()
	errR, errW := pipe()
	if errW == nil {
		for _, f := range files {
			f.Close()
		}
		return nil, errors.New("no pipes left (too many open files)")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "LEMBAS_CHECK_PROTOCOL=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	sv, err := supervisor.Start(cmd, supervisor.Options{Grace: grace})
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &proc{sv: sv, pid: sv.Pid(), stdin: inW, stdout: outR, rd: bufio.NewReaderSize(outR, 64<<10),
		stderr: &supervisor.Tail{Max: stderrKept}, errR: errR, copied: make(chan struct{}), exited: make(chan struct{}),
		grace: grace, timer: timer}
	go func() {
		defer close(p.copied)
		io.Copy(p.stderr, errR)
	}()
	go p.reap(grace)
	return p, nil
}

// reap waits for the process to be reaped and what it left to be ended, then lets the stderr
// copier finish (bounded: a process that escaped the supervisor may hold stderr open).
func (p *proc) reap(grace time.Duration) {
	<-p.sv.Done()
	select {
	case <-p.copied:
	case <-time.After(grace):
		p.errR.Close()
		<-p.copied
	}
	p.errR.Close()
	close(p.exited)
}

// exchange writes one line and reads one line back, within timeout and while ctx lives. The
// write and the read are made on a goroutine of their own, and the timeout (the injected timer)
// and ctx are selected against them: no pipe deadline is needed, which Windows' pipes do not
// have (os.ErrNoDeadline). A goroutine a timeout or an interrupt leaves in a write or a read ends
// as the process is ended (every fault ends it), which closes the pipes' other ends.
func (p *proc) exchange(ctx context.Context, line []byte, timeout time.Duration) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	wrote := make(chan error, 1)
	read := make(chan lineRead, 1)
	go func() {
		_, err := p.stdin.Write(line)
		wrote <- err
		got, err := jsonx.ReadLine(p.rd, MaxAnswerLine)
		read <- lineRead{got, err}
	}()
	up, stop := p.after("answer", timeout)
	defer func() { stop() }()
	var werr error
	for {
		select {
		case werr = <-wrote:
			wrote = nil
			if werr != nil {
				// It exited (or closed its stdin) before reading the request; a line it printed
				// first, a banner or a version error, says more than "exited" does: it has the
				// grace period to come.
				stop()
				up, stop = p.after("answer", min(timeout, p.grace))
			}
		case r := <-read:
			switch {
			case r.err == nil:
				return r.line, nil
			case werr != nil:
				return nil, p.ioErr(ctx, werr)
			}
			return r.line, p.ioErr(ctx, r.err)
		case <-up:
			if werr != nil {
				return nil, errClosed
			}
			return nil, errTimeout
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// lineRead is what one read of a line gave.
type lineRead struct {
	line []byte
	err  error
}

func (p *proc) ioErr(ctx context.Context, err error) error {
	var long *jsonx.LineTooLong
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &long):
		return err
	}
	return errClosed
}

// end waits up to grace for a process that closed its stdout to exit, kills it if it has not,
// and says how it ended.
func (p *proc) end(grace time.Duration) string {
	if !p.exitWithin(grace) {
		return fmt.Sprintf("closed its stdout but was still running %s later (ended by lembas-check)", grace)
	}
	return "exited (" + p.sv.State().String() + ")"
}

// exitWithin waits up to grace for the process to exit and says whether it did; one still
// running then is killed. Its pipes are closed either way.
func (p *proc) exitWithin(grace time.Duration) bool {
	up, stop := p.after("exit", grace)
	defer stop()
	select {
	case <-p.exited:
		p.closeFiles()
		return true
	case <-up:
		p.kill()
		return false
	}
}

// exitedWithin is exitWithin for the adapter process alone: grace bounds its own exit, not the
// ending of what it left (a child that ignores TERM takes the supervisor's grace and a KILL),
// which bye then waits for and names as the adapter's leftovers, not as the adapter's slowness.
func (p *proc) exitedWithin(grace time.Duration) bool {
	up, stop := p.after("exit", grace)
	defer stop()
	select {
	case <-p.sv.Exited():
	case <-up:
		if !p.sv.HasExited() { // one that exited as the time ran out exited in time
			p.kill()
			return false
		}
	}
	<-p.exited // what it left is ended, within the supervisor's own grace
	p.closeFiles()
	return true
}

// after is closed once the time d the process has for what ("answer", "exit") is up, unless
// stop comes first.
func (p *proc) after(what string, d time.Duration) (up <-chan struct{}, stop func() bool) {
	c := make(chan struct{})
	return c, p.timer(p.pid, what, d, func() { close(c) })
}

// kill ends the process and its group (TERM, then KILL after the grace period) and waits until
// it is reaped.
func (p *proc) kill() {
	p.sv.Stop(syscall.SIGTERM)
	<-p.exited
	p.closeFiles()
}

func (p *proc) closeFiles() {
	p.stdin.Close()
	p.stdout.Close()
}

// bye asks the process to exit, gives it grace, then kills it.
func (p *proc) bye(grace time.Duration) error {
	// Written on a goroutine of its own: a process that reads nothing more must not hold up the
	// grace period (no pipe deadline bounds the write on Windows). Closing the pipe, or the
	// process's end, ends the write.
	go func() {
		p.stdin.Write([]byte(`{"cmd":"bye"}` + "\n"))
		p.stdin.Close()
	}()
	if !p.exitedWithin(grace) {
		return fmt.Errorf("adapter process %d did not exit within %s of bye (ended by lembas-check): it must exit "+
			"when it reads bye or its stdin closes", p.pid, grace)
	}
	if st := p.sv.State(); !st.Success() {
		msg := fmt.Sprintf("adapter process %d ended with %s after bye (want exit status 0)", p.pid, st)
		if s := p.stderr.String(); s != "" {
			msg += "; its stderr ends:\n" + table.Indent(s, "    ")
		}
		return errors.New(strings.TrimRight(msg, "\n"))
	}
	if left := p.sv.Left(); len(left) > 0 {
		return fmt.Errorf("adapter process %d exited after bye but left processes running: %s (an adapter must end "+
			"what it starts)", p.pid, supervisor.Summary(left, "it"))
	}
	return nil
}

// Check checks the options as --jobs and --timeout give them.
func (o AdapterOptions) Check() error {
	if o.Jobs < 1 {
		return fmt.Errorf("--jobs %d: want 1 or more", o.Jobs)
	}
	if o.Timeout <= 0 {
		return fmt.Errorf("--timeout %s: want a positive duration, e.g. 10s", o.Timeout)
	}
	return nil
}
