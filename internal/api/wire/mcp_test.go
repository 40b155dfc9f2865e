package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// A server's initialize gives its instructions at the version asked (the newest for one it does
// not speak); tools/list and tools/call give its tools and their answers; a notification has no
// answer; an unknown method and an unknown tool are JSON-RPC errors.
func TestMCPAnswer(t *testing.T) {
	s := MCPServer{Name: "docs", Instructions: "Search the docs first.",
		Tools: []MCPTool{{Name: "search", Description: "Search the docs", Answer: "found it"}}}
	for _, tc := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{"tools":{}},"serverInfo":{"name":"docs","version":"lembas-check fake"},"instructions":"Search the docs first."}}`},
		{`{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
			`{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"docs","version":"lembas-check fake"},"instructions":"Search the docs first."}}`},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, `null`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"search","description":"Search the docs","inputSchema":{"type":"object"}}]}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"found it","type":"text"}],"isError":false}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"tools/call: the server docs has no tool \"nope\""}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no method resources/list"}}`},
	} {
		ms, err := ParseMCP([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got, _ := json.Marshal(s.Answer(ms[0]))
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// A body that is no JSON-RPC 2.0 message is refused saying what is wrong; a batch is read.
func TestParseMCP(t *testing.T) {
	for in, want := range map[string]string{
		`nope`: "not a JSON-RPC message",
		`[]`:   "an empty batch",
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`:  `jsonrpc "1.0"`,
		`{"jsonrpc":"2.0","id":1}`:                  "neither a method nor a result",
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`: "id {}",
	} {
		if _, err := ParseMCP([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	ms, err := ParseMCP([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`))
	if err != nil || len(ms) != 2 {
		t.Errorf("a batch: %v, %v", ms, err)
	}
}

// ParseMCP never panics, and what it takes the server answers with JSON.
func FuzzParseMCP(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, `[{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"search"}}`, `[]`, `{`} {
		f.Add([]byte(s))
	}
	s := MCPServer{Name: "docs", Instructions: "i", Tools: []MCPTool{{Name: "search", Answer: "a"}}}
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := ParseMCP(b)
		if err != nil {
			return
		}
		for _, m := range ms {
			if a := s.Answer(m); a != nil {
				if out, err := json.Marshal(a); err != nil || !json.Valid(out) {
					t.Fatalf("%s: answered %s, %v", b, out, err)
				}
			}
		}
	})
}
