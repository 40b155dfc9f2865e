package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/a2a"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
)

// Workspace is the metadata of a conversation's first message that names its working
// directory, in the shape the Gemini CLI's A2A server reads (coderAgent, kind agent-settings),
// which the reference agent reads too; show says the person has a screen (a LLeMbas client's).
func Workspace(dir string, show bool) map[string]any {
	m := map[string]any{"coderAgent": map[string]any{"kind": "agent-settings", "workspacePath": dir}}
	if show {
		m["lembas"] = map[string]any{"show": true}
	}
	return m
}

// a2a drives the agent as an A2A server (the profile's a2a command): one process and one
// conversation for the whole scenario, each prompt a message/stream whose task ids are the
// session's identity and whose contextId carries it on; a mode, a model or a compaction through
// the LLeMbas methods where the agent card offers them, else skipped saying why.
func (d *driver) a2a(ctx context.Context) {
	argv, ok := d.ag.A2A()
	if !ok {
		d.r.Fault = &NotRun{fmt.Errorf("the %s profile has no a2a command", d.r.Profile.Name)}
		return
	}
	srv, err := StartServer(ctx, argv, d.ag.Env, d.r.Dir, d.stderr, min(time.Minute, d.o.StepTimeout), d.o.After)
	if err != nil {
		d.r.Fault = err
		return
	}
	defer func() {
		left, end := srv.End("the agent")
		if f := new(acp.Fault); errors.As(d.r.Fault, &f) && f.Kind == acp.Died {
			d.r.Fault = fmt.Errorf("%w (%s)", d.r.Fault, exitText(end))
		}
		if left != "" {
			d.logf("lembas-check live: %s", left)
		}
	}()
	c, err := a2a.Open(ctx, srv.URL, a2a.Options{Stream: true, Timeout: d.o.StepTimeout, After: d.o.After,
		Transcript: d.tr, Metadata: Workspace(d.r.Dir, false)})
	if err != nil {
		d.r.Fault = err
		return
	}
	if c.Card.Name != "" {
		d.r.AgentName, d.r.AgentVersion = c.Card.Name, c.Card.Version
	}
	d.each(ctx, func(sr StepRun) (StepRun, error) {
		var err error
		switch st := sr.Step; {
		case st.Prompt != "":
			sr.Said, err = c.Send(ctx, st.Prompt)
		case st.Mode != "":
			err = c.Configure(ctx, "mode "+st.Mode, map[string]any{"mode": st.Mode})
		case st.Model != "":
			err = c.Configure(ctx, "model "+st.Model, map[string]any{"model": st.Model})
		case st.Compact:
			err = c.Compact(ctx)
		default:
			err = &acp.Unsupported{What: st.String(),
				Why: "over A2A the runner makes prompts, and a mode, a model or a compaction through the LLeMbas " +
					"methods"}
		}
		if c.Task != "" {
			d.r.Session.ID = c.Session()
		}
		return sr, err
	})
}
