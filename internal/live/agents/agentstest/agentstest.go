// Package agentstest finds a real agent CLI for a test, as conformance/conformancetest finds an
// area's cases: a test that needs one is skipped, saying how to install it, when it is absent.
package agentstest

import (
	"errors"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// Installed is a built-in profile and its program as the profile finds it (LEMBAS_<NAME>,
// LEMBAS_AGENTS or PATH). Not installed, the test is skipped with the install command; a profile
// that cannot be read, or a program named but not there, fails it.
func Installed(t testing.TB, name string) (*agents.Profile, string) {
	t.Helper()
	p, err := agents.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := p.Find()
	var ni *agents.NotInstalled
	if errors.As(err, &ni) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	return p, bin
}
