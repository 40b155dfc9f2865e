package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// HTTPSession is one session on a server an HTTP profile drives: the server's URL, the
// placeholders its requests are filled with ({session}, {mode}, {model}, {prompt}), its event
// stream where the profile reads turns from one, and the transcript.
type HTTPSession struct {
	h     *agents.HTTP
	vars  agents.Vars
	base  string
	extra map[string]string
	hc    *http.Client
	o     HTTPOptions
	ev    *eventStream // nil: the profile has no events
	// offered are the profile's models, filled with the session's first {model}.
	offered []string
}

// HTTPOptions say how an HTTP session is held.
type HTTPOptions struct {
	// Model is the session's {model}; Short bounds every request but a turn's.
	Model string
	Short time.Duration
	// After keeps the bounds; Tick is a poll's wait between two requests (nil: time.After, which
	// a test replaces so that no verdict depends on the machine's speed).
	After, Tick func(time.Duration) <-chan time.Time
	Transcript  io.Writer
}

func (o *HTTPOptions) fill() {
	if o.After == nil {
		o.After = time.After
	}
	if o.Tick == nil {
		o.Tick = time.After
	}
	if o.Short == 0 {
		o.Short = time.Minute
	}
	if o.Transcript == nil {
		o.Transcript = io.Discard
	}
}

