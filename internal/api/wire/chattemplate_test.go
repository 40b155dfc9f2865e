package wire

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
)

// render is AppendChatStream without the memo: every chunk rendered.
func render(buf []byte, m Meta, a Answer, u Usage, includeUsage bool) ([][]byte, []byte) {
	c := newChunker(m, includeUsage && m.Dialect != usage.LlamaCpp)
	c.out = buf
	c.answer(a)
	return c.finish(len(buf), u, includeUsage)
}

// TestChatTemplateIsRendered holds a stream made from its template to the one rendered chunk by
// chunk, byte for byte and event for event, for answers whose text looks like the placeholders.
func TestChatTemplateIsRendered(t *testing.T) {
	texts := []string{"", "Done.", "The README describes a checker:\n it runs\tcases.", `"id":"\u0000lembas-template\u0000"`,
		"\x00lembas-template\x00 \"created\":-7340032734003273400", "naïve café — 日本語 \u2028 \xff"}
	metas := []Meta{{ID: "chatcmpl-fake12", Created: 1764672000, Model: "fake-model"},
		{ID: `odd "id"\`, Created: -1, Model: `m"\u0000`}, {ID: "", Created: 0, Model: ""}}
	u := Usage{Prompt: 812, Cached: 512, Completion: 36, Reasoning: 4, PromptMS: 1.5, PredictedMS: 9}
	n := 0
	for _, d := range []usage.Dialect{usage.OpenAI, usage.LlamaCpp, usage.DeepSeek, usage.VLLM, usage.Anthropic} {
		for _, text := range texts {
			for _, a := range []Answer{{Text: text}, {Text: text, Reasoning: "thinking it over", Chunk: 3},
				{Text: text, Choices: 2, FinishReason: "length"}} {
				for _, inc := range []bool{false, true} {
					for _, m := range metas {
						m.Dialect = d
						// Made for another stream of the same model: its id and time are not kept.
						tm := m
						tm.ID, tm.Created = "chatcmpl-other", 99
						tpl := newChatTemplate(tm, a, inc)
						if tpl == nil {
							t.Fatalf("%s %q: no template", d, text)
						}
						name := fmt.Sprintf("%s/%q/%+v/%v", d, text, m, inc)
						prefix := []byte("kept")
						want, wb := render(append([]byte(nil), prefix...), m, a, u, inc)
						got, gb := tpl.fill(append([]byte(nil), prefix...), m, u, inc)
						if !bytes.Equal(gb, wb) {
							t.Fatalf("%s:\n got %s\nwant %s", name, gb, wb)
						}
						if len(got) != len(want) {
							t.Fatalf("%s: %d events, want %d", name, len(got), len(want))
						}
						for i := range want {
							if !bytes.Equal(got[i], want[i]) {
								t.Fatalf("%s: event %d\n got %s\nwant %s", name, i, got[i], want[i])
							}
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d streams", n)
}

// TestChatTemplateMemo: an answer gets its template the second time it is streamed, and a stream
// from it is ChatStream's; answers that have none are rendered.
func TestChatTemplateMemo(t *testing.T) {
	m := Meta{ID: "chatcmpl-fake1", Created: 7, Model: "memo-model", Dialect: usage.OpenAI}
	a := Answer{Text: "a reply seen twice"}
	if chatTemplateFor(m, a, true) != nil {
		t.Fatal("a template on first sight")
	}
	if chatTemplateFor(m, a, true) == nil {
		t.Fatal("no template on second sight")
	}
	u := Usage{Prompt: 3, Completion: 4}
	got, _ := AppendChatStream(nil, m, a, u, true)
	want, _ := render(nil, m, a, u, true)
	if !bytes.Equal(bytes.Join(got, nil), bytes.Join(want, nil)) || len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for _, b := range []Answer{{Text: "x", ToolCalls: []ToolCall{{ID: "c", Name: "read"}}},
		{Text: "x", Logprobs: &Logprobs{Tokens: []string{"x"}}}, {Text: string(make([]byte, 2<<10))}} {
		chatTemplateFor(m, b, true)
		if chatTemplateFor(m, b, true) != nil {
			t.Errorf("a template for %+v", b)
		}
	}
}
