package fakeprovider_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
)

// Gemini's maxOutputTokens and stopSequences, and Messages' stop_sequences, are honoured as the
// APIs do: the text cut at the bound (MAX_TOKENS) or before the stop sequence (STOP;
// stop_reason stop_sequence naming the one matched).

const boundsScript = `
models: [gemini-2.5-pro, claude-sonnet-4-5]
replies:
  - {text: "one two three four five six seven eight nine ten eleven twelve END thirteen"}
  - {text: "one two three four five six seven eight nine ten eleven twelve END thirteen"}
`

func boundsServer(t *testing.T) *fakeprovider.Server {
	s, err := script.Parse("s.yaml", []byte(boundsScript))
	if err != nil {
		t.Fatal(err)
	}
	return fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s})
}

func TestGeminiHonoursMaxOutputTokensAndStop(t *testing.T) {
	srv := boundsServer(t)
	url := srv.URL + "/v1beta/models/gemini-2.5-pro:generateContent"
	for _, c := range []struct{ config, finish, text string }{
		{`{"maxOutputTokens":3}`, "MAX_TOKENS", ""},
		{`{"stopSequences":["END","seven"]}`, "STOP", "one two three four five six "},
	} {
		resp, body := geminiPost(t, url, `{"contents":[{"role":"user","parts":[{"text":"count"}]}],"generationConfig":`+c.config+`}`)
		var out struct {
			Candidates []struct {
				Content      struct{ Parts []struct{ Text string } }
				FinishReason string
			}
			UsageMetadata struct{ CandidatesTokenCount int }
		}
		if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &out) != nil || len(out.Candidates) != 1 {
			t.Fatalf("%s: %d %s", c.config, resp.StatusCode, body)
		}
		got := out.Candidates[0]
		text := ""
		for _, p := range got.Content.Parts {
			text += p.Text
		}
		if got.FinishReason != c.finish {
			t.Errorf("%s: finishReason %s, want %s", c.config, got.FinishReason, c.finish)
		}
		if c.finish == "MAX_TOKENS" {
			if n := out.UsageMetadata.CandidatesTokenCount; n > 3 || n == 0 || !strings.HasPrefix(boundsText, text) || text == boundsText {
				t.Errorf("%s: %d candidate tokens, text %q: want at most 3, cut", c.config, n, text)
			}
		} else if text != c.text {
			t.Errorf("%s: text %q, want %q", c.config, text, c.text)
		}
	}
}

const boundsText = "one two three four five six seven eight nine ten eleven twelve END thirteen"

func TestAnthropicHonoursStopSequences(t *testing.T) {
	srv := boundsServer(t)
	client := anthropicClient(srv)
	params := anthropic.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024, StopSequences: []string{"END", "ten"},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("count"))}}
	m, err := client.Messages.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if m.StopReason != "stop_sequence" || m.StopSequence != "ten" || m.Content[0].Text != "one two three four five six seven eight nine " {
		t.Errorf("stop_reason %q, stop_sequence %q, text %q", m.StopReason, m.StopSequence, m.Content[0].Text)
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
	if acc.StopReason != "stop_sequence" || acc.StopSequence != "ten" {
		t.Errorf("streamed: stop_reason %q, stop_sequence %q", acc.StopReason, acc.StopSequence)
	}
}
