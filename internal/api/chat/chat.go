// Package chat finds the parts a model's prompt is made of in a request body — the system prompt,
// the tools, the messages — as the exact bytes of each, without decoding the rest. It reads the
// four shapes a harness sends: OpenAI chat completions (`messages`, leading system or developer
// messages being the system prompt), OpenAI Responses (`instructions`, `input`), Anthropic
// Messages (`tools`, `system` blocks, `messages`, with their `cache_control` breakpoints) and
// Gemini (`systemInstruction`, `tools`' function declarations, `contents`). Parts come in the
// order the provider reads a prompt — system prompt, tools, messages; Anthropic's is tools,
// system, messages — and so in the order the audit compares two requests. ContentText is the
// one reading of a message's text in any of the four shapes, for a request's parts and an answer's.
package chat

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// API names the shape of a request body.
const (
	ChatCompletions = "chat.completions"
	Responses       = "responses"
	Anthropic       = "anthropic"
	Gemini          = "gemini"
)

// Kind is the kind of a part.
type Kind uint8

const (
	System Kind = iota + 1
	Tool
	Message
)

func (k Kind) String() string {
	switch k {
	case System:
		return "system"
	case Tool:
		return "tool"
	case Message:
		return "message"
	}
	return "?"
}

// Part is one piece of a prompt: a system message (or a top-level instructions/system value), one
// tool, or one message.
type Part struct {
	Kind Kind
	// Field and Index say where the part is in the body: messages[3] is Field "messages", Index 3;
	// a top-level `instructions` is Field "instructions", Index -1.
	Field string
	Index int
	// Role is a message's role ("" when it has none, as a Responses function_call item).
	Role string
	// Raw is the part's exact bytes, a slice of the body; Off is where it starts in the body.
	Raw []byte
	Off int
	// Blocks are the part's content blocks as Anthropic's cache counts them (a tool, a system
	// block, each block of a message's content), with their breakpoints; nil in other shapes.
	Blocks []Block
	// marks are the cache_control members in Raw, each with the comma that sets it apart:
	// not part of the prompt, so Content leaves them out.
	marks []edit
}

// Path is the part's JSON path in the body: `$.messages[3]`, `$.instructions`.
func (p Part) Path() string {
	if p.Index < 0 {
		return "$." + p.Field
	}
	return "$." + p.Field + "[" + strconv.Itoa(p.Index) + "]"
}

// Request is a request body cut into its prompt's parts.
type Request struct {
	API   string
	Model string
	// Stream is the body's `stream`.
	Stream bool
	// System is the system prompt: leading system or developer messages, or `instructions` /
	// Anthropic's `system`.
	System []Part
	Tools  []Part
	// Messages are the messages after the system prompt (Responses: the input items), in order.
	Messages []Part
	// AutoCache is the TTL of a top-level cache_control (Anthropic's automatic caching: a
	// breakpoint on the last block), "" when there is none.
	AutoCache string
	// Keys are the parameters that key a provider's cache beside the prompt's bytes (tool
	// choice, thinking, reasoning effort, prompt_cache_key), as sent.
	Keys []Param
}

// Param is one parameter of a request as sent: its JSON path and its exact bytes.
type Param struct {
	Path  string
	Value []byte
}

// The paths of the parameters Parse keeps in a request's Keys, by which the simulators' provider
// rules key a cache (cachesim).
const (
	KeyThinking        = "$.thinking"             // Anthropic
	KeyEffort          = "$.output_config.effort" // Anthropic
	KeyToolChoice      = "$.tool_choice"
	KeyPromptCacheKey  = "$.prompt_cache_key"
	KeyReasoningEffort = "$.reasoning_effort" // chat completions
	KeyReasoning       = "$.reasoning.effort" // Responses
)

// ToolsFirst says whether the provider reads the tools before the system prompt (Anthropic).
func (r *Request) ToolsFirst() bool { return r.API == Anthropic }