// ReadyHTTP waits for the health path (where the profile names one) and checks the OpenAPI
// document: a path the document does not list stops the run, as not run, saying which.
func ReadyHTTP(ctx context.Context, h *agents.HTTP, base string, o HTTPOptions) error {
	o.fill()
	s := &HTTPSession{h: h, base: strings.TrimSuffix(base, "/"), hc: &http.Client{}, o: o}
	if h.Health != "" {
		if _, _, err := s.do(ctx, "health check", &agents.Request{Method: "GET", Path: h.Health}, o.Short); err != nil {
			return err
		}
	}
	if h.OpenAPI == "" {
		return nil
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.base+h.OpenAPI, nil)
	resp, err := s.hc.Do(req)
	if err != nil {
		return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("GET %s: %v", h.OpenAPI, err)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err := CheckOpenAPI(h, b); err != nil {
		return &NotRun{err}
	}
	return nil
}

// OpenHTTP opens a session on the server at base: its event stream first where the profile reads
// one (and its path names no {session}), so that nothing of the first turn is missed; then the
// open request.
func OpenHTTP(ctx context.Context, h *agents.HTTP, vars agents.Vars, base string, o HTTPOptions) (*HTTPSession,
	error) {
	o.fill()
	s := &HTTPSession{h: h, vars: vars, base: strings.TrimSuffix(base, "/"), hc: &http.Client{}, o: o,
		extra: map[string]string{"model": o.Model}, offered: vars.FillAll(h.Models)}
	if len(h.Modes) > 0 {
		s.extra["mode"] = h.Modes[0]
	}
	early := h.Events != nil && !strings.Contains(h.Events.Path, "{session}")
	if early {
		if err := s.listen(ctx); err != nil {
			return nil, err
		}
	}
	got, _, err := s.do(ctx, "open", h.Open, o.Short)
	if err != nil {
		s.Close(ctx)
		return nil, err
	}
	s.extra["session"] = got["session"]
	if h.Events != nil && !early {
		if err := s.listen(ctx); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	return s, nil
}

// ID is the session's id as the open request read it.
func (s *HTTPSession) ID() string { return s.extra["session"] }

// Mode is the session's {mode} ("" where the profile has no modes).
func (s *HTTPSession) Mode() string { return s.extra["mode"] }

// Close sends the close request (where the profile has one) and stops the event stream.
func (s *HTTPSession) Close(ctx context.Context) {
	if s.h.Close != nil && s.extra["session"] != "" {
		s.do(context.WithoutCancel(ctx), "close", s.h.Close, s.o.Short)
	}
	if s.ev != nil {
		s.ev.stop()
	}
}

// Prompt sends the person's words and reads the turn to its end (d bounds it): the prompt
// request's answer, or the event stream's, or the poll's; said is the answer's text.
func (s *HTTPSession) Prompt(ctx context.Context, words string, d time.Duration) (said string, err error) {
	s.extra["prompt"] = words
	s.vars.Prompt = words
	var before string
	if p := s.h.Poll; p != nil && p.Changed != "" {
		_, b, err := s.do(ctx, "poll", &p.Request, s.o.Short)
		if err != nil {
			return "", err
		}
		if before, err = s.pick(b, "poll.changed", p.Changed); err != nil {
			return "", err
		}
	}
	s.ev.drain()
	got, _, err := s.do(ctx, "prompt", s.h.Prompt, d)
	if err != nil {
		return "", err
	}
	switch {
	case s.h.Events != nil:
		said, err = s.turnEvents(ctx, "prompt", d)
	case s.h.Poll != nil:
		said, err = s.turnPoll(ctx, before, d)
	default:
		said = got["said"]
	}
	return strings.TrimSpace(said), err
}

// SetMode sets {mode} for the requests after it: one of the profile's modes.
func (s *HTTPSession) SetMode(mode string) error {
	if !slices.Contains(s.h.Modes, mode) {
		return &acp.Unsupported{What: "mode " + mode,
			Why: "the profile's http section offers the modes " + strings.Join(s.h.Modes, ", ")}
	}
	s.extra["mode"] = mode
	return nil
}

// SetModel sets {model} for the requests after it: model, or where the profile lists its models
// and model is not one of them, the first of them the session is not on.
func (s *HTTPSession) SetModel(model string) error {
	if offered := s.offered; len(offered) > 0 {
		if !slices.Contains(offered, model) {
			i := slices.IndexFunc(offered, func(m string) bool { return m != s.extra["model"] })
			if i < 0 {
				return &acp.Unsupported{What: "a model change", Why: "the profile's http section offers no other " +
					"model (models: " + strings.Join(offered, ", ") + ")"}
			}
			model = offered[i]
		}
	}
	// Vars fills {model} before extra does: both are moved, or the step changes nothing.
	s.extra["model"], s.vars.Model = model, model
	return nil
}

// Compact sends the compact request; with an event stream, the compaction is a turn of the
// server's own (opencode's summarize answers before it ends), read to its end.
func (s *HTTPSession) Compact(ctx context.Context, d time.Duration) error {
	if s.h.Compact == nil {
		return &acp.Unsupported{What: "a compaction", Why: "the profile's http section has no compact request"}
	}
	s.ev.drain()
	if _, _, err := s.do(ctx, "compaction", s.h.Compact, d); err != nil {
		return err
	}
	if s.h.Events != nil {
		_, err := s.turnEvents(ctx, "compaction", d)
		return err
	}
	return nil
}

// do sends the named request, bounded by d, and reads what its Read names from the answer,
// which it returns too.
func (s *HTTPSession) do(ctx context.Context, name string, r *agents.Request, d time.Duration) (map[string]string,
	[]byte, error) {
	path, body := s.vars.FillRequest(r, s.extra, url.PathEscape)
	cctx, cancel := s.bound(ctx, d)
	defer cancel()
	req, _ := http.NewRequestWithContext(cctx, r.Method, s.base+path, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	fmt.Fprintf(s.o.Transcript, "> %s %s %s\n", r.Method, path, body)
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, nil, s.failed(ctx, cctx, fmt.Sprintf("its %s (%s %s)", name, r.Method, path), d, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	fmt.Fprintf(s.o.Transcript, "< %s %s\n", resp.Status, bytes.ReplaceAll(bytes.TrimSpace(b), []byte("\n"),
		[]byte(" ")))
	if resp.StatusCode/100 != 2 {
		return nil, nil, fmt.Errorf("its %s (%s %s) answered %s: %s", name, r.Method, path, resp.Status,
			format.Quote(b))
	}
	out := map[string]string{}
	for k, p := range r.Read {
		v, err := JSONPath(b, p)
		if err != nil {
			return nil, nil, &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("its %s (%s %s): read.%s: %v", name,
				r.Method, path, k, err)}
		}
		out[k] = v
	}
	return out, b, nil
}

// bound is ctx cancelled after d on the session's clock.
func (s *HTTPSession) bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.o.After(d):
			cancel()
		case <-cctx.Done():
		}
	}()
	return cctx, cancel
}

// failed is the fault of a request that got no answer: the run's end, its bound, or the server.
func (s *HTTPSession) failed(ctx, cctx context.Context, what string, d time.Duration, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if cctx.Err() != nil {
		return &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("%s did not end within %v", what, d)}
	}
	return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("%s: %v", what, err)}
}

// pick is what a JSON path (placeholders filled) selects in an answer.
func (s *HTTPSession) pick(b []byte, field, path string) (string, error) {
	v, err := JSONPath(b, s.vars.Fill(fillExtra(path, s.extra)))
	if err != nil {
		return "", &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("http.%s: %v", field, err)}
	}
	return v, nil
}

