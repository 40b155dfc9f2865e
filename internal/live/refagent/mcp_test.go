package refagent

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// mcp_servers are connected to: each server's initialize gives its instructions, which join
// mcp's texts (a text given by name wins); a server that cannot be reached is an error naming it.
func TestConfigureMCPServers(t *testing.T) {
	fake, err := fakeprovider.Start(fakeprovider.Config{Log: io.Discard, MCP: func(name string) (wire.MCPServer, bool) {
		return wire.MCPServer{Instructions: "Instructions of " + name + "."}, true
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	c, err := decodeConfigure([]byte(`{"sessionId":"s","mcp":{"docs":"Given."},"mcp_servers":{"docs":"` + fake.URL +
		`/mcp/docs","tickets":"` + fake.URL + `/mcp/tickets"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := *c.MCP; len(got) != 2 || got["tickets"] != "Instructions of tickets." || got["docs"] != "Given." {
		t.Errorf("mcp: %v", got)
	}
	gone := httptest.NewServer(http.NotFoundHandler())
	defer gone.Close()
	_, err = decodeConfigure([]byte(`{"sessionId":"s","mcp_servers":{"docs":"` + gone.URL + `"}}`))
	if err == nil || !strings.Contains(err.Error(), "mcp_servers.docs") {
		t.Errorf("a server not there: %v, want it named", err)
	}
}
