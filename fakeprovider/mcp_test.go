package fakeprovider

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// The fake serves the MCP servers Config.MCP names at /mcp/NAME: initialize gives the server's
// instructions, a notification is 202, a batch is answered in order; a server it does not serve
// is 404, a body that is no JSON-RPC 400, a GET 405.
func TestMCPServer(t *testing.T) {
	srv, err := Start(Config{Log: io.Discard, MCP: func(name string) (wire.MCPServer, bool) {
		return wire.MCPServer{Instructions: "Search the docs first."}, name == "docs"
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"/mcp/docs", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`, 200,
			`"serverInfo":{"name":"docs","version":"lembas-check fake"},"instructions":"Search the docs first."}}`},
		{"/mcp/docs", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, ``},
		{"/mcp/docs", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`, 200,
			`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}]`},
		{"/mcp/tickets", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 404, `the fake serves no MCP server tickets`},
		{"/mcp/docs", `{"id":1}`, 400, `jsonrpc \"\", want \"2.0\"`},
	} {
		status, body := post(tc.path, tc.body)
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("POST %s %s: %d %s; want %d with %s", tc.path, tc.body, status, body, tc.status, tc.want)
		}
	}
	resp, err := http.Get(srv.URL + "/mcp/docs")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %s, want 405 (no event stream)", resp.Status)
	}
}
