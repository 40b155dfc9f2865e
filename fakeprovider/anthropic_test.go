package fakeprovider_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	aopt "github.com/anthropics/anthropic-sdk-go/v2/option"
)

// The official Anthropic Go SDK drives the fake's Messages API, streaming and not, with tool use,
// thinking, count_tokens, the 400 for a fifth breakpoint, and usage from Anthropic's cache rules on
// the fake's clock.

const anthropicScript = `
models: [claude-sonnet-4-5]
replies:
  - reasoning: "Read the file first."
    text: "Reading it."
    tool_calls:
      - {id: call_r, name: Read, arguments: {file_path: /work/README.md}}
    chunk: 4
  - {text: "It is a checker.", chunk: 5}
  - {text: "non-streamed"}
  - {text: "again"}
  - {text: "after the idle"}
`

func anthropicClient(srv *fakeprovider.Server) anthropic.Client {
	return anthropic.NewClient(aopt.WithBaseURL(srv.URL), aopt.WithAPIKey("sk-ant-test-not-a-secret"), aopt.WithMaxRetries(0))
}

// a system prompt long enough to be cached (over Sonnet's 1,024 tokens)
var anthropicSystem = strings.Repeat("You are a careful coding agent. ", 300)

func anthropicParams(msgs ...anthropic.MessageParam) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 1024,
		System:    []anthropic.TextBlockParam{{Text: anthropicSystem, CacheControl: anthropic.NewCacheControlEphemeralParam()}},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "Read", InputSchema: anthropic.ToolInputSchemaParam{
			Properties: map[string]any{"file_path": map[string]any{"type": "string"}}}}}},
		Messages: msgs,
	}
}

func TestAnthropicSDK(t *testing.T) {
	s, err := script.Parse("s.yaml", []byte(anthropicScript))
	if err != nil {
		t.Fatal(err)
	}
	now := clock
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return now }})
	c := anthropicClient(srv)
	ctx := context.Background()
	user := anthropic.NewUserMessage(anthropic.NewTextBlock("What is in README.md?"))

	// 1. Streamed, with thinking and a tool call: accumulated by the SDK.
	st := c.Messages.NewStreaming(ctx, anthropicParams(user))
	var msg anthropic.Message
	kinds := map[string]int{}
	for st.Next() {
		ev := st.Current()
		kinds[ev.Type]++
		if err := msg.Accumulate(ev); err != nil {
			t.Fatalf("accumulate %s: %v", ev.Type, err)
		}
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"} { // the SDK drops ping itself
		if kinds[k] == 0 {
			t.Errorf("no %s event (got %v)", k, kinds)
		}
	}
	if len(msg.Content) != 3 || msg.Content[0].Type != "thinking" || msg.Content[0].Thinking != "Read the file first." ||
		msg.Content[1].Text != "Reading it." || msg.Content[2].Type != "tool_use" || msg.Content[2].Name != "Read" {
		t.Fatalf("content %+v", msg.Content)
	}
	var in struct {
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal(msg.Content[2].Input, &in); err != nil || in.FilePath != "/work/README.md" {
		t.Fatalf("tool input %s: %v", msg.Content[2].Input, err)
	}
	if msg.StopReason != "tool_use" || msg.ID != "msg_fake1" || msg.Model != "claude-sonnet-4-5" {
		t.Errorf("stop %q id %q model %q", msg.StopReason, msg.ID, msg.Model)
	}
	first := msg.Usage
	if first.CacheCreationInputTokens == 0 || first.CacheReadInputTokens != 0 || first.CacheCreation.Ephemeral5mInputTokens != first.CacheCreationInputTokens || first.OutputTokens == 0 {
		t.Fatalf("first usage %+v: want the system prompt written", first)
	}

	// 2. The tool's result, streamed: the answer, and the system prompt read from the cache.
	now = now.Add(time.Minute)
	result := anthropic.NewUserMessage(anthropic.NewToolResultBlock(msg.Content[2].ID, "# lembas-check", false))
	st = c.Messages.NewStreaming(ctx, anthropicParams(user, msg.ToParam(), result))
	var msg2 anthropic.Message
	for st.Next() {
		if err := msg2.Accumulate(st.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if len(msg2.Content) != 1 || msg2.Content[0].Text != "It is a checker." || msg2.StopReason != "end_turn" {
		t.Fatalf("second %+v", msg2)
	}
	if msg2.Usage.CacheReadInputTokens != first.CacheCreationInputTokens || msg2.Usage.CacheCreationInputTokens != 0 {
		t.Fatalf("second usage %+v: want the %d tokens written first read", msg2.Usage, first.CacheCreationInputTokens)
	}

	// 3. Not streamed.
	now = now.Add(time.Minute)
	m3, err := c.Messages.New(ctx, anthropicParams(user))
	if err != nil {
		t.Fatal(err)
	}
	if m3.Content[0].Text != "non-streamed" || m3.Usage.CacheReadInputTokens != first.CacheCreationInputTokens {
		t.Fatalf("third %+v", m3)
	}
	// 4. Refreshed by that read: four minutes later still there; six minutes later gone.
	now = now.Add(4 * time.Minute)
	if m, err := c.Messages.New(ctx, anthropicParams(user)); err != nil || m.Usage.CacheReadInputTokens == 0 {
		t.Fatalf("4 min after the last read: %+v %v", m, err)
	}
	now = now.Add(6 * time.Minute)
	m5, err := c.Messages.New(ctx, anthropicParams(user))
	if err != nil || m5.Usage.CacheReadInputTokens != 0 || m5.Usage.CacheCreationInputTokens != first.CacheCreationInputTokens {
		t.Fatalf("idle past the TTL: %+v %v", m5, err)
	}

	// count_tokens
	ct, err := c.Messages.CountTokens(ctx, anthropic.MessageCountTokensParams{Model: "claude-sonnet-4-5",
		Messages: []anthropic.MessageParam{user}})
	if err != nil || ct.InputTokens < 5 {
		t.Fatalf("count_tokens %+v %v", ct, err)
	}
}

func TestAnthropicSDKErrors(t *testing.T) {
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Models: []string{"claude-sonnet-4-5"}})
	c := anthropicClient(srv)
	ctx := context.Background()
	cc := anthropic.NewCacheControlEphemeralParam()
	var blocks []anthropic.ContentBlockParamUnion
	for i := 0; i < 4; i++ {
		blocks = append(blocks, anthropic.ContentBlockParamUnion{OfText: &anthropic.TextBlockParam{Text: "part", CacheControl: cc}})
	}
	p := anthropicParams(anthropic.NewUserMessage(blocks...)) // 4 here and the system's: 5
	_, err := c.Messages.New(ctx, p)
	var ae *anthropic.Error
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest || !strings.Contains(ae.Error(), "A maximum of 4 blocks with cache_control may be provided. Found 5.") || !strings.Contains(ae.Error(), "invalid_request_error") {
		t.Fatalf("five breakpoints: %v", err)
	}
	p.Model = "claude-unknown"
	p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}
	_, err = c.Messages.New(ctx, p)
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusNotFound || !strings.Contains(ae.Error(), "not_found_error") {
		t.Fatalf("unknown model: %v", err)
	}
	// The default policy calls Claude Code's Read with file_path.
	p.Model = "claude-sonnet-4-5"
	m, err := c.Messages.New(ctx, p)
	if err != nil || len(m.Content) == 0 || m.Content[len(m.Content)-1].Name != "Read" || !strings.Contains(string(m.Content[len(m.Content)-1].Input), `"file_path":"README.md"`) {
		t.Fatalf("default policy: %+v %v", m, err)
	}
}

