package fakeprovider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"google.golang.org/genai"
)

// The official SDKs see the bounds honoured: Google's Gen AI Go SDK (genai) reads MAX_TOKENS with
// at most maxOutputTokens candidate tokens and STOP with the text cut before the stop sequence,
// streamed and not; anthropic-sdk-go reads max_tokens. Each reply is the same long text, so a
// fake that ignored a bound would answer STOP/end_turn with all of it.

func sdkBoundsServer(t *testing.T, n int) *fakeprovider.Server {
	t.Helper()
	src := "models: [gemini-2.5-pro, claude-sonnet-4-5]\nreplies:\n" +
		strings.Repeat("  - {text: \""+boundsText+"\"}\n", n)
	s, err := script.Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s})
}

func genaiClient(t *testing.T, srv *fakeprovider.Server) *genai.Client {
	t.Helper()
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "gemini-test-not-a-secret", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// genaiAnswer is what one GenerateContent call, or a whole GenerateContentStream, came to.
type genaiAnswer struct {
	text       string
	finish     genai.FinishReason
	candidates int32
}

func genaiGenerate(t *testing.T, client *genai.Client, config *genai.GenerateContentConfig, stream bool) genaiAnswer {
	t.Helper()
	ctx := context.Background()
	var a genaiAnswer
	add := func(r *genai.GenerateContentResponse) {
		if len(r.Candidates) != 1 {
			t.Fatalf("%d candidates, want 1", len(r.Candidates))
		}
		a.text += r.Text()
		if f := r.Candidates[0].FinishReason; f != "" {
			a.finish = f
		}
		if r.UsageMetadata != nil {
			a.candidates = r.UsageMetadata.CandidatesTokenCount
		}
	}
	if !stream {
		r, err := client.Models.GenerateContent(ctx, "gemini-2.5-pro", genai.Text("count"), config)
		if err != nil {
			t.Fatal(err)
		}
		add(r)
		return a
	}
	for r, err := range client.Models.GenerateContentStream(ctx, "gemini-2.5-pro", genai.Text("count"), config) {
		if err != nil {
			t.Fatal(err)
		}
		add(r)
	}
	return a
}

func TestGenaiSDKSeesBounds(t *testing.T) {
	client := genaiClient(t, sdkBoundsServer(t, 4))
	for _, stream := range []bool{false, true} {
		a := genaiGenerate(t, client, &genai.GenerateContentConfig{MaxOutputTokens: 3}, stream)
		if a.finish != genai.FinishReasonMaxTokens || a.candidates == 0 || a.candidates > 3 ||
			a.text == "" || a.text == boundsText || !strings.HasPrefix(boundsText, a.text) {
			t.Errorf("stream %v, MaxOutputTokens 3: finish %s, %d candidate tokens, text %q: want MAX_TOKENS, 1-3, cut",
				stream, a.finish, a.candidates, a.text)
		}
		a = genaiGenerate(t, client, &genai.GenerateContentConfig{StopSequences: []string{"END", "seven"}}, stream)
		if a.finish != genai.FinishReasonStop || a.text != "one two three four five six " {
			t.Errorf("stream %v, StopSequences: finish %s, text %q: want STOP, %q",
				stream, a.finish, a.text, "one two three four five six ")
		}
	}
}

func TestAnthropicSDKSeesMaxTokens(t *testing.T) {
	client := anthropicClient(sdkBoundsServer(t, 2))
	params := anthropic.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 3,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("count"))}}
	m, err := client.Messages.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if m.StopReason != anthropic.StopReasonMaxTokens || m.Usage.OutputTokens == 0 || m.Usage.OutputTokens > 3 ||
		len(m.Content) != 1 || m.Content[0].Text == boundsText || !strings.HasPrefix(boundsText, m.Content[0].Text) {
		t.Errorf("max_tokens 3: stop_reason %q, %d output tokens, %d blocks: want max_tokens, 1-3, cut",
			m.StopReason, m.Usage.OutputTokens, len(m.Content))
	}
	stream := client.Messages.NewStreaming(context.Background(), params)
	var acc anthropic.Message
	for stream.Next() {
		if err := acc.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if acc.StopReason != anthropic.StopReasonMaxTokens || acc.Usage.OutputTokens == 0 || acc.Usage.OutputTokens > 3 {
		t.Errorf("streamed max_tokens 3: stop_reason %q, %d output tokens", acc.StopReason, acc.Usage.OutputTokens)
	}
}
