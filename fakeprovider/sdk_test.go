package fakeprovider_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// The official Go SDK drives the fake, streaming and not, with tool calls: every field the script
// and the server set comes back through the SDK as set.

const sdkScript = `
replies:
  - &answer
    reasoning: "The user wants the file; read it, then list."
    text: "I will read it — “README.md” first."
    tool_calls:
      - {id: call_read, name: read, arguments: {path: README.md, limit: 40}}
      - {id: call_ls, name: bash, arguments: '{"command":"ls -la"}'}
    chunk: 3
  - *answer
  - {text: "All done: 2 files.", finish_reason: length}
  - {text: "All done: 2 files.", finish_reason: length}
`

var clock = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func sdkClient(srv *fakeprovider.Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(srv.BaseURL()+"/"), option.WithAPIKey("sk-test-not-a-secret"), option.WithMaxRetries(0))
}

func chatParams() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: "fake-model",
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You are a coding agent."),
			openai.UserMessage("What is in README.md?"),
		},
		Tools: []openai.ChatCompletionToolUnionParam{
			openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "read", Parameters: shared.FunctionParameters{
				"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}),
			openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "bash", Parameters: shared.FunctionParameters{
				"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}}}),
		},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
}

// view is what a client reads from a chat completion.
type view struct {
	ID, Model, Object, Fingerprint, ServiceTier string
	Created                                     int64
	Role, Content, Reasoning, Finish            string
	Calls                                       [][3]string
	Prompt, Cached, Completion, Total           int64
}

func viewOf(c *openai.ChatCompletion) view {
	v := view{ID: c.ID, Model: c.Model, Object: string(c.Object), Fingerprint: c.SystemFingerprint, ServiceTier: string(c.ServiceTier), Created: c.Created,
		Prompt: c.Usage.PromptTokens, Cached: c.Usage.PromptTokensDetails.CachedTokens, Completion: c.Usage.CompletionTokens, Total: c.Usage.TotalTokens}
	ch := c.Choices[0]
	v.Role, v.Content, v.Finish = string(ch.Message.Role), ch.Message.Content, ch.FinishReason
	if f, ok := ch.Message.JSON.ExtraFields["reasoning_content"]; ok {
		json.Unmarshal([]byte(f.Raw()), &v.Reasoning)
	}
	for _, tc := range ch.Message.ToolCalls {
		v.Calls = append(v.Calls, [3]string{tc.ID, tc.Function.Name, tc.Function.Arguments})
	}
	return v
}

func TestSDKChatCompletions(t *testing.T) {
	s, err := script.Parse("sdk.yaml", []byte(sdkScript))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovider.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return clock }})
	client := sdkClient(srv)
	ctx := context.Background()
	calls := [][3]string{{"call_read", "read", `{"path":"README.md","limit":40}`}, {"call_ls", "bash", `{"command":"ls -la"}`}}

	// Not streamed.
	got, err := client.Chat.Completions.New(ctx, chatParams())
	if err != nil {
		t.Fatal(err)
	}
	plain := viewOf(got)
	want := view{ID: "chatcmpl-fake1", Model: "fake-model", Object: "chat.completion", Fingerprint: "fp_lembascheck", ServiceTier: "default",
		Created: clock.Unix(), Role: "assistant", Content: "I will read it — “README.md” first.", Reasoning: "The user wants the file; read it, then list.",
		Finish: "tool_calls", Calls: calls, Prompt: plain.Prompt, Completion: plain.Completion, Total: plain.Prompt + plain.Completion}
	if d := cmp.Diff(want, plain); d != "" {
		t.Errorf("non-streamed (-want +got)\n%s", d)
	}
	if plain.Prompt < 10 || plain.Completion < 10 {
		t.Errorf("usage %+v", got.Usage)
	}

	// Streamed: the accumulated completion is the same, but for its id and the cache.
	stream := client.Chat.Completions.NewStreaming(ctx, chatParams())
	var acc openai.ChatCompletionAccumulator
	var finished []string
	var chunks int
	var reasoning string
	for stream.Next() {
		c := stream.Current()
		chunks++
		if !acc.AddChunk(c) {
			t.Fatalf("the accumulator refused chunk %d: %s", chunks, c.RawJSON())
		}
		if tc, ok := acc.JustFinishedToolCall(); ok {
			finished = append(finished, tc.Name+" "+tc.Arguments)
		}
		for _, ch := range c.Choices {
			if f, ok := ch.Delta.JSON.ExtraFields["reasoning_content"]; ok {
				var s string
				json.Unmarshal([]byte(f.Raw()), &s)
				reasoning += s
			}
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	streamed := viewOf(&acc.ChatCompletion)
	streamed.Reasoning = reasoning
	want.ID = "chatcmpl-fake2"
	want.Cached = streamed.Cached
	if d := cmp.Diff(want, streamed); d != "" {
		t.Errorf("streamed (-want +got)\n%s", d)
	}
	if streamed.Cached == 0 || streamed.Cached >= streamed.Prompt {
		t.Errorf("the second identical request should find most of its prompt cached: %d of %d", streamed.Cached, streamed.Prompt)
	}
	if d := cmp.Diff([]string{"read " + calls[0][2], "bash " + calls[1][2]}, finished); d != "" {
		t.Errorf("tool calls finished while streaming (-want +got)\n%s", d)
	}
	if chunks < 20 {
		t.Errorf("%d chunks: with chunk 3 the text and arguments should be split finely", chunks)
	}

	// The follow-up after the tool results: text with its finish reason, both ways.
	p := chatParams()
	p.Messages = append(p.Messages, got.Choices[0].Message.ToParam(),
		openai.ToolMessage("# Hello", "call_read"), openai.ToolMessage("a b", "call_ls"))
	last, err := client.Chat.Completions.New(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if c := last.Choices[0]; c.Message.Content != "All done: 2 files." || c.FinishReason != "length" || len(c.Message.ToolCalls) != 0 {
		t.Errorf("follow-up: %+v", c)
	}
	s2 := client.Chat.Completions.NewStreaming(ctx, p)
	acc = openai.ChatCompletionAccumulator{}
	for s2.Next() {
		acc.AddChunk(s2.Current())
	}
	if s2.Err() != nil || acc.Choices[0].Message.Content != "All done: 2 files." || acc.Choices[0].FinishReason != "length" {
		t.Errorf("streamed follow-up: %v %+v", s2.Err(), acc.Choices)
	}
	if acc.Usage.PromptTokensDetails.CachedTokens < last.Usage.PromptTokens/2 {
		t.Errorf("the repeated follow-up should be mostly cached: %+v", acc.Usage)
	}
}

func TestSDKModels(t *testing.T) {
	srv := fakeprovider.NewWith(t, fakeprovider.Config{Models: []string{"a", "b"}})
	client := sdkClient(srv)
	page, err := client.Models.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	if d := cmp.Diff([]string{"a", "b"}, ids); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func responsesParams() responses.ResponseNewParams {
	return responses.ResponseNewParams{
		Model:        "fake-model",
		Instructions: openai.String("You are a coding agent."),
		Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String("What is in README.md?")},
		Tools: []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{
			Name: "read_file", Parameters: map[string]any{"type": "object", "properties": map[string]any{"file_path": map[string]any{"type": "string"}}}}}},
	}
}

