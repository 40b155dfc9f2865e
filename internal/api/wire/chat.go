package wire

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
)

// The dialects a chat completion takes the shape of are package usage's (usage.Dialect): one
// type for the fake that writes them and the bench that reads them.

// ToolCall is one call of an answer. Arguments is sent as written, valid JSON or not; for a call
// of a custom tool (Custom), it is the tool's free-form input.
type ToolCall struct {
	ID, Name, Arguments string
	Custom              bool
	// Namespace is the namespace of the tool called (Responses), "" for none.
	Namespace string
}

// chatKind is how chat completions write the call: its type (also the key of the object naming
// it) and the key of its arguments.
func (c ToolCall) chatKind() (kind, field string) {
	if c.Custom {
		return "custom", "input"
	}
	return "function", "arguments"
}

// Answer is what the assistant says: reasoning, then text, then tool calls.
type Answer struct {
	Text, Reasoning string
	ToolCalls       []ToolCall
	// FinishReason defaults to "tool_calls" when there are tool calls, else "stop".
	FinishReason string
	// StopSequence is the stop sequence the text was cut before ("": none), which Messages
	// names in stop_sequence.
	StopSequence string
	// Chunk is how many characters (runes) a stream delta carries; 0 splits text before each
	// word (as a tokenizer roughly would) and tool arguments every 8 characters.
	Chunk int
	// Choices is how many choices a chat completion carries, each this answer (0: one).
	Choices int
	// Logprobs, when set, are the log probabilities sent with the text.
	Logprobs *Logprobs
	// Compaction, when set, is the summary of a compaction item put first in a Responses
	// output (context_management's threshold was reached).
	Compaction string
}

// Logprobs are the text's tokens, each sent with a log probability and Top alternatives.
type Logprobs struct {
	Tokens []string
	Top    int
}

