package refagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// mcpClient is the agent's MCP client: it connects to a server over MCP's streamable HTTP
// transport and reads the instructions its initialize gives (context.md §10: an MCP server's
// instructions are part of what the prompt is made from).
var mcpClient = &http.Client{Timeout: 30 * time.Second}

// mcpInstructions connects to each server (name → URL) and gives each one's instructions by name.
func mcpInstructions(servers map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		r, err := mcpInitialize(servers[name])
		if err != nil {
			return nil, fmt.Errorf("mcp_servers.%s: %v", name, err)
		}
		out[name] = r.Instructions
	}
	return out, nil
}

// mcpInitialize is initialize and notifications/initialized on the server at url.
func mcpInitialize(url string) (wire.MCPInitializeResult, error) {
	var r wire.MCPInitializeResult
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + wire.MCPVersions[0] +
		`","capabilities":{},"clientInfo":{"name":"` + Name + `","version":"` + wire.MCPVersions[0] + `"}}}`
	b, session, err := mcpPost(url, init, "")
	if err != nil {
		return r, err
	}
	ms, err := wire.ParseMCP(b)
	if err != nil || len(ms) != 1 {
		return r, fmt.Errorf("initialize: the answer is no JSON-RPC response: %v", err)
	}
	if ms[0].Error != nil {
		return r, fmt.Errorf("initialize: %v", ms[0].Error)
	}
	if err := json.Unmarshal(ms[0].Result, &r); err != nil {
		return r, fmt.Errorf("initialize: the result: %v", err)
	}
	_, _, err = mcpPost(url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session)
	return r, err
}

// mcpPost POSTs one message; the answer is its JSON, or the first event of an SSE answer, and
// the session the server gave (Mcp-Session-Id).
func mcpPost(url, body, session string) ([]byte, string, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := mcpClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	session = resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode/100 == 2 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The stream may stay open: its first event is the answer.
		var first []byte
		err := replay.EachEvent(io.LimitReader(resp.Body, 16<<20), func(d []byte) error {
			first = d
			return io.EOF
		})
		if first == nil {
			return nil, "", fmt.Errorf("POST %s: the event stream ended with no answer: %v", url, err)
		}
		return first, session, nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode/100 != 2 {
		return nil, "", fmt.Errorf("POST %s: %s: %s", url, resp.Status, bytes.TrimSpace(b))
	}
	return b, session, nil
}
