package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/LLeMbas/lembas-check/agents"
	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/live"
)

// agentRun is `record --agent`: a profile's agent, its temporary HOME and session directory.
type agentRun struct {
	profile       *agents.Profile
	bin, home     string
	dir, prompt   string
	argv          []string
	removeDir     bool
	removeHomeDir bool
}

// prepareAgent finds the agent of a profile and makes its HOME and, unless dir is given, a
// session directory holding the small project.
func prepareAgent(name, dir, prompt string) (*agentRun, error) {
	p, err := agents.Load(name)
	if err != nil {
		return nil, err
	}
	if p.Oneshot == nil {
		return nil, fmt.Errorf("the %s profile has no one-shot command: drive it with `lembas-check live --agent %s --acp`", p.Name, p.Name)
	}
	bin, err := p.Find()
	if err != nil {
		return nil, err
	}
	a := &agentRun{profile: p, bin: bin, prompt: prompt, removeHomeDir: true}
	if a.home, err = os.MkdirTemp("", "lembas-home-"); err != nil {
		return nil, err
	}
	if dir == "" {
		a.removeDir = true
		if dir, err = os.MkdirTemp("", "lembas-session-"); err == nil {
			err = live.Seed(dir)
		}
		if err != nil {
			a.cleanup()
			return nil, err
		}
	}
	a.dir = dir
	// The command as the header says it; filled again once the server's URL is known.
	a.argv, _ = (&live.Agent{Profile: p, Vars: agents.Vars{Bin: bin}}).Oneshot(prompt, false)
	return a, nil
}

// script is the fake's default policy for the agent: its own tool shapes and path form.
func (a *agentRun) script() *script.Script {
	return &script.Script{Name: "(the " + a.profile.Name + " profile's policy)", Default: a.profile.Policy(a.dir)}
}

// ready writes the agent's files, runs its setup, and returns its environment.
func (a *agentRun) ready(ctx context.Context, srv *fakeprovider.Server, envs []string, stderr io.Writer) ([]string, error) {
	ag, err := live.Prepare(a.profile, a.bin, a.home, a.dir, srv.URL)
	if err != nil {
		return nil, err
	}
	for _, e := range envs {
		ag.Env = append(ag.Env, strings.ReplaceAll(e, "{url}", srv.URL))
	}
	if err := ag.Setup(ctx, stderr); err != nil {
		return nil, err
	}
	a.argv, _ = ag.Oneshot(a.prompt, false)
	return ag.Env, nil
}

func (a *agentRun) cleanup() {
	if a.removeHomeDir && a.home != "" {
		os.RemoveAll(a.home)
	}
	if a.removeDir && a.dir != "" {
		os.RemoveAll(a.dir)
	}
}
