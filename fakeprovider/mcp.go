package fakeprovider

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
)

// handleMCP serves the MCP server Config.MCP names (docs/fakeprovider.md, MCP servers): MCP's
// streamable HTTP transport, each POST one JSON-RPC message or a batch answered with JSON (202
// when it holds only notifications and responses). No session is kept: each server is the same
// at every request, so a client's Mcp-Session-Id is not needed.
func (s *Server) handleMCP(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var srv wire.MCPServer
	ok := false
	if s.cfg.MCP != nil {
		srv, ok = s.cfg.MCP(name)
	}
	if !ok {
		writeError(w, &wire.Error{Status: http.StatusNotFound, Message: "the fake serves no MCP server " +
			name + " (Config.MCP)"})
		return
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		writeError(w, &wire.Error{Status: http.StatusRequestEntityTooLarge, Message: err.Error()})
		return
	}
	ms, err := wire.ParseMCP(b)
	if err != nil {
		writeError(w, &wire.Error{Status: http.StatusBadRequest, Message: "MCP: " + err.Error()})
		return
	}
	if srv.Name == "" {
		srv.Name = name
	}
	var out []*wire.MCPMessage
	for _, m := range ms {
		if a := srv.Answer(m); a != nil {
			out = append(out, a)
		}
	}
	switch {
	case len(out) == 0:
		w.WriteHeader(http.StatusAccepted)
	case len(ms) == 1:
		body, _ := json.Marshal(out[0])
		writeJSON(w, http.StatusOK, body)
	default:
		body, _ := json.Marshal(out)
		writeJSON(w, http.StatusOK, body)
	}
}
