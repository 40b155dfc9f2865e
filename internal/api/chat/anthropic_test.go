package chat

import (
	"encoding/json"
	"testing"
)

func TestAnthropicBreakpoints(t *testing.T) {
	body := `{"model":"claude","cache_control":{"type":"ephemeral"},` +
		`"tools":[{"name":"Read","input_schema":{},"cache_control":{"type":"ephemeral","ttl":"1h"}}],` +
		`"system":[{"type":"text","text":"bill"},{"cache_control":{"type":"ephemeral"}, "type":"text","text":"S"}],` +
		`"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"tool_result","tool_use_id":"t","content":"r","cache_control":{"type":"ephemeral"}}]},{"role":"assistant","content":"ok"}],` +
		`"thinking":{"type":"enabled","budget_tokens":9},"output_config":{"effort":"high"}}`
	r, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if r.API != Anthropic || r.AutoCache != "5m" {
		t.Fatalf("api %q autocache %q", r.API, r.AutoCache)
	}
	if n := r.Breakpoints(); n != 4 {
		t.Errorf("breakpoints %d, want 4 (tool, system[1], a tool_result, the top-level one)", n)
	}
	tool := r.Tools[0]
	if tool.Blocks[0].TTL != "1h" || string(tool.Content()) != `{"name":"Read","input_schema":{}}` {
		t.Errorf("tool: ttl %q content %s", tool.Blocks[0].TTL, tool.Content())
	}
	s1 := r.System[1]
	if s1.Blocks[0].TTL != "5m" || string(s1.Content()) != `{"type":"text","text":"S"}` {
		t.Errorf("system[1]: ttl %q content %s", s1.Blocks[0].TTL, s1.Content())
	}
	if r.System[0].Blocks[0].Marked() {
		t.Error("system[0] has no breakpoint")
	}
	m := r.Messages[0]
	if len(m.Blocks) != 2 || m.Blocks[0].Marked() || m.Blocks[1].TTL != "5m" {
		t.Fatalf("message blocks %+v", m.Blocks)
	}
	if got := string(m.BlockContent(1)); got != `{"type":"tool_result","tool_use_id":"t","content":"r"}` {
		t.Errorf("block content %s", got)
	}
	if !json.Valid(m.Content()) {
		t.Errorf("content without marks is not JSON: %s", m.Content())
	}
	if a := r.Messages[1]; len(a.Blocks) != 1 || string(a.Raw[a.Blocks[0].Start:a.Blocks[0].End]) != `"ok"` {
		t.Errorf("string content block %+v", a.Blocks)
	}
	want := map[string]string{"$.thinking": `{"type":"enabled","budget_tokens":9}`, "$.output_config.effort": `"high"`}
	for _, k := range r.Keys {
		if want[k.Path] != string(k.Value) {
			t.Errorf("key %s = %s", k.Path, k.Value)
		}
		delete(want, k.Path)
	}
	if len(want) > 0 {
		t.Errorf("keys not found: %v", want)
	}
}

func TestAPIOfPath(t *testing.T) {
	for path, want := range map[string]string{
		"/v1/messages?beta=true": Anthropic,
		"/v1/chat/completions":   ChatCompletions,
		"/responses":             Responses,
		"/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse": Gemini,
		"/v1/models": "",
	} {
		if got := APIOf(path); got != want {
			t.Errorf("APIOf(%s) = %q, want %q", path, got, want)
		}
	}
	r, err := ParsePath("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", []byte(`{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`))
	if err != nil || r.Model != "gemini-2.5-flash" || !r.Stream || r.API != Gemini {
		t.Errorf("%+v %v", r, err)
	}
}

func TestAnthropicOneTextBlockIsItsString(t *testing.T) {
	// Claude Code sends a system message as a block with a breakpoint on turn 1 and as a string
	// on turn 2: the API reads the two alike.
	a, _ := ParseAs([]byte(`{"model":"c","max_tokens":1,"messages":[{"role":"system","content":[{"type":"text","text":"Today is X.","cache_control":{"type":"ephemeral"}}]}]}`), Anthropic)
	b, _ := ParseAs([]byte(`{"model":"c","max_tokens":1,"messages":[{"role":"system","content":"Today is X."}]}`), Anthropic)
	if string(a.Messages[0].Content()) != string(b.Messages[0].Content()) || string(a.Messages[0].BlockContent(0)) != string(b.Messages[0].BlockContent(0)) {
		t.Errorf("%s / %s differ", a.Messages[0].Content(), b.Messages[0].Content())
	}
	if !a.Messages[0].Blocks[0].Marked() || b.Messages[0].Blocks[0].Marked() {
		t.Error("the breakpoint is still seen")
	}
}

// TestAnthropicToolsFirstElement: the shape of a tools array is told by its first element's
// members, read in one walk as Member and StringMember read them.
func TestAnthropicToolsFirstElement(t *testing.T) {
	for tools, want := range map[string]bool{
		`[{"name":"read","input_schema":{}},{"type":"function"}]`: true,
		`[{"type":"function","function":{"name":"read"}}]`:        false,
		`[{"type":"custom","custom":{"name":"x"}}]`:               false,
		`[{"type":"web_search_20250305","name":"web_search"}]`:    true,
		`[{"type":1,"type":"bash_20250124","name":"bash"}]`:       true, // the first string
		`[{"type":"bash_20250124","function":{}}]`:                false,
		`[{"t\u0079pe":"text_editor_20250124","name":"edit"}]`:    true,
		`[{"name":"read"}]`:       false,
		` [ ] `:                   false,
		`[1,{"input_schema":{}}]`: false,
		`{"input_schema":{}}`:     false,
	} {
		if got := anthropicTools([]byte(tools)); got != want {
			t.Errorf("anthropicTools(%s) = %v, want %v", tools, got, want)
		}
	}
}
