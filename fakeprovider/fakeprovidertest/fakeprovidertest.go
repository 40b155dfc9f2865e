// Package fakeprovidertest starts lembas-check's fake model server for a test, as httptest
// starts a server: its helpers take a testing.TB, so they live apart from fakeprovider and the
// lembas-check binary does not link the testing package.
package fakeprovidertest

import (
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
)

// New starts a fake serving a script (nil: the default policy), like httptest.NewServer; the
// test's cleanup closes it.
func New(t testing.TB, s *script.Script) *fakeprovider.Server {
	t.Helper()
	return NewWith(t, fakeprovider.Config{Script: s})
}

// NewWith starts a fake with a whole configuration.
func NewWith(t testing.TB, cfg fakeprovider.Config) *fakeprovider.Server {
	t.Helper()
	s, err := fakeprovider.Start(cfg)
	if err != nil {
		t.Fatalf("fakeprovider: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
