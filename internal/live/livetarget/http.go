package livetarget

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/runner"
)

// startHTTP starts the harness's server from its profile's http section and checks it is the
// API the profile was written for (its health path, its OpenAPI document); one server serves
// every case, each case a session of its own.
func (t *Target) startHTTP(ctx context.Context, info runner.TargetInfo) (runner.TargetInfo, error) {
	argv := live.HTTPArgv(t.ag, t.o.Profile.HTTP)
	info.Command = strings.Join(argv, " ") + " (http)"
	a := &agentProc{stderr: &proc.Tail{}}
	srv, err := live.StartServer(ctx, argv, t.env, t.work, a.stderr, min(time.Minute, t.o.Timeout), t.o.After)
	if err != nil {
		return info, fmt.Errorf("%s over HTTP: %v", t.o.Profile.Name, err)
	}
	a.Stdio, a.url = srv.Stdio, srv.URL
	if err := live.ReadyHTTP(ctx, t.o.Profile.HTTP, a.url, t.httpOptions()); err != nil {
		a.Kill()
		return info, fmt.Errorf("%s over HTTP: %v; its output ends:\n%s", t.o.Profile.Name, err, a.stderr.String())
	}
	t.mu.Lock()
	t.agent = a
	t.mu.Unlock()
	return info, nil
}

func (t *Target) httpOptions() live.HTTPOptions {
	return live.HTTPOptions{Model: live.ModelOf(t.o.Profile), Short: min(time.Minute, t.o.Timeout), After: t.o.After,
		Transcript: t.trans}
}

// httpSession opens the case's session on the server, in cwd ({dir} in its requests); a server
// that has died since is started again.
func (t *Target) httpSession(ctx context.Context, cwd string) (harness, error) {
	t.mu.Lock()
	a := t.agent
	t.mu.Unlock()
	if a == nil || a.exited() {
		if a != nil {
			a.stop()
		}
		if _, err := t.startHTTP(ctx, runner.TargetInfo{}); err != nil {
			return nil, err
		}
		t.mu.Lock()
		a = t.agent
		t.mu.Unlock()
	}
	v := t.ag.Vars
	v.Dir = cwd
	s, err := live.OpenHTTP(ctx, t.o.Profile.HTTP, v, a.url, t.httpOptions())
	if err != nil {
		return nil, err
	}
	return &httpHarness{s: s, d: t.o.Timeout}, nil
}

// httpHarness is a case's session on a server an HTTP profile drives: prompts, a mode and a
// model as the profile's placeholders, a compaction where it has the request.
type httpHarness struct {
	s *live.HTTPSession
	d time.Duration
}

func (h *httpHarness) Prompt(ctx context.Context, words string) error {
	_, err := h.s.Prompt(ctx, words, h.d)
	return err
}

func (h *httpHarness) Compact(ctx context.Context) error { return h.s.Compact(ctx, h.d) }

func (h *httpHarness) SetMode(_ context.Context, mode string) error { return h.s.SetMode(mode) }

func (h *httpHarness) SetModel(_ context.Context, model string) error { return h.s.SetModel(model) }

func (h *httpHarness) Mode() string { return h.s.Mode() }

func (h *httpHarness) Configure(context.Context, map[string]any) error {
	return &acp.Unsupported{What: "a change of the session's settings",
		Why: "a server driven through its HTTP profile takes no _lembas/configure"}
}
