package live

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// OneShot is `record --agent`'s agent: a profile's agent given one prompt, its temporary HOME
// and its session directory.
type OneShot struct {
	Profile *agents.Profile
	Bin     string
	Home    string
	Dir     string
	Prompt  string
	Argv    []string // the command; the header's until Ready fills in the server's URL
	work    string   // what Cleanup removes: the HOME, and the session directory unless given
}

// NewOneShot finds the agent of a profile (a name or a file) and makes its HOME and, unless dir
// is given, a session directory holding the small project (Seed).
func NewOneShot(name, dir, prompt string) (*OneShot, error) {
	p, err := agents.Load(name)
	if err != nil {
		return nil, err
	}
	if p.Oneshot == nil {
		return nil,
			fmt.Errorf("the %s profile has no one-shot command: drive it with `lembas-check live --agent %s --acp`",
				p.Name, p.Name)
	}
	bin, err := p.Find()
	if err != nil {
		return nil, err
	}
	a := &OneShot{Profile: p, Bin: bin, Prompt: prompt}
	if a.work, err = os.MkdirTemp("", "lembas-record-"); err != nil {
		return nil, err
	}
	if a.Home, a.Dir, err = makeSession(a.work, dir); err != nil {
		a.Cleanup()
		return nil, err
	}
	// The header is written before the fake has a URL; the model is known now, so the command it
	// names is the one run but for the URL.
	a.Argv, _ = (&Agent{Profile: p, Vars: agents.Vars{Bin: bin, Model: ModelOf(p)}}).Oneshot(prompt, false)
	return a, nil
}

// Script is the fake's default policy for the agent: its own tool shapes and path form.
func (a *OneShot) Script() *script.Script {
	return &script.Script{Name: "(the " + a.Profile.Name + " profile's policy)", Default: a.Profile.Policy(a.Dir)}
}

// Ready writes the agent's files for the fake at url, runs its setup, fills in Argv, and
// returns the agent's environment, with envs added ({url} standing for url).
func (a *OneShot) Ready(ctx context.Context, url string, envs []string, log io.Writer) ([]string, error) {
	ag, err := Prepare(a.Profile, a.Bin, a.Home, a.Dir, url)
	if err != nil {
		return nil, err
	}
	for _, e := range envs {
		ag.Env = append(ag.Env, strings.ReplaceAll(e, "{url}", url))
	}
	if err := ag.Setup(ctx, log); err != nil {
		return nil, err
	}
	a.Argv, _ = ag.Oneshot(a.Prompt, false)
	return ag.Env, nil
}

// Cleanup removes the HOME, and the session directory when NewOneShot made it.
func (a *OneShot) Cleanup() {
	if a.work != "" {
		os.RemoveAll(a.work)
	}
}