// Parts lists every part in the prompt's order: system prompt, tools, messages (Anthropic:
// tools, system prompt, messages).
func (r *Request) Parts() []Part {
	out := make([]Part, 0, len(r.System)+len(r.Tools)+len(r.Messages))
	if r.ToolsFirst() {
		out = append(out, r.Tools...)
		out = append(out, r.System...)
	} else {
		out = append(out, r.System...)
		out = append(out, r.Tools...)
	}
	return append(out, r.Messages...)
}

// APIOf is the shape a request to this path has ("" when the path does not say): the audit and
// the simulators know where a recorded request went, and need not guess from its body.
func APIOf(path string) string {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimRight(path, "/")
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return ChatCompletions
	case strings.HasSuffix(path, "/responses"):
		return Responses
	case strings.HasSuffix(path, "/messages"):
		return Anthropic
	case strings.HasSuffix(path, ":generateContent"), strings.HasSuffix(path, ":streamGenerateContent"):
		return Gemini
	}
	return ""
}

// ModelOfPath is the model a Gemini path names (/v1beta/models/gemini-2.5-pro:generateContent).
func ModelOfPath(path string) string {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return ""
	}
	m := path[i+len("/models/"):]
	if j := strings.LastIndexByte(m, ':'); j >= 0 {
		m = m[:j]
	}
	return m
}

// Parse cuts a request body into its parts, telling its shape from its content. The body must
// be a JSON object with `messages`, `input` or `contents`; an error says what is wrong and where.
func Parse(body []byte) (*Request, error) { return ParseAs(body, "") }

// ParsePath cuts a request sent to path, in the shape the path says (APIOf), with a Gemini
// request's model and streaming taken from the path, where Gemini puts them.
func ParsePath(path string, body []byte) (*Request, error) { return ParsePathKnown(path, body, nil) }

// ParsePathKnown is ParsePath, jumping over the values known (Know) says body shares with a
// request cut before: the same Request, without scanning the history again.
func ParsePathKnown(path string, body []byte, known *Known) (*Request, error) {
	api := APIOf(path)
	r, err := parseAs(body, api, known)
	if err == nil && api == Gemini {
		r.Model = ModelOfPath(path)
		r.Stream = strings.Contains(path, ":streamGenerateContent")
	}
	return r, err
}

// ParseAs cuts a request body of a known shape (one of the API names; "": tell it from the
// content).
func ParseAs(body []byte, api string) (*Request, error) { return parseAs(body, api, nil) }

func parseAs(body []byte, api string, known *Known) (*Request, error) {
	i := jsonx.SkipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return nil, fmt.Errorf("a request body must be a JSON object")
	}
	r := &Request{}
	m := members{known: known}
	end, err := skipList(body, i, 0, '}', func(key []byte, s, e int) error {
		m.add(r, key, body[s:e], s)
		return nil
	}, nil, known.pre())
	if err != nil {
		return nil, err
	}
	if jsonx.SkipSpace(body, end) != len(body) {
		return nil, bad(end, "more after the request object")
	}
	if api == "" {
		api = m.api()
	}
	r.Keys = m.keys
	if err := r.fill(&m, api); err != nil {
		return nil, err
	}
	return r, nil
}

// Top is a request body's top-level members, split in one pass for a caller that reads them
// (the fake's decoding, as MemberSpans lists them) and cuts the body into its parts too: the
// fake's decoding and its cache simulator each walked the whole body before.
type Top struct {
	// Keys are the members' keys, decoded, and Spans where each value lies in the body.
	Keys  []string
	Spans []Span
	body  []byte
	r     *Request
	m     members
}

