package livetarget

import (
	"fmt"
	"maps"
	"net/url"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// serveMCP puts the case's MCP servers (name → instructions) on the fake, each at a URL of its
// own for the case (/mcp/cN-NAME), and gives the harness their URLs (_lembas/configure's
// mcp_servers) in place of the texts: the harness connects to each and reads its instructions
// over MCP, as it would a real server's.
func (e *env) serveMCP(set map[string]any) map[string]any {
	texts, ok := set["mcp"].(map[string]string)
	if !ok {
		return set
	}
	out := maps.Clone(set)
	delete(out, "mcp")
	urls := map[string]string{}
	e.t.mcpMu.Lock()
	defer e.t.mcpMu.Unlock()
	if e.t.mcp == nil {
		e.t.mcp = map[string]wire.MCPServer{}
	}
	for name, text := range texts {
		key := fmt.Sprintf("c%d-%s", e.seq, name)
		e.t.mcp[key] = wire.MCPServer{Name: name, Instructions: text}
		urls[name] = e.t.srv.URL + "/mcp/" + url.PathEscape(key)
	}
	out["mcp_servers"] = urls
	return out
}

// mcpServer is the MCP server the fake serves under name (Config.MCP).
func (t *Target) mcpServer(name string) (wire.MCPServer, bool) {
	t.mcpMu.Lock()
	defer t.mcpMu.Unlock()
	s, ok := t.mcp[name]
	return s, ok
}
