package fakeprovidertest_test

import (
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
)

// In a test: a fake on the default policy, closed when the test ends; point the client under
// test at its BaseURL.
func ExampleNew() {
	test := func(t *testing.T) {
		srv := fakeprovidertest.New(t, nil)
		t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	}
	_ = test
}