// Finish is the answer's finish reason.
func (a *Answer) Finish() string {
	if a.FinishReason != "" {
		return a.FinishReason
	}
	if len(a.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// Usage is a request's token counts. PromptMS and PredictedMS feed llama.cpp's timings; zero
// means modelled from the counts (llamaPromptMS and llamaPredictMS a token).
type Usage struct {
	Prompt, Cached, Completion, Reasoning int
	PromptMS, PredictedMS                 float64
}

// Per-token times of the llama-server in testdata/llamacpp (CPU, small model), used when a reply
// sets no delays of its own.
const (
	llamaPromptMS  = 0.26
	llamaPredictMS = 3.3
)

// Meta is what every body and chunk of one completion repeats.
type Meta struct {
	ID      string
	Created int64
	Model   string
	Dialect usage.Dialect
}

// Fingerprints, so a recording shows which shape answered.
const (
	openaiFingerprint = "fp_lembascheck"
	llamaFingerprint  = "b1-lembas-check"
)

// ChatBody is a non-streamed chat completion.
func ChatBody(m Meta, a Answer, u Usage) []byte {
	e := enc{b: make([]byte, 0, 512+len(a.Text)+len(a.Reasoning)), first: true}
	e.obj()
	if m.Dialect == usage.LlamaCpp {
		e.key("choices")
		e.arr()
		for i := 0; i < max(a.Choices, 1); i++ {
			e.obj()
			e.kstr("finish_reason", a.Finish())
			e.kint("index", int64(i))
			e.key("message")
			message(&e, m.Dialect, a)
			e.end()
		}
		e.endArr()
		e.kint("created", m.Created)
		e.kstr("model", m.Model)
		e.kstr("system_fingerprint", llamaFingerprint)
		e.kstr("object", "chat.completion")
		e.key("usage")
		usageObject(&e, m.Dialect, u)
		e.kstr("id", m.ID)
		e.key("timings")
		timings(&e, u)
		e.end()
		return e.b
	}
	e.kstr("id", m.ID)
	e.kstr("object", "chat.completion")
	e.kint("created", m.Created)
	e.kstr("model", m.Model)
	e.key("choices")
	e.arr()
	for i := 0; i < max(a.Choices, 1); i++ {
		e.obj()
		e.kint("index", int64(i))
		e.key("message")
		message(&e, m.Dialect, a)
		e.key("logprobs")
		chatLogprobs(&e, a.Logprobs)
		e.kstr("finish_reason", a.Finish())
		e.end()
	}
	e.endArr()
	e.key("usage")
	usageObject(&e, m.Dialect, u)
	if m.Dialect == usage.OpenAI {
		e.kstr("service_tier", "default")
	}
	e.kstr("system_fingerprint", openaiFingerprint)
	e.end()
	return e.b
}

func message(e *enc, d usage.Dialect, a Answer) {
	e.obj()
	e.kstr("role", "assistant")
	if a.Text == "" && (len(a.ToolCalls) > 0 || d != usage.LlamaCpp) {
		e.knull("content")
	} else {
		e.kstr("content", a.Text)
	}
	if a.Reasoning != "" {
		e.kstr("reasoning_content", a.Reasoning)
	}
	if len(a.ToolCalls) > 0 {
		e.key("tool_calls")
		e.arr()
		for _, c := range a.ToolCalls {
			e.obj()
			e.kstr("id", c.ID)
			kind, field := c.chatKind()
			e.kstr("type", kind)
			e.key(kind)
			e.obj()
			e.kstr("name", c.Name)
			e.kstr(field, c.Arguments)
			e.end()
			e.end()
		}
		e.endArr()
	}
	if d != usage.LlamaCpp {
		e.knull("refusal")
		e.kstrs("annotations")
	}
	e.end()
}

func usageObject(e *enc, d usage.Dialect, u Usage) {
	fields, ok := usageFields[d]
	if !ok {
		fields = usageFields[usage.OpenAI]
	}
	e.obj()
	for _, f := range fields {
		f(e, u)
	}
	e.end()
}

// usageField writes one member of a chat completion's usage object.
type usageField func(e *enc, u Usage)

// usageFields are each dialect's usage members in the order its server writes them; a dialect
// not listed writes OpenAI's.
var usageFields = map[usage.Dialect][]usageField{
	usage.LlamaCpp: {completionTokens, promptTokens, totalTokens, cachedDetails},
	usage.DeepSeek: {promptTokens, completionTokens, totalTokens, cachedDetails,
		func(e *enc, u Usage) {
			e.kint("prompt_cache_hit_tokens", int64(u.Cached))
			e.kint("prompt_cache_miss_tokens", int64(u.Prompt-u.Cached))
			e.key("completion_tokens_details")
			e.obj()
			e.kint("reasoning_tokens", int64(u.Reasoning))
			e.end()
		}},
	// vLLM's UsageInfo: no audio or reasoning details; cached_tokens with
	// --enable-prompt-tokens-details, which the fake plays as on.
	usage.VLLM: {promptTokens, totalTokens, completionTokens, cachedDetails},
	// input + cache_read + cache_creation is the whole prompt, as Anthropic counts it; the
	// simulator does not bill cache writes, so creation is 0 and input is what was not read.
	usage.Anthropic: {promptTokens, completionTokens, totalTokens,
		func(e *enc, u Usage) {
			e.kint("input_tokens", int64(u.Prompt-u.Cached))
			e.kint("output_tokens", int64(u.Completion))
			e.kint("cache_read_input_tokens", int64(u.Cached))
			e.kint("cache_creation_input_tokens", 0)
		}},
	usage.OpenAI: {promptTokens, completionTokens, totalTokens,
		func(e *enc, u Usage) {
			e.key("prompt_tokens_details")
			e.obj()
			e.kint("cached_tokens", int64(u.Cached))
			e.kint("audio_tokens", 0)
			e.end()
			e.key("completion_tokens_details")
			e.obj()
			e.kint("reasoning_tokens", int64(u.Reasoning))
			e.kint("audio_tokens", 0)
			e.kint("accepted_prediction_tokens", 0)
			e.kint("rejected_prediction_tokens", 0)
			e.end()
		}},
}

func promptTokens(e *enc, u Usage)     { e.kint("prompt_tokens", int64(u.Prompt)) }
func completionTokens(e *enc, u Usage) { e.kint("completion_tokens", int64(u.Completion)) }
func totalTokens(e *enc, u Usage)      { e.kint("total_tokens", int64(u.Prompt+u.Completion)) }

// cachedDetails is prompt_tokens_details with cached_tokens alone.
func cachedDetails(e *enc, u Usage) {
	e.key("prompt_tokens_details")
	e.obj()
	e.kint("cached_tokens", int64(u.Cached))
	e.end()
}

// chatLogprobs writes a choice's logprobs: null when not asked for, else {"content": [...],
// "refusal": null}.
func chatLogprobs(e *enc, lp *Logprobs) {
	if lp == nil {
		e.null()
		return
	}
	e.obj()
	e.key("content")
	logprobList(e, lp)
	e.knull("refusal")
	e.end()
}

// timings is llama-server's: what came from the cache, what was processed now, and how fast.
func timings(e *enc, u Usage) {
	promptN := u.Prompt - u.Cached
	promptMS := u.PromptMS
	if promptMS == 0 {
		promptMS = float64(promptN) * llamaPromptMS
	}
	predMS := u.PredictedMS
	if predMS == 0 {
		predMS = float64(u.Completion) * llamaPredictMS
	}
	e.obj()
	e.kint("cache_n", int64(u.Cached))
	e.kint("prompt_n", int64(promptN))
	e.kfloat("prompt_ms", promptMS)
	e.kfloat("prompt_per_token_ms", ratio(promptMS, float64(promptN)))
	e.kfloat("prompt_per_second", ratio(1000*float64(promptN), promptMS))
	e.kint("predicted_n", int64(u.Completion))
	e.kfloat("predicted_ms", predMS)
	e.kfloat("predicted_per_token_ms", ratio(predMS, float64(u.Completion)))
	e.kfloat("predicted_per_second", ratio(1000*float64(u.Completion), predMS))
	e.end()
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// ChatStream is a streamed chat completion as server-sent events, one element per event (each a
// write of its own): the role, the reasoning and content deltas, the tool calls with their
// arguments split over chunks, the finish reason, the usage chunk when asked for, and [DONE].
func ChatStream(m Meta, a Answer, u Usage, includeUsage bool) [][]byte {
	frames, _ := AppendChatStream(nil, m, a, u, includeUsage)
	return frames
}

// AppendChatStream renders ChatStream's events into buf, one after another, and returns them as
// slices of it, with buf as grown: a server can render a stream into a buffer it reuses.
func AppendChatStream(buf []byte, m Meta, a Answer, u Usage, includeUsage bool) ([][]byte, []byte) {
	if t := chatTemplateFor(m, a, includeUsage); t != nil {
		return t.fill(buf, m, u, includeUsage)
	}
	c := newChunker(m, includeUsage && m.Dialect != usage.LlamaCpp)
	c.out = buf
	c.answer(a)
	return c.finish(len(buf), u, includeUsage)
}

// answer renders the chunks of every choice, up to the finish reason's.
func (c *chunker) answer(a Answer) {
	calls := a.ToolCalls
	for choice := 0; choice < max(a.Choices, 1); choice++ {
		c.setChoice(choice)
		// OpenAI opens a tool-call-only answer with the first call in the role chunk.
		first := delta{role: true,
			contentNull: c.m.Dialect == usage.LlamaCpp || (a.Text == "" && a.Reasoning == "" && len(calls) > 0)}
		if c.m.Dialect != usage.LlamaCpp && a.Text == "" && a.Reasoning == "" && len(calls) > 0 {
			first.call, first.callIndex, first.header = &calls[0], 0, true
		}
		c.chunk(first, "")
		eachPiece(a.Reasoning, a.Chunk, false, func(p string) { c.chunk(delta{reasoning: p, hasReasoning: true}, "") })
		if a.Logprobs != nil {
			for i, p := range textPieces(a) {
				c.chunk(delta{content: p, hasContent: true, lp: a.Logprobs.one(i)}, "")
			}
		} else {
			eachPiece(a.Text, a.Chunk, false, func(p string) { c.chunk(delta{content: p, hasContent: true}, "") })
		}
		for i := range calls {
			if !(i == 0 && first.call != nil) {
				c.chunk(delta{call: &calls[i], callIndex: i, header: true}, "")
			}
			eachPiece(calls[i].Arguments, a.Chunk, true, func(p string) {
				c.chunk(delta{call: &calls[i], callIndex: i,
					args: p}, "")
			})
		}
		c.chunk(delta{}, a.Finish())
	}
}

// finish adds the usage chunk (when asked for) and [DONE], and cuts c.out from start on into
// its events.
func (c *chunker) finish(start int, u Usage, includeUsage bool) ([][]byte, []byte) {
	if includeUsage {
		c.usageChunk(u)
	}
	c.out = append(c.out, "data: [DONE]\n\n"...)
	c.ends = append(c.ends, len(c.out))
	frames := make([][]byte, len(c.ends))
	for i, end := range c.ends {
		frames[i] = c.out[start:end:end]
		start = end
	}
	return frames, c.out
}

type delta struct {
	role, contentNull  bool
	content, reasoning string
	hasContent         bool
	hasReasoning       bool
	call               *ToolCall
	callIndex          int
	header             bool // the call's id and name, with empty arguments
	args               string
	lp                 *Logprobs // the content's log probabilities
}

type chunker struct {
	m         Meta
	usageNull bool
	choice    int
	// head and tail are what every chunk with no finish reason has around its delta, rendered
	// once per stream: a chunk is then head, delta, tail.
	head, tail []byte
	// out holds the chunks one after another; ends marks where each ends.
	out  []byte
	ends []int
}

func newChunker(m Meta, usageNull bool) *chunker {
	c := &chunker{m: m, usageNull: usageNull}
	c.head, c.tail = c.frame("", nil)
	return c
}

// setChoice makes the chunks that follow those of choice i.
func (c *chunker) setChoice(i int) {
	if i != c.choice {
		c.choice = i
		c.head, c.tail = c.frame("", nil)
	}
}

func (c *chunker) envelope(e *enc) {
	e.kstr("id", c.m.ID)
	e.kstr("object", "chat.completion.chunk")
	e.kint("created", c.m.Created)
	e.kstr("model", c.m.Model)
	if c.m.Dialect == usage.OpenAI {
		e.kstr("service_tier", "default")
	}
	e.kstr("system_fingerprint", openaiFingerprint)
}

func (c *chunker) llamaTail(e *enc) {
	e.kint("created", c.m.Created)
	e.kstr("id", c.m.ID)
	e.kstr("model", c.m.Model)
	e.kstr("system_fingerprint", llamaFingerprint)
	e.kstr("object", "chat.completion.chunk")
}

// frame renders a chunk's bytes before and after its delta object.
func (c *chunker) frame(finish string, lp *Logprobs) (head, tail []byte) {
	llama := c.m.Dialect == usage.LlamaCpp
	e := enc{b: make([]byte, 0, 256), first: true}
	e.b = append(e.b, "data: "...)
	e.obj()
	if !llama {
		c.envelope(&e)
	}
	e.key("choices")
	e.arr()
	e.obj()
	if llama {
		e.kstrOrNull("finish_reason", finish)
	}
	e.kint("index", int64(c.choice))
	e.key("delta")
	head = e.b
	t := enc{b: make([]byte, 0, 256)}
	if !llama {
		t.key("logprobs")
		chatLogprobs(&t, lp)
		t.kstrOrNull("finish_reason", finish)
	}
	t.end()
	t.endArr()
	if llama {
		c.llamaTail(&t)
	} else if c.usageNull {
		t.knull("usage")
	}
	t.end()
	t.b = append(t.b, '\n', '\n')
	return head, t.b
}

func (c *chunker) chunk(d delta, finish string) {
	head, tail := c.head, c.tail
	if finish != "" || d.lp != nil {
		head, tail = c.frame(finish, d.lp)
	}
	e := enc{b: append(c.out, head...), first: true}
	e.obj()
	if d.role {
		e.kstr("role", "assistant")
		if d.contentNull {
			e.knull("content")
		} else {
			e.kstr("content", "")
		}
	}
	if d.hasReasoning {
		e.kstr("reasoning_content", d.reasoning)
	}
	if d.hasContent {
		e.kstr("content", d.content)
	}
	if d.call != nil {
		e.key("tool_calls")
		e.arr()
		e.obj()
		e.kint("index", int64(d.callIndex))
		kind, field := d.call.chatKind()
		if d.header {
			e.kstr("id", d.call.ID)
			e.kstr("type", kind)
		}
		e.key(kind)
		e.obj()
		if d.header {
			e.kstr("name", d.call.Name)
		}
		e.kstr(field, d.args)
		e.end()
		e.end()
		e.endArr()
	}
	if d.role && c.m.Dialect != usage.LlamaCpp {
		e.knull("refusal")
	}
	e.end()
	c.out = append(e.b, tail...)
	c.ends = append(c.ends, len(c.out))
}

func (c *chunker) usageChunk(u Usage) {
	e := enc{b: append(c.out, "data: "...), first: true}
	e.obj()
	if c.m.Dialect == usage.LlamaCpp {
		e.kstrs("choices")
		c.llamaTail(&e)
		e.key("usage")
		usageObject(&e, c.m.Dialect, u)
		e.key("timings")
		timings(&e, u)
	} else {
		c.envelope(&e)
		e.kstrs("choices")
		e.key("usage")
		usageObject(&e, c.m.Dialect, u)
	}
	e.end()
	c.out = append(e.b, '\n', '\n')
	c.ends = append(c.ends, len(c.out))
}

// Pieces cuts a text into stream deltas: n characters each, or with n = 0 before each word
// (args: every 8 characters, arguments having few spaces). Joined, the pieces are the text.
func Pieces(s string, n int, args bool) []string {
	var out []string
	eachPiece(s, n, args, func(p string) { out = append(out, p) })
	return out
}

// PieceCount is len(Pieces(s, n, args)), without making them.
func PieceCount(s string, n int, args bool) int {
	k := 0
	eachPiece(s, n, args, func(string) { k++ })
	return k
}

// eachPiece calls f with each of Pieces' pieces, in order.
func eachPiece(s string, n int, args bool, f func(string)) {
	if s == "" {
		return
	}
	if n <= 0 && args {
		n = 8
	}
	if n > 0 {
		for len(s) > 0 {
			i, k := 0, 0
			for i < len(s) && k < n {
				_, size := utf8.DecodeRuneInString(s[i:])
				i += size
				k++
			}
			f(s[:i])
			s = s[i:]
		}
		return
	}
	start := 0
	prevSpace := true
	for i, r := range s {
		// ASCII first: unicode.IsSpace is a call per character, a tenth of rendering a stream.
		sp := r == ' ' || uint32(r-'\t') <= '\r'-'\t'
		if r >= utf8.RuneSelf {
			sp = unicode.IsSpace(r)
		}
		if sp && !prevSpace && i > start {
			f(s[start:i])
			start = i
		}
		prevSpace = sp
	}
	f(s[start:])
}

// CountWords is a rough token count for texts with no tokenizer at hand: a token per word
// piece, and one per 4 bytes of a long word.
func CountWords(s string) int {
	n := 0
	for _, p := range strings.Fields(s) {
		n += (len(p) + 3) / 4
	}
	return n
}
