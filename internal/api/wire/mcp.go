package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// MCP is the Model Context Protocol as the fake serves it and the reference agent reads it: one
// JSON-RPC 2.0 message, or a batch, POSTed to the server's URL (the streamable HTTP transport),
// answered with JSON. These are the messages of a server's instructions and tools: initialize,
// notifications/initialized, ping, tools/list and tools/call.

// MCPVersions are the protocol versions the fake speaks, newest first: a client asking for one
// of them gets it, any other the newest.
var MCPVersions = []string{"2025-06-18", "2025-03-26", "2024-11-05"}

// MCPServer is what one MCP server says: its name, the instructions initialize gives, and its
// tools, each with the text a call of it answers.
type MCPServer struct {
	Name         string    `json:"name"`
	Instructions string    `json:"instructions,omitempty"`
	Tools        []MCPTool `json:"tools,omitempty"`
}

// MCPTool is one tool of an MCP server: as tools/list names it, and Answer the text of its
// calls' result.
type MCPTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Answer      string          `json:"-"`
}

// MCPMessage is one JSON-RPC message: a request (ID and Method), a notification (Method alone)
// or a response (ID and Result or Error).
type MCPMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *MCPError       `json:"error,omitempty"`
}

// MCPError is a JSON-RPC error.
type MCPError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *MCPError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// MCPInitializeResult is initialize's result.
type MCPInitializeResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ServerInfo      struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
	Instructions string `json:"instructions,omitempty"`
}

// ParseMCP reads a POSTed body: one message or a non-empty batch, each JSON-RPC 2.0 with a
// method or a result. An error says what is wrong, for a 400.
func ParseMCP(body []byte) ([]MCPMessage, error) {
	body = bytes.TrimSpace(body)
	var ms []MCPMessage
	if len(body) > 0 && body[0] == '[' {
		if err := json.Unmarshal(body, &ms); err != nil {
			return nil, fmt.Errorf("the batch is not JSON-RPC: %v", err)
		}
		if len(ms) == 0 {
			return nil, errors.New("an empty batch")
		}
	} else {
		var m MCPMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, fmt.Errorf("the body is not a JSON-RPC message: %v", err)
		}
		ms = []MCPMessage{m}
	}
	for i, m := range ms {
		switch {
		case m.JSONRPC != "2.0":
			return nil, fmt.Errorf("message %d: jsonrpc %q, want \"2.0\"", i+1, m.JSONRPC)
		case m.Method == "" && m.Result == nil && m.Error == nil:
			return nil, fmt.Errorf("message %d: neither a method nor a result", i+1)
		case m.Method != "" && len(m.ID) > 0 && !validID(m.ID):
			return nil, fmt.Errorf("message %d: id %s, want a string or a number", i+1, m.ID)
		}
	}
	return ms, nil
}

func validID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// Answer is the server's answer to one message: nil for a notification or a response (202 when
// all of a POST's are), else its result or its error.
func (s *MCPServer) Answer(m MCPMessage) *MCPMessage {
	if m.Method == "" || len(m.ID) == 0 {
		return nil
	}
	res, err := s.result(m)
	out := &MCPMessage{JSONRPC: "2.0", ID: m.ID}
	if err != nil {
		out.Error = err
		return out
	}
	out.Result, _ = json.Marshal(res)
	return out
}

func (s *MCPServer) result(m MCPMessage) (any, *MCPError) {
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(m.Params, &p)
		r := MCPInitializeResult{ProtocolVersion: MCPVersions[0], Capabilities: json.RawMessage(`{"tools":{}}`),
			Instructions: s.Instructions}
		if slices.Contains(MCPVersions, p.ProtocolVersion) {
			r.ProtocolVersion = p.ProtocolVersion
		}
		r.ServerInfo.Name, r.ServerInfo.Version = s.Name, "lembas-check fake"
		return r, nil
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		tools := make([]MCPTool, len(s.Tools))
		for i, t := range s.Tools {
			if t.InputSchema == nil {
				t.InputSchema = json.RawMessage(`{"type":"object"}`)
			}
			tools[i] = t
		}
		return map[string]any{"tools": tools}, nil
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, &MCPError{Code: -32602, Message: "tools/call: params: " + err.Error()}
		}
		i := slices.IndexFunc(s.Tools, func(t MCPTool) bool { return t.Name == p.Name })
		if i < 0 {
			return nil, &MCPError{Code: -32602, Message: fmt.Sprintf("tools/call: the server %s has no tool %q",
				s.Name, p.Name)}
		}
		return map[string]any{"content": []map[string]string{{"type": "text", "text": s.Tools[i].Answer}},
			"isError": false}, nil
	}
	return nil, &MCPError{Code: -32601, Message: "no method " + m.Method}
}
