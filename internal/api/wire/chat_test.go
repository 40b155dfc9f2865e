package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/google/go-cmp/cmp"
)

var meta = Meta{ID: "chatcmpl-x", Created: 1700000000, Model: "fake-model", Dialect: usage.OpenAI}

var full = Answer{
	Reasoning: "First, think.",
	Text:      "Here is the file: “ünïcode” and \"quotes\"\n",
	ToolCalls: []ToolCall{{ID: "call_1", Name: "read", Arguments: `{"path":"README.md"}`}, {ID: "call_2", Name: "bash", Arguments: `{"command":"ls -la /tmp"}`}},
}

// accumulate folds a chat stream back into an answer, as a client does.
func accumulate(t *testing.T, frames [][]byte) (Answer, map[string]any, []map[string]any) {
	t.Helper()
	var a Answer
	var usage map[string]any
	var chunks []map[string]any
	done := false
	for i, f := range frames {
		s := string(f)
		if !strings.HasPrefix(s, "data: ") || !strings.HasSuffix(s, "\n\n") || strings.Count(s, "\n") != 2 {
			t.Fatalf("frame %d is not one SSE data event: %q", i, s)
		}
		data := strings.TrimSuffix(strings.TrimPrefix(s, "data: "), "\n\n")
		if data == "[DONE]" {
			if i != len(frames)-1 {
				t.Fatalf("[DONE] at %d of %d", i, len(frames))
			}
			done = true
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content   *string `json:"content"`
					Reasoning *string `json:"reasoning_content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage map[string]any `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("frame %d: %v: %s", i, err, data)
		}
		var raw map[string]any
		json.Unmarshal([]byte(data), &raw)
		chunks = append(chunks, raw)
		if c.Usage != nil {
			usage = c.Usage
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				a.Text += *ch.Delta.Content
			}
			if ch.Delta.Reasoning != nil {
				a.Reasoning += *ch.Delta.Reasoning
			}
			for _, tc := range ch.Delta.ToolCalls {
				for len(a.ToolCalls) <= tc.Index {
					a.ToolCalls = append(a.ToolCalls, ToolCall{})
				}
				p := &a.ToolCalls[tc.Index]
				if tc.ID != "" {
					p.ID = tc.ID
				}
				p.Name += tc.Function.Name
				p.Arguments += tc.Function.Arguments
			}
			if ch.FinishReason != nil {
				a.FinishReason = *ch.FinishReason
			}
		}
	}
	if !done {
		t.Fatal("no [DONE]")
	}
	return a, usage, chunks
}

func TestChatStreamRoundTrips(t *testing.T) {
	for _, d := range usage.Dialects {
		for name, a := range map[string]Answer{
			"full":      full,
			"text":      {Text: "just words, several of them"},
			"tool only": {ToolCalls: full.ToolCalls[:1], Chunk: 3},
			"empty":     {},
			"length":    {Text: "cut", FinishReason: "length", Chunk: 1},
		} {
			t.Run(string(d)+"/"+name, func(t *testing.T) {
				m := meta
				m.Dialect = d
				u := Usage{Prompt: 100, Cached: 60, Completion: 9}
				frames := ChatStream(m, a, u, true)
				got, usage, chunks := accumulate(t, frames)
				want := a
				want.FinishReason = a.Finish()
				want.Chunk = 0
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("(-want +got)\n%s", d)
				}
				if usage == nil {
					t.Fatal("no usage chunk")
				}
				last := chunks[len(chunks)-1]
				if ch, _ := last["choices"].([]any); ch == nil || len(ch) != 0 {
					t.Errorf("usage chunk's choices %v, want []", last["choices"])
				}
				if usage["prompt_tokens"] != 100.0 || usage["total_tokens"] != 109.0 {
					t.Errorf("usage %v", usage)
				}
				for i, c := range chunks {
					if c["id"] != "chatcmpl-x" || c["model"] != "fake-model" || c["object"] != "chat.completion.chunk" {
						t.Errorf("chunk %d envelope %v", i, c)
					}
				}
				// Without include_usage: no usage chunk, no usage key (OpenAI sends "usage": null only when asked).
				for _, f := range ChatStream(m, a, u, false) {
					if bytes.Contains(f, []byte(`"usage"`)) {
						t.Fatalf("usage without include_usage: %s", f)
					}
				}
			})
		}
	}
}

