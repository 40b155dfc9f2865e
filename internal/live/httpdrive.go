package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// httpSession is one session of an HTTP profile: the server's URL, the placeholders its
// requests are filled with ({session}, {mode}, {model}), and the transcript.
type httpSession struct {
	h     *agents.HTTP
	vars  agents.Vars
	base  string
	extra map[string]string
	hc    *http.Client
	after func(time.Duration) <-chan time.Time
	tr    io.Writer
}

// do sends the named request, bounded by d, and reads what its Read names from the answer.
func (s *httpSession) do(ctx context.Context, name string, r *agents.Request, d time.Duration) (map[string]string,
	error) {
	path, body := s.vars.FillRequest(r, s.extra, url.PathEscape)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.after(d):
			cancel()
		case <-cctx.Done():
		}
	}()
	req, _ := http.NewRequestWithContext(cctx, r.Method, s.base+path, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	fmt.Fprintf(s.tr, "> %s %s %s\n", r.Method, path, body)
	resp, err := s.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if cctx.Err() != nil {
			return nil, &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("its %s (%s %s) did not end within %v", name,
				r.Method, path, d)}
		}
		return nil, &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("its %s (%s %s): %v", name, r.Method, path, err)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	fmt.Fprintf(s.tr, "< %s %s\n", resp.Status, bytes.ReplaceAll(bytes.TrimSpace(b), []byte("\n"), []byte(" ")))
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("its %s (%s %s) answered %s: %s", name, r.Method, path, resp.Status, format.Quote(b))
	}
	out := map[string]string{}
	for k, p := range r.Read {
		v, err := JSONPath(b, p)
		if err != nil {
			return nil, &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("its %s (%s %s): read.%s: %v", name,
				r.Method, path, k, err)}
		}
		out[k] = v
	}
	return out, nil
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

// httpd drives the agent through its HTTP profile: its server started, its OpenAPI document
// checked, one session opened; prompts, a mode ({mode} in the requests after it), a model and a
// compaction where the profile has them; the session closed at the end.
func (d *driver) httpd(ctx context.Context) {
	h := d.r.Profile.HTTP
	if h == nil {
		d.r.Fault = &NotRun{fmt.Errorf("the %s profile has no http section (docs/live.md)", d.r.Profile.Name)}
		return
	}
	argv := append([]string{d.ag.Vars.Bin}, d.ag.Vars.FillAll(h.Args)...)
	short := min(time.Minute, d.o.StepTimeout)
	srv, err := StartServer(ctx, argv, d.ag.Env, d.r.Dir, d.stderr, short, d.o.After)
	if err != nil {
		d.r.Fault = err
		return
	}
	defer srv.End("the agent")
	s := &httpSession{h: h, vars: d.ag.Vars, base: strings.TrimSuffix(srv.URL, "/"), hc: &http.Client{},
		after: d.o.After, tr: d.tr,
		extra: map[string]string{"model": ModelOf(d.r.Profile)}}
	if len(h.Modes) > 0 {
		s.extra["mode"] = h.Modes[0]
	}
	if err := s.ready(ctx, short); err != nil {
		d.r.Fault = err
		return
	}
	got, err := s.do(ctx, "open", h.Open, short)
	if err != nil {
		d.r.Fault = err
		return
	}
	s.extra["session"] = got["session"]
	d.r.Session.ID = "HTTP session " + got["session"]
	defer func() {
		if h.Close != nil {
			s.do(context.WithoutCancel(ctx), "close", h.Close, short)
		}
	}()
	d.each(ctx, func(sr StepRun) (StepRun, error) { return s.step(ctx, sr, d.o.StepTimeout) })
}

// step makes one scenario step over the session.
func (s *httpSession) step(ctx context.Context, sr StepRun, d time.Duration) (StepRun, error) {
	switch st := sr.Step; {
	case st.Prompt != "":
		s.extra["prompt"] = st.Prompt
		s.vars.Prompt = st.Prompt
		got, err := s.do(ctx, "prompt", s.h.Prompt, d)
		sr.Said = strings.TrimSpace(got["said"])
		return sr, err
	case st.Mode != "":
		if !slices.Contains(s.h.Modes, st.Mode) {
			return sr, &acp.Unsupported{What: "mode " + st.Mode,
				Why: "the profile's http section offers the modes " + strings.Join(s.h.Modes, ", ")}
		}
		s.extra["mode"] = st.Mode
	case st.Model != "":
		s.extra["model"] = st.Model
	case st.Compact:
		if s.h.Compact == nil {
			return sr, &acp.Unsupported{What: "a compaction", Why: "the profile's http section has no compact request"}
		}
		_, err := s.do(ctx, "compaction", s.h.Compact, d)
		return sr, err
	default:
		return sr, &acp.Unsupported{What: st.String(),
			Why: "over HTTP the runner makes prompts, a mode, a model and a compaction"}
	}
	return sr, nil
}

// ready waits for the health path (where the profile names one) and checks the OpenAPI
// document: a path the document does not list stops the run, as not run, saying which.
func (s *httpSession) ready(ctx context.Context, d time.Duration) error {
	if s.h.Health != "" {
		if _, err := s.do(ctx, "health check", &agents.Request{Method: "GET", Path: s.h.Health}, d); err != nil {
			return err
		}
	}
	if s.h.OpenAPI == "" {
		return nil
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.base+s.h.OpenAPI, nil)
	resp, err := s.hc.Do(req)
	if err != nil {
		return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("GET %s: %v", s.h.OpenAPI, err)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err := CheckOpenAPI(s.h, b); err != nil {
		return &NotRun{err}
	}
	return nil
}
