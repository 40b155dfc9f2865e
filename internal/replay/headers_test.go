package replay

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Only credentials are left out: the ids real agents send for cache routing (opencode's
// x-session-affinity and x-session-id, codex's session-id) are kept.
func TestCleanHeadersKeepsSessionIDs(t *testing.T) {
	h := http.Header{}
	for _, k := range []string{"Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "Api-Key", "X-Goog-Api-Key", "X-Auth-Token", "X-Custom-Secret", "X-Password",
		"X-Session-Affinity", "X-Session-Id", "Session-Id", "Thread-Id", "Content-Type", "User-Agent"} {
		h.Set(k, "v")
	}
	kept, redacted := CleanHeaders(h)
	if d := cmp.Diff([]string{"api-key", "authorization", "cookie", "proxy-authorization", "x-api-key", "x-auth-token", "x-custom-secret", "x-goog-api-key", "x-password"}, redacted); d != "" {
		t.Errorf("redacted (-want +got)\n%s", d)
	}
	for _, k := range []string{"X-Session-Affinity", "X-Session-Id", "Session-Id", "Thread-Id", "Content-Type", "User-Agent"} {
		if _, ok := kept[k]; !ok {
			t.Errorf("%s was left out: it carries no credential", k)
		}
	}
}
