package fakeprovider_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
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
	//lint:ignore SA1019 the fake still sends system_fingerprint, as OpenAI does, so the SDK's view of it is checked
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
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return clock }})
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
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Models: []string{"a", "b"}})
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
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return clock }})
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

// Custom tools (free-form and grammar) round-trip through the SDK in both APIs, streamed and
// not: a custom_tool_call item with its input, a chat tool call of type custom.
func TestSDKCustomTools(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.txt\n+<hello> & bye\n*** End Patch"
	s, err := script.Parse("c.yaml", []byte(`
rules:
  - when: {tool_result: false}
    reply: {tool_calls: [{id: call_p, name: apply_patch, input: "`+strings.ReplaceAll(patch, "\n", `\n`)+`"}], chunk: 5}
  - when: {tool_result: true}
    reply: {text: "patched"}
`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovidertest.New(t, s)
	client := sdkClient(srv)
	ctx := context.Background()
	grammar := shared.CustomToolInputFormatUnionParam{OfGrammar: &shared.CustomToolInputFormatGrammarParam{Definition: "start: /(.|\\n)+/", Syntax: "lark"}}
	rp := responses.ResponseNewParams{Model: "fake-model", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Add a.txt")},
		Tools: []responses.ToolUnionParam{{OfCustom: &responses.CustomToolParam{Name: "apply_patch", Format: grammar}}}}
	r, err := client.Responses.New(ctx, rp)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Output) != 1 || r.Output[0].Type != "custom_tool_call" || r.Output[0].AsCustomToolCall().Input != patch || r.Output[0].CallID != "call_p" {
		t.Fatalf("output %s", r.RawJSON())
	}
	stream := client.Responses.NewStreaming(ctx, rp)
	var deltas string
	var done string
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.custom_tool_call_input.delta":
			deltas += ev.Delta
		case "response.custom_tool_call_input.done":
			done = ev.Input
		}
	}
	if stream.Err() != nil || deltas != patch || done != patch {
		t.Errorf("stream: %v %q %q", stream.Err(), deltas, done)
	}
	// Chat: a custom tool and its call.
	cp := openai.ChatCompletionNewParams{Model: "fake-model", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Add a.txt")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionCustomTool(openai.ChatCompletionCustomToolCustomParam{Name: "apply_patch"})}}
	c, err := client.Chat.Completions.New(ctx, cp)
	if err != nil {
		t.Fatal(err)
	}
	tc := c.Choices[0].Message.ToolCalls
	if len(tc) != 1 || tc[0].Type != "custom" || tc[0].AsCustom().Custom.Input != patch || tc[0].AsCustom().Custom.Name != "apply_patch" {
		t.Fatalf("chat: %s", c.RawJSON())
	}
	cs := client.Chat.Completions.NewStreaming(ctx, cp)
	var input string
	for cs.Next() {
		for _, ch := range cs.Current().Choices {
			for _, d := range ch.Delta.ToolCalls {
				if f, ok := d.JSON.ExtraFields["custom"]; ok {
					var v struct {
						Input string `json:"input"`
					}
					json.Unmarshal([]byte(f.Raw()), &v)
					input += v.Input
				}
			}
		}
	}
	if cs.Err() != nil || input != patch {
		t.Errorf("chat stream: %v %q", cs.Err(), input)
	}
}

// The parameters a model honours, through the SDK: max_tokens ends with length (Responses:
// incomplete), stop cuts, n gives choices, logprobs are well formed, a json_schema answer
// validates, tool_choice none never calls.
func TestSDKParams(t *testing.T) {
	s, _ := script.Parse("p.yaml", []byte("default: {}\n"))
	srv := fakeprovidertest.New(t, s)
	client := sdkClient(srv)
	ctx := context.Background()
	long := script.Default()
	long.Replies = []script.Reply{{Text: "alpha beta gamma delta epsilon zeta eta theta"}, {Text: "alpha beta gamma delta epsilon zeta eta theta"}}
	srvLong := fakeprovidertest.New(t, long)
	lc := sdkClient(srvLong)
	p := chatParams()
	p.Tools = nil
	p.MaxTokens = openai.Int(3)
	p.N = openai.Int(2)
	p.Logprobs = openai.Bool(true)
	p.TopLogprobs = openai.Int(2)
	c, err := lc.Chat.Completions.New(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices) != 2 || c.Choices[1].Index != 1 || c.Choices[0].FinishReason != "length" || c.Choices[0].Message.Content == "" ||
		strings.Count(c.Choices[0].Message.Content, " ") > 2 {
		t.Fatalf("n, max_tokens: %s", c.RawJSON())
	}
	lp := c.Choices[0].Logprobs.Content
	var joined string
	for _, tok := range lp {
		joined += tok.Token
		if tok.Logprob > 0 || len(tok.TopLogprobs) != 2 || tok.TopLogprobs[0].Token != tok.Token || tok.TopLogprobs[1].Logprob >= tok.TopLogprobs[0].Logprob || len(tok.Bytes) != len(tok.Token) {
			t.Errorf("logprob %+v", tok)
		}
	}
	if joined != c.Choices[0].Message.Content {
		t.Errorf("logprob tokens %q do not make the text %q", joined, c.Choices[0].Message.Content)
	}
	if c.Usage.CompletionTokens != 2*3 {
		t.Errorf("usage counts each choice: %d", c.Usage.CompletionTokens)
	}
	r, err := lc.Responses.New(ctx, responses.ResponseNewParams{Model: "fake-model", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")}, MaxOutputTokens: openai.Int(2)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "incomplete" || r.IncompleteDetails.Reason != "max_output_tokens" || r.Output[0].Status != "incomplete" {
		t.Errorf("max_output_tokens: %s", r.RawJSON())
	}
	// tool_choice none with a read tool offered: the default policy answers.
	p = chatParams()
	p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("none")}
	c, err = client.Chat.Completions.New(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices[0].Message.ToolCalls) != 0 || c.Choices[0].Message.Content != "done" {
		t.Errorf("tool_choice none: %s", c.RawJSON())
	}
	// A json_schema answer made from the schema.
	schema := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer"}, "b": map[string]any{"type": "string"}},
		"required": []string{"a", "b"}, "additionalProperties": false}
	r, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: "fake-model", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")},
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: "s", Schema: schema}}}})
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		A *int    `json:"a"`
		B *string `json:"b"`
	}
	if json.Unmarshal([]byte(r.OutputText()), &v) != nil || v.A == nil || v.B == nil {
		t.Errorf("json_schema: %q", r.OutputText())
	}
}