// SplitTop splits a body that is one JSON object into its members (MemberSpans' error when it is
// not).
func SplitTop(body []byte) (*Top, error) {
	i := jsonx.SkipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return nil, bad(i, "not an object")
	}
	t := newTop(body)
	end, err := skipObject(body, i, 0, func(key []byte, s, e int) error {
		if !t.add(key, s, e) {
			return bad(s, "bad key")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if jsonx.SkipSpace(body, end) != len(body) {
		return nil, bad(end, "more after the object")
	}
	return t, nil
}

// SplitValid is SplitTop of a body checked as encoding/json checks it, in the one walk: ok is
// false where the body is not valid JSON or not an object (SplitTop then says why).
func SplitValid(body []byte) (*Top, bool) {
	t := newTop(body)
	if !jsonx.ValidObject(body, t.add) {
		return nil, false
	}
	return t, true
}

func newTop(body []byte) *Top {
	// Room for a request's usual members, so that the lists are not grown member by member.
	return &Top{body: body, r: &Request{}, Keys: make([]string, 0, 16), Spans: make([]Span, 0, 16)}
}

// add takes the member whose key's raw bytes are key and whose value is body[s:e]; false where
// the key is not a string it can read.
func (t *Top) add(key []byte, s, e int) bool {
	k, ok := stringValue(key)
	if !ok {
		return false
	}
	t.Keys = append(t.Keys, k)
	t.Spans = append(t.Spans, Span{s, e})
	t.m.add(t.r, key, t.body[s:e], s)
	return true
}

// Parse is ParseAs(body, api) of the split body; call it once.
func (t *Top) Parse(api string) (*Request, error) {
	if api == "" {
		api = t.m.api()
	}
	r := t.r
	r.Keys = t.m.keys
	if err := r.fill(&t.m, api); err != nil {
		return nil, err
	}
	return r, nil
}

// span is a member's value and its offset in the body.
type span struct {
	raw []byte
	off int
}

// members are the request's top-level members the cut reads, and what they say of its API.
type members struct {
	messages, input, tools, instructions, system, contents, sysInstruction span

	anthropic bool // a member only Anthropic's Messages API has
	keys      []Param
	known     *Known
}

// add reads one top-level member: a part of the prompt, a cache-keying parameter, the model.
// One switch on the key's text: a keyIs per name was a tenth of splitting a request.
func (m *members) add(r *Request, key, v []byte, s int) {
	switch string(KeyText(key)) {
	case "contents":
		m.contents = span{v, s}
	case "systemInstruction", "system_instruction":
		m.sysInstruction = span{v, s}
	case "cache_control":
		m.anthropic = true
		r.AutoCache = ttlOf(v)
	case "anthropic_version", "stop_sequences", "top_k", "context_management":
		m.anthropic = true
	case "thinking":
		m.anthropic = true
		m.keys = append(m.keys, Param{KeyThinking, v})
	case "output_config":
		m.anthropic = true
		if s, e, ok := Member(v, "effort"); ok {
			m.keys = append(m.keys, Param{KeyEffort, v[s:e]})
		}
	case "tool_choice":
		m.keys = append(m.keys, Param{KeyToolChoice, v})
	case "prompt_cache_key":
		m.keys = append(m.keys, Param{KeyPromptCacheKey, v})
	case "reasoning_effort":
		m.keys = append(m.keys, Param{KeyReasoningEffort, v})
	case "reasoning":
		if s, e, ok := Member(v, "effort"); ok {
			m.keys = append(m.keys, Param{KeyReasoning, v[s:e]})
		}
	case "messages":
		m.messages = span{v, s}
	case "input":
		m.input = span{v, s}
	case "tools":
		m.tools = span{v, s}
	case "instructions":
		m.instructions = span{v, s}
	case "system":
		m.system = span{v, s}
	case "model":
		r.Model, _ = stringValue(v)
	case "stream":
		r.Stream = string(v) == "true"
	}
}

// api tells the request's API from its members, "" when none fits.
func (m *members) api() string {
	messages := m.messages.raw
	switch {
	case m.contents.raw != nil && messages == nil && m.input.raw == nil:
		return Gemini
	case messages != nil && (m.system.raw != nil || m.anthropic || anthropicTools(m.tools.raw) ||
		bytes.Contains(messages, []byte(`"tool_use"`))):
		return Anthropic
	case messages != nil:
		return ChatCompletions
	case m.input.raw != nil:
		return Responses
	}
	return ""
}

// fill cuts the members into the request's parts as api reads them.
func (r *Request) fill(m *members, api string) error {
	switch {
	case api == Gemini:
		r.API = Gemini
		r.Keys = nil
		return r.gemini(m.contents.raw, m.contents.off, m.sysInstruction.raw, m.sysInstruction.off, m.tools.raw,
			m.tools.off)
	case api == Anthropic && m.messages.raw != nil:
		r.API = Anthropic
		return r.anthropic(m.messages.raw, m.messages.off, m.system.raw, m.system.off, m.tools.raw, m.tools.off)
	case m.messages.raw != nil && api != Responses:
		r.API = ChatCompletions
		if err := r.addMessages(m.messages, "messages", true, m.known); err != nil {
			return err
		}
	case m.input.raw != nil && api != Anthropic && api != Gemini:
		r.API = Responses
		if err := r.responsesInput(m); err != nil {
			return err
		}
	default:
		return fmt.Errorf("a request body needs \"messages\" (chat completions, Anthropic), \"input\" (Responses) " +
			"or \"contents\" (Gemini)")
	}
	return r.addTools(m.tools, m.known)
}

// responsesInput cuts a Responses request's instructions and input (a string, or items).
func (r *Request) responsesInput(m *members) error {
	if ins := m.instructions; ins.raw != nil && !isNull(ins.raw) {
		r.System = append(r.System, Part{Kind: System, Field: "instructions", Index: -1, Role: "system",
			Raw: ins.raw, Off: ins.off})
	}
	in := m.input
	if len(in.raw) > 0 && in.raw[0] == '"' {
		r.Messages = append(r.Messages, Part{Kind: Message, Field: "input", Index: -1, Role: "user", Raw: in.raw,
			Off: in.off})
		return nil
	}
	return r.addMessages(in, "input", true, m.known)
}

// addTools cuts the tools array (OpenAI's shapes) into one part per tool.
func (r *Request) addTools(t span, known *Known) error {
	tools := t.raw
	if tools == nil || isNull(tools) {
		return nil
	}
	if len(tools) == 0 || tools[0] != '[' {
		return fmt.Errorf("\"tools\" must be an array")
	}
	_, err := skipList(tools, 0, 0, ']', nil, func(n, s, e int) error {
		r.Tools = append(r.Tools, Part{Kind: Tool, Field: "tools", Index: n, Raw: tools[s:e], Off: t.off + s})
		return nil
	}, known.from(t.off).pre())
	return err
}

func isNull(v []byte) bool { return string(v) == "null" }

// addMessages adds an array's elements; with leading, the system and developer messages that come
// first are the system prompt. Each message is scanned once: its role is read on the way (or
// known from the request before).
func (r *Request) addMessages(sp span, field string, leading bool, known *Known) error {
	arr, off := sp.raw, sp.off
	known = known.from(off)
	if len(arr) == 0 || arr[0] != '[' {
		return fmt.Errorf("%q must be an array", field)
	}
	inHead := leading
	i := jsonx.SkipSpace(arr, 1)
	if i < len(arr) && arr[i] == ']' {
		return nil
	}
	for n := 0; ; n++ {
		role := ""
		var e int
		var err error
		if v, ok := known.value(i, 1); ok {
			e, role = v.end-known.base, v.role
		} else if i < len(arr) && arr[i] == '{' {
			e, err = skipObject(arr, i, 1, func(key []byte, s, e int) error {
				if role == "" && keyIs(key, "role") {
					role, _ = stringValue(arr[s:e])
				}
				return nil
			})
		} else {
			e, err = skipValue(arr, i, 1)
		}
		if err != nil {
			return fmt.Errorf("%s[%d]: %v", field, n, err)
		}
		p := Part{Kind: Message, Field: field, Index: n, Role: role, Raw: arr[i:e], Off: off + i}
		if inHead && (role == "system" || role == "developer") {
			p.Kind = System
			r.System = append(r.System, p)
		} else {
			inHead = false
			r.Messages = append(r.Messages, p)
		}
		i = jsonx.SkipSpace(arr, e)
		if i >= len(arr) {
			return fmt.Errorf("%s: unterminated array", field)
		}
		switch arr[i] {
		case ',':
			i = jsonx.SkipSpace(arr, i+1)
		case ']':
			return nil
		default:
			return fmt.Errorf("%s: offset %d: want ',' or ']'", field, i)
		}
	}
}