// meets says whether a decoded answer or event meets every condition (JSON path: value, both
// filled with the placeholders).
func (s *HTTPSession) meets(v any, conds map[string]string) bool {
	for p, want := range conds {
		got, err := selectPath(v, s.vars.Fill(fillExtra(p, s.extra)))
		if err != nil || got != s.vars.Fill(fillExtra(want, s.extra)) {
			return false
		}
	}
	return true
}

func fillExtra(s string, extra map[string]string) string {
	for k, v := range extra {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// CheckOpenAPI says which of the section's requests the server's OpenAPI document (doc) does not
// list, path and method: the profile was written for another version of the server.
func CheckOpenAPI(h *agents.HTTP, doc []byte) error {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil || d.Paths == nil {
		return fmt.Errorf("%s is no OpenAPI document with paths", h.OpenAPI)
	}
	var missing []string
	for name, r := range h.Requests() {
		path, _, _ := strings.Cut(r.Path, "?")
		found := false
		for p, ops := range d.Paths {
			if _, ok := ops[strings.ToLower(r.Method)]; ok && samePath(p, path) {
				found = true // another path of the same shape (/session/status) does not undo it
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("%s (%s %s)", name, r.Method, path))
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("the server's OpenAPI document (%s) lists no %s: the API moved; fix the profile's http "+
			"section (docs/live.md)", h.OpenAPI, strings.Join(missing, ", "))
	}
	return nil
}

// samePath: an OpenAPI path and a profile's path match segment by segment, a {placeholder} in
// either matching any one segment.
func samePath(api, profile string) bool {
	a, p := strings.Split(api, "/"), strings.Split(profile, "/")
	if len(a) != len(p) {
		return false
	}
	for i := range a {
		if a[i] != p[i] && !strings.HasPrefix(a[i], "{") && !strings.HasPrefix(p[i], "{") {
			return false
		}
	}
	return true
}

// httpd drives the agent through its HTTP profile: its server started on a free port, its
// OpenAPI document checked, one session opened; prompts, a mode ({mode} in the requests after
// it), a model and a compaction where the profile has them; the session closed at the end.
func (d *driver) httpd(ctx context.Context) {
	h := d.r.Profile.HTTP
	if h == nil {
		d.r.Fault = &NotRun{fmt.Errorf("the %s profile has no http section (docs/live.md)", d.r.Profile.Name)}
		return
	}
	short := min(time.Minute, d.o.StepTimeout)
	srv, err := StartServer(ctx, HTTPArgv(d.ag, h), d.ag.Env, d.r.Dir, d.stderr, short, d.o.After)
	if err != nil {
		d.r.Fault = err
		return
	}
	defer srv.End("the agent")
	o := HTTPOptions{Model: ModelOf(d.r.Profile), Short: short, After: d.o.After, Transcript: d.tr}
	if err := ReadyHTTP(ctx, h, srv.URL, o); err != nil {
		d.r.Fault = err
		return
	}
	s, err := OpenHTTP(ctx, h, d.ag.Vars, srv.URL, o)
	if err != nil {
		d.r.Fault = err
		return
	}
	d.r.Session.ID = "HTTP session " + s.ID()
	defer s.Close(ctx)
	d.each(ctx, func(sr StepRun) (StepRun, error) { return s.step(ctx, sr, d.o.StepTimeout) })
}

// HTTPArgv is the command that starts the profile's server: {port} in its arguments a free
// loopback port (a server given --port 0 may take a fixed one: opencode serve takes 4096).
func HTTPArgv(ag *Agent, h *agents.HTTP) []string {
	args := ag.Vars.FillAll(h.Args)
	if slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "{port}") }) {
		port := freePort()
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], "{port}", port)
		}
	}
	return append([]string{ag.Vars.Bin}, args...)
}

// freePort is a loopback port nothing listens on now (the kernel's pick, released for the server).
func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "0"
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// step makes one scenario step over the session.
func (s *HTTPSession) step(ctx context.Context, sr StepRun, d time.Duration) (StepRun, error) {
	switch st := sr.Step; {
	case st.Prompt != "":
		said, err := s.Prompt(ctx, st.Prompt, d)
		sr.Said = said
		return sr, err
	case st.Mode != "":
		return sr, s.SetMode(st.Mode)
	case st.Model != "":
		return sr, s.SetModel(st.Model)
	case st.Compact:
		return sr, s.Compact(ctx, d)
	default:
		return sr, &acp.Unsupported{What: st.String(),
			Why: "over HTTP the runner makes prompts, a mode, a model and a compaction"}
	}
}