type rview struct {
	ID, Model, Status, Text, Reasoning string
	Calls                              [][3]string
	Input, Cached, Output, Total       int64
}

func rviewOf(r *responses.Response) rview {
	v := rview{ID: r.ID, Model: string(r.Model), Status: string(r.Status), Text: r.OutputText(),
		Input: r.Usage.InputTokens, Cached: r.Usage.InputTokensDetails.CachedTokens, Output: r.Usage.OutputTokens, Total: r.Usage.TotalTokens}
	for _, it := range r.Output {
		switch it.Type {
		case "function_call":
			v.Calls = append(v.Calls, [3]string{it.CallID, it.Name, it.Arguments.OfString})
		case "reasoning":
			for _, s := range it.Summary {
				v.Reasoning += s.Text
			}
		}
	}
	return v
}

func TestSDKResponses(t *testing.T) {
	s, err := script.Parse("r.yaml", []byte(`
replies:
  - &a {reasoning: "Think first.", text: "Reading it.", read: README.md, chunk: 4}
  - *a
`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovider.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return clock }})
	client := sdkClient(srv)
	ctx := context.Background()
	got, err := client.Responses.New(ctx, responsesParams())
	if err != nil {
		t.Fatal(err)
	}
	plain := rviewOf(got)
	want := rview{ID: "resp_fake1", Model: "fake-model", Status: "completed", Text: "Reading it.", Reasoning: "Think first.",
		Calls: [][3]string{{"call_1_0", "read_file", `{"file_path":"README.md"}`}}, Input: plain.Input, Output: plain.Output, Total: plain.Input + plain.Output}
	if d := cmp.Diff(want, plain); d != "" {
		t.Errorf("non-streamed (-want +got)\n%s", d)
	}

	stream := client.Responses.NewStreaming(ctx, responsesParams())
	var text, args, reasoning string
	var types []string
	var done *responses.Response
	for stream.Next() {
		ev := stream.Current()
		if len(types) == 0 || types[len(types)-1] != ev.Type {
			types = append(types, ev.Type)
		}
		switch ev.Type {
		case "response.output_text.delta":
			text += ev.Delta
		case "response.function_call_arguments.delta":
			args += ev.Delta
		case "response.reasoning_summary_text.delta":
			reasoning += ev.Delta
		case "response.completed":
			r := ev.AsResponseCompleted().Response
			done = &r
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if text != "Reading it." || args != `{"file_path":"README.md"}` || reasoning != "Think first." {
		t.Errorf("deltas: %q %q %q", text, args, reasoning)
	}
	wantTypes := []string{"response.created", "response.in_progress",
		"response.output_item.added", "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.output_item.done",
		"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done",
		"response.completed"}
	if d := cmp.Diff(wantTypes, types); d != "" {
		t.Errorf("event order (-want +got)\n%s", d)
	}
	if done == nil {
		t.Fatal("no response.completed")
	}
	streamed := rviewOf(done)
	want.ID, want.Calls[0][0], want.Cached = "resp_fake2", "call_2_0", streamed.Cached
	if d := cmp.Diff(want, streamed); d != "" {
		t.Errorf("streamed (-want +got)\n%s", d)
	}
	if streamed.Cached == 0 {
		t.Errorf("the repeated request found nothing cached: %+v", done.Usage)
	}
}
