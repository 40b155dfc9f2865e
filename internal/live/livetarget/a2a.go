package livetarget

import (
	"context"
	"fmt"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live"
	"github.com/LLeMbas/lembas-check/internal/live/a2a"
	"github.com/LLeMbas/lembas-check/internal/proc"
)

// startServer starts the harness as an A2A server (its profile's a2a command) and reads its
// agent card for who it is; one server serves every case, each case a conversation of its own.
func (t *Target) startServer(ctx context.Context, serve, dir string, env []string) (*agentProc, error) {
	argv, _ := t.ag.A2A()
	a := &agentProc{stderr: &proc.Tail{}, serve: serve}
	srv, err := live.StartServer(ctx, argv, env, dir, a.stderr, min(time.Minute, t.o.Timeout), t.o.After)
	if err != nil {
		return nil, err
	}
	a.Stdio, a.url = srv.Stdio, srv.URL
	c, err := a2a.Open(ctx, a.url, a2a.Options{Timeout: t.o.Timeout, After: t.o.After, Transcript: t.trans})
	if err != nil {
		a.Kill()
		return nil, fmt.Errorf("%v; its output ends:\n%s", err, a.stderr.String())
	}
	a.info.Name, a.info.Version, a.info.Lembas = c.Card.Name, c.Card.Version, c.Lembas()
	return a, nil
}

// conversation opens the case's conversation on the A2A server, in cwd (the first message's
// workspace metadata), with a screen when show.
func (a *agentProc) conversation(ctx context.Context, t *Target, cwd string, show bool) (harness, error) {
	c, err := a2a.Open(ctx, a.url, a2a.Options{Stream: true, Timeout: t.o.Timeout, After: t.o.After,
		Transcript: t.trans, Metadata: live.Workspace(cwd, show)})
	if err != nil {
		return nil, err
	}
	return &a2aHarness{c: c, a: a, cwd: cwd}, nil
}

// a2aHarness is a case's conversation with an A2A server: prompts as message/stream, a mode, a
// model or a compaction through the LLeMbas methods where the card offers them.
type a2aHarness struct {
	c    *a2a.Client
	mode string
	a    *agentProc // the server, for another conversation (a workspace case's session/new)
	cwd  string     // the workspace its first message names
}

func (h *a2aHarness) Prompt(ctx context.Context, words string) error {
	_, err := h.c.Send(ctx, words)
	return err
}

func (h *a2aHarness) Compact(ctx context.Context) error { return h.c.Compact(ctx) }

func (h *a2aHarness) SetMode(ctx context.Context, mode string) error {
	if err := h.c.Configure(ctx, "mode "+mode, map[string]any{"mode": mode}); err != nil {
		return err
	}
	h.mode = mode
	return nil
}

func (h *a2aHarness) SetModel(ctx context.Context, model string) error {
	return h.c.Configure(ctx, "model "+model, map[string]any{"model": model})
}

func (h *a2aHarness) Mode() string { return h.mode }

func (h *a2aHarness) Configure(ctx context.Context, settings map[string]any) error {
	return h.c.Configure(ctx, "a change of the session's settings", settings)
}