// A scripted error in the middle of a stream is Anthropic's `event: error`, which the SDK raises.
func TestAnthropicSDKErrorMidStream(t *testing.T) {
	s, err := script.Parse("s.yaml", []byte("models: [claude-sonnet-4-5]\nreplies:\n  - {text: \"a long answer cut short\", chunk: 2, fault: {status: 529, error_after: 4}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s})
	c := anthropicClient(srv)
	st := c.Messages.NewStreaming(context.Background(), anthropicParams(anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))))
	n := 0
	for st.Next() {
		n++
	}
	if err := st.Err(); err == nil || !strings.Contains(err.Error(), "overloaded_error") || n == 0 {
		t.Fatalf("after %d events: %v, want overloaded_error", n, err)
	}
	if _, err := script.Parse("s.yaml", []byte("- {text: x, fault: {error_after: 2}}\n")); err == nil || !strings.Contains(err.Error(), "error_after: give the error's status too") {
		t.Errorf("error_after without a status: %v", err)
	}
}

// The fake keys Anthropic's messages cache by the anthropic-beta header as the audit does
// (cachesim.KeyHeaders): the same request with another beta reads the system prompt's entry
// and loses the messages' one. The fake read the body alone and answered the whole prompt read.
func TestAnthropicBetaHeaderKeysTheCache(t *testing.T) {
	s, err := script.Parse("s.yaml", []byte("models: [claude-sonnet-4-5]\nreplies: [{text: a}, {text: b}, {text: c}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return clock }})
	mark := map[string]string{"type": "ephemeral"}
	body, err := json.Marshal(map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 100,
		"system":   []any{map[string]any{"type": "text", "text": anthropicSystem, "cache_control": mark}},
		"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": strings.Repeat("Read the notes. ", 100), "cache_control": mark}}}}})
	if err != nil {
		t.Fatal(err)
	}
	type usage struct {
		Read    int `json:"cache_read_input_tokens"`
		Written int `json:"cache_creation_input_tokens"`
	}
	send := func(beta string) usage {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages", strings.NewReader(string(body)))
		req.Header.Set("anthropic-version", "2023-06-01")
		if beta != "" {
			req.Header.Set("anthropic-beta", beta)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m struct{ Usage usage }
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %v", resp.StatusCode, err)
		}
		return m.Usage
	}
	first := send("")
	same := send("")
	other := send("context-1m-2025-08-07")
	if first.Written == 0 || same.Read != first.Written {
		t.Fatalf("first %+v, again %+v: want the whole prompt written, then read", first, same)
	}
	if other.Read == 0 || other.Read >= same.Read || other.Written == 0 {
		t.Errorf("another anthropic-beta: %+v; want the system prompt read (%d in all before) and the messages written again", other, same.Read)
	}
}