func TestChatBody(t *testing.T) {
	for _, d := range usage.Dialects {
		m := meta
		m.Dialect = d
		b := ChatBody(m, full, Usage{Prompt: 10, Cached: 4, Completion: 3})
		var got struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Choices []struct {
				Message struct {
					Role      string  `json:"role"`
					Content   *string `json:"content"`
					Reasoning string  `json:"reasoning_content"`
					ToolCalls []struct {
						ID       string `json:"id"`
						Type     string `json:"type"`
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				} `json:"message"`
				FinishReason string `json:"finish_reason"`
			} `json:"choices"`
			Usage map[string]any `json:"usage"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v\n%s", d, err, b)
		}
		msg := got.Choices[0].Message
		if got.ID != "chatcmpl-x" || got.Object != "chat.completion" || msg.Role != "assistant" || msg.Content == nil || *msg.Content != full.Text ||
			msg.Reasoning != full.Reasoning || len(msg.ToolCalls) != 2 || msg.ToolCalls[1].Function.Arguments != full.ToolCalls[1].Arguments ||
			msg.ToolCalls[0].Type != "function" || got.Choices[0].FinishReason != "tool_calls" {
			t.Errorf("%s: %s", d, b)
		}
		want := map[usage.Dialect][]string{
			usage.OpenAI:    {"prompt_tokens_details", "completion_tokens_details"},
			usage.LlamaCpp:  {"prompt_tokens_details"},
			usage.DeepSeek:  {"prompt_cache_hit_tokens", "prompt_cache_miss_tokens"},
			usage.Anthropic: {"input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"},
		}[d]
		for _, k := range want {
			if _, ok := got.Usage[k]; !ok {
				t.Errorf("%s: usage lacks %s: %v", d, k, got.Usage)
			}
		}
	}
}

// The dialects' cache fields say the same thing in their own words.
func TestUsageDialects(t *testing.T) {
	u := Usage{Prompt: 1074, Cached: 1052, Completion: 8}
	get := func(d usage.Dialect) map[string]any {
		m := meta
		m.Dialect = d
		var v struct {
			Usage   map[string]any `json:"usage"`
			Timings map[string]any `json:"timings"`
		}
		if err := json.Unmarshal(ChatBody(m, Answer{Text: "x"}, u), &v); err != nil {
			t.Fatal(err)
		}
		for k, x := range v.Timings {
			v.Usage["timings."+k] = x
		}
		return v.Usage
	}
	o, l, ds, an := get(usage.OpenAI), get(usage.LlamaCpp), get(usage.DeepSeek), get(usage.Anthropic)
	cached := func(m map[string]any) any { return m["prompt_tokens_details"].(map[string]any)["cached_tokens"] }
	checks := []struct {
		what      string
		got, want any
	}{
		{"openai cached", cached(o), 1052.0},
		{"llamacpp cached", cached(l), 1052.0},
		{"llamacpp cache_n", l["timings.cache_n"], 1052.0},
		{"llamacpp prompt_n", l["timings.prompt_n"], 22.0},
		{"llamacpp predicted_n", l["timings.predicted_n"], 8.0},
		{"deepseek hit", ds["prompt_cache_hit_tokens"], 1052.0},
		{"deepseek miss", ds["prompt_cache_miss_tokens"], 22.0},
		{"anthropic read", an["cache_read_input_tokens"], 1052.0},
		{"anthropic input", an["input_tokens"], 22.0},
		{"anthropic creation", an["cache_creation_input_tokens"], 0.0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if r := l["timings.prompt_per_second"].(float64); r < 3000 || r > 5000 {
		t.Errorf("modelled prompt speed %v tokens/s, want llama-server's ~3800", r)
	}
}

func TestPieces(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		args bool
		want []string
	}{
		{"Hello world, how are you", 0, false, []string{"Hello", " world,", " how", " are", " you"}},
		{"  lead\nand\ttabs ", 0, false, []string{"  lead", "\nand", "\ttabs", " "}},
		{"héllo", 2, false, []string{"hé", "ll", "o"}},
		{`{"path":"README.md"}`, 0, true, []string{`{"path":`, `"README.`, `md"}`}},
		{"", 0, false, nil},
	} {
		if d := cmp.Diff(c.want, Pieces(c.s, c.n, c.args)); d != "" {
			t.Errorf("Pieces(%q, %d): (-want +got)\n%s", c.s, c.n, d)
		}
		if got := PieceCount(c.s, c.n, c.args); got != len(c.want) {
			t.Errorf("PieceCount(%q, %d) = %d, want %d", c.s, c.n, got, len(c.want))
		}
	}
}

// FuzzPieces: the pieces join back to the text, none is empty, and none cuts a character.
func FuzzPieces(f *testing.F) {
	f.Add("Hello world", 0, false)
	f.Add("日本語のテキスト", 3, true)
	f.Add("\xff\xfe bad", 1, false)
	f.Fuzz(func(t *testing.T, s string, n int, args bool) {
		n %= 64
		ps := Pieces(s, n, args)
		if k := PieceCount(s, n, args); k != len(ps) {
			t.Fatalf("PieceCount %d, %d pieces", k, len(ps))
		}
		if strings.Join(ps, "") != s {
			t.Fatalf("pieces %q do not join to %q", ps, s)
		}
		for _, p := range ps {
			if p == "" || (utf8.ValidString(s) && !utf8.ValidString(p)) {
				t.Fatalf("bad piece %q of %q", p, s)
			}
		}
	})
}

// The fake writes a string's \b and \f as encoding/json and Python's json.dumps do, not as
// \u0008 / \u000c (its own writer did until it became jsonx's; FuzzAppendIsMarshal holds that
// one to encoding/json byte for byte).
func TestStringEscapesAreEncodingJSONs(t *testing.T) {
	if got, want := string(appendString(nil, "\b\f\x01<é")), `"\b\f\u0001<é"`; got != want {
		t.Errorf("appendString wrote %s, want %s", got, want)
	}
}

// AppendChatStream renders the same events into a buffer a server reuses, after what it holds.
func TestAppendChatStream(t *testing.T) {
	want := ChatStream(meta, full, Usage{Prompt: 3}, true)
	buf := append(make([]byte, 0, 64), "keep"...)
	got, out := AppendChatStream(buf, meta, full, Usage{Prompt: 3}, true)
	if string(out[:4]) != "keep" {
		t.Errorf("the buffer's own bytes were overwritten: %q", out[:4])
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-ChatStream +AppendChatStream)\n%s", d)
	}
	// A frame cannot grow into the next.
	_ = append(got[0], 'X')
	if got[1][0] != 'd' {
		t.Error("appending to a frame overwrote the next")
	}
}
