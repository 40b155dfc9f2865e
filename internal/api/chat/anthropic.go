package chat

import (
	"fmt"
	"strconv"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Block is one content block of a part, as Anthropic's prompt cache counts blocks: its span in
// the part's Raw, and its breakpoint (the TTL of its cache_control, "5m" or "1h"; "" for none).
type Block struct {
	Span
	TTL string
}

// Marked says whether the block carries a cache_control breakpoint.
func (b Block) Marked() bool { return b.TTL != "" }

// MaxBreakpoints is the most blocks with cache_control a Messages request may carry; more is the
// API's 400 (TooManyBreakpoints), which the fake answers and the audit's simulator predicts.
const MaxBreakpoints = 4

// TooManyBreakpoints is a request with more breakpoints than the API takes; its message is the
// API's.
type TooManyBreakpoints struct{ N int }

func (e *TooManyBreakpoints) Error() string {
	return fmt.Sprintf("A maximum of %d blocks with cache_control may be provided. Found %d.", MaxBreakpoints, e.N)
}

// Breakpoints counts the blocks with cache_control in a request, the top-level one included: the
// API refuses more than MaxBreakpoints.
func (r *Request) Breakpoints() int {
	n := 0
	for _, p := range r.Parts() {
		for _, b := range p.Blocks {
			if b.Marked() {
				n++
			}
		}
	}
	if r.AutoCache != "" {
		n++
	}
	return n
}

// Content is the part's bytes as the provider reads them: without its cache_control members, so
// a breakpoint that moves does not change the part, and (Anthropic) a content of one plain text
// block written as the string it stands for, as the API takes either.
func (p Part) Content() []byte { return cut(p.Raw, 0, len(p.Raw), p.marks) }

// BlockContent is block i's bytes as the provider reads them: without its cache_control member,
// a plain text block as its text's string.
func (p Part) BlockContent(i int) []byte {
	b := p.Blocks[i]
	if t, ok := plainText(cut(p.Raw, b.Start, b.End, p.marks)); ok {
		return t
	}
	return cut(p.Raw, b.Start, b.End, p.marks)
}

// edit puts With in place of raw[Start:End]; With nil cuts the span out.
type edit struct {
	Span
	With []byte
}

// cut is raw[from:to] with the edits inside it applied (sorted by start; an edit inside an
// earlier one is covered by it).
func cut(raw []byte, from, to int, edits []edit) []byte {
	var in []edit
	for _, m := range edits {
		if m.Start >= from && m.End <= to {
			in = append(in, m)
		}
	}
	if len(in) == 0 {
		return raw[from:to]
	}
	out := make([]byte, 0, to-from)
	at := from
	for _, m := range in {
		if m.Start < at {
			continue // inside the edit before it
		}
		out = append(out, raw[at:m.Start]...)
		out = append(out, m.With...)
		at = m.End
	}
	return append(out, raw[at:to]...)
}

// plainText is a block {"type":"text","text":T} (no other member) as T's raw string.
func plainText(block []byte) ([]byte, bool) {
	keys, vals, err := Members(block)
	if err != nil || len(keys) != 2 {
		return nil, false
	}
	var text []byte
	typ := ""
	for i, k := range keys {
		switch k {
		case "type":
			typ, _ = stringValue(vals[i])
		case "text":
			text = vals[i]
		}
	}
	if typ != "text" || len(text) == 0 || text[0] != '"' {
		return nil, false
	}
	return text, true
}

// ttlOf reads a cache_control value: {"type":"ephemeral"} is "5m", with "ttl":"1h" it is "1h".
func ttlOf(v []byte) string {
	if isNull(v) {
		return ""
	}
	if t, ok := StringMember(v, "ttl"); ok && t != "" {
		return t
	}
	return "5m"
}

// anthropicTools says whether a tools array is Anthropic's ({"name", "input_schema"}), looking at
// its first element only. tools is a member's value the walk over the body has already skipped
// whole, so only that element is walked again (ElementSpans of every tool was a tenth of
// splitting an agent's request).
func anthropicTools(tools []byte) bool {
	i := jsonx.SkipSpace(tools, 0)
	if i >= len(tools) || tools[i] != '[' {
		return false
	}
	s := jsonx.SkipSpace(tools, i+1)
	if s >= len(tools) || tools[s] == ']' {
		return false
	}
	if tools[s] != '{' {
		return false
	}
	// One walk for the three members (Member and StringMember walked it once each): the first
	// "type" that is a string, as StringMember reads it.
	var schema, fn, typed bool
	var t string
	_, err := skipObject(tools, s, 1, func(key []byte, vs, ve int) error {
		switch string(KeyText(key)) {
		case "input_schema":
			schema = true
		case "function":
			fn = true
		case "type":
			if !typed {
				t, typed = stringValue(tools[vs:ve])
			}
		}
		return nil
	})
	if err != nil {
		return false
	}
	return schema || !fn && t != "" && t != "function" && t != "custom"
}

// anthropic cuts an Anthropic Messages body: each tool, each system block (or the system string),
// each message, every one with its content blocks and breakpoints.
func (r *Request) anthropic(messages []byte, offMessages int, system []byte, offSystem int, tools []byte,
	offTools int) error {
	if tools != nil && !isNull(tools) {
		if len(tools) == 0 || tools[0] != '[' {
			return fmt.Errorf("\"tools\" must be an array")
		}
		if _, err := skipArray(tools, 0, 0, func(n, s, e int) error {
			p := Part{Kind: Tool, Field: "tools", Index: n, Raw: tools[s:e], Off: offTools + s}
			p.Blocks = []Block{{Span: Span{0, e - s}}}
			p.markObject(0)
			r.Tools = append(r.Tools, p)
			return nil
		}); err != nil {
			return err
		}
	}
	switch {
	case system == nil || isNull(system):
	case system[0] == '"':
		p := Part{Kind: System, Field: "system", Index: -1, Role: "system", Raw: system, Off: offSystem}
		p.Blocks = []Block{{Span: Span{0, len(system)}}}
		r.System = append(r.System, p)
	case system[0] == '[':
		if _, err := skipArray(system, 0, 0, func(n, s, e int) error {
			p := Part{Kind: System, Field: "system", Index: n, Role: "system", Raw: system[s:e], Off: offSystem + s}
			p.Blocks = []Block{{Span: Span{0, e - s}}}
			p.markObject(0)
			r.System = append(r.System, p)
			return nil
		}); err != nil {
			return fmt.Errorf("system: %v", err)
		}
	default:
		return fmt.Errorf("\"system\" must be a string or an array of text blocks")
	}
	if err := r.addMessages(span{messages, offMessages}, "messages", false, nil); err != nil {
		return err
	}
	for i := range r.Messages {
		if err := r.Messages[i].messageBlocks(); err != nil {
			return fmt.Errorf("%s: %v", r.Messages[i].Path(), err)
		}
	}
	return nil
}

// markObject reads the cache_control of the block object at Blocks[i] (an object's own member,
// not one nested deeper) and keeps the member's span, with its comma, to be left out of Content.
func (p *Part) markObject(i int) {
	b := &p.Blocks[i]
	raw := p.Raw[b.Start:b.End]
	j := jsonx.SkipSpace(raw, 0)
	if j >= len(raw) || raw[j] != '{' {
		return
	}
	prevEnd := -1 // end of the previous member's value
	skipObject(raw, j, 0, func(key []byte, s, e int) error {
		if keyIs(key, "cache_control") {
			b.TTL = ttlOf(raw[s:e])
			// key is a slice of raw (skipObject's callback gets raw[i:ke]): its start is i.
			start, end := cap(raw)-cap(key), e
			if prevEnd >= 0 {
				start = prevEnd // from the end of the previous value: its comma goes too
			} else if k := jsonx.SkipSpace(raw, e); k < len(raw) && raw[k] == ',' {
				end = jsonx.SkipSpace(raw, k+1) // the first member: the comma after it goes
			}
			if b.TTL != "" {
				p.marks = append(p.marks, edit{Span: Span{b.Start + start, b.Start + end}})
			}
		}
		prevEnd = e
		return nil
	})
}

// messageBlocks finds a message's content blocks: the string content as one block, or each
// element of the content array, with its breakpoint.
func (p *Part) messageBlocks() error {
	s, e, ok := Member(p.Raw, "content")
	if !ok {
		return nil
	}
	v := p.Raw[s:e]
	if len(v) == 0 || v[0] != '[' {
		p.Blocks = []Block{{Span: Span{s, e}}}
		return nil
	}
	spans, err := ElementSpans(v)
	if err != nil {
		return err
	}
	for _, sp := range spans {
		p.Blocks = append(p.Blocks, Block{Span: Span{s + sp.Start, s + sp.End}})
		p.markObject(len(p.Blocks) - 1)
	}
	// One plain text block is the string it stands for: the content reads as that string.
	if len(p.Blocks) == 1 {
		b := p.Blocks[0]
		if t, ok := plainText(cut(p.Raw, b.Start, b.End, p.marks)); ok {
			// before the block's own mark, which it covers (cut skips a covered edit)
			p.marks = append([]edit{{Span: Span{s, e}, With: t}}, p.marks...)
		}
	}
	return nil
}

// BlockPath is block i's JSON path in the body: a message's content block ($.messages[3].content[1],
// or $.messages[3].content for a string), else the part's own path.
func (p Part) BlockPath(i int) string {
	if p.Kind != Message {
		return p.Path()
	}
	b := p.Blocks[i]
	if b.Start < len(p.Raw) && p.Raw[b.Start] == '{' {
		return p.Path() + ".content[" + strconv.Itoa(i) + "]"
	}
	return p.Path() + ".content"
}
