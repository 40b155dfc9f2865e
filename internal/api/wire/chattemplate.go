package wire

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
)

// A fake sends the same scripted text to many requests, and rendering its chunks was a quarter
// of the fake's own work for a streamed request. A chat stream with no tool calls and no log
// probabilities differs between two requests only in its id, its created time and its usage
// chunk: it is rendered once, with placeholders for those two, and each stream copies it with
// its own id and time put in (chatTemplate.fill), then renders its usage.

// The placeholders' members as rendered. Neither can occur but as the member it is: within a
// JSON string a quote is escaped, and these begin with a bare one.
const (
	templateID      = "\x00lembas-template\x00"
	templateCreated = -7340032734003273400
)

var (
	templateIDMember      = appendString([]byte(`"id":`), templateID)
	templateCreatedMember = strconv.AppendInt([]byte(`"created":`), templateCreated, 10)
)

// chatTemplate is a stream's chunks up to its finish reason's, rendered with the placeholders.
type chatTemplate struct {
	out   []byte
	ends  []int // where each chunk ends in out
	holes []templateHole
}

// templateHole is a placeholder's member in out: the id's, else the created time's.
type templateHole struct {
	at, n int
	id    bool
}

type chatTemplateKey struct {
	text, reasoning, finish, model string
	chunk, choices                 int
	dialect                        usage.Dialect
	includeUsage                   bool
}

// The memo is bounded in entries and in a template's size, so that replies that are never
// repeated cost a map entry each and the fake's memory stays flat; an answer is made a template
// the second time it is seen.
const (
	chatTemplateEntries = 32
	chatTemplateBytes   = 64 << 10
)

var chatTemplates = struct {
	sync.RWMutex
	m map[chatTemplateKey]*chatTemplate
}{m: map[chatTemplateKey]*chatTemplate{}}

// chatTemplateFor is the template of a's stream, or nil: a is one that has none (tool calls, log
// probabilities, a long text), or is seen for the first time.
func chatTemplateFor(m Meta, a Answer, includeUsage bool) *chatTemplate {
	if len(a.ToolCalls) > 0 || a.Logprobs != nil || len(a.Text)+len(a.Reasoning) > chatTemplateBytes/64 {
		return nil
	}
	k := chatTemplateKey{text: a.Text, reasoning: a.Reasoning, finish: a.Finish(), model: m.Model, chunk: a.Chunk,
		choices: a.Choices, dialect: m.Dialect, includeUsage: includeUsage}
	// A template made is read under the read lock: every stream of a repeated answer asks.
	chatTemplates.RLock()
	t := chatTemplates.m[k]
	chatTemplates.RUnlock()
	if t != nil {
		return t
	}
	chatTemplates.Lock()
	t, seen := chatTemplates.m[k]
	if !seen {
		if len(chatTemplates.m) >= chatTemplateEntries {
			clear(chatTemplates.m)
		}
		chatTemplates.m[k] = nil
	}
	chatTemplates.Unlock()
	if t != nil || !seen {
		return t
	}
	t = newChatTemplate(m, a, includeUsage)
	if t == nil {
		return nil
	}
	chatTemplates.Lock()
	chatTemplates.m[k] = t
	chatTemplates.Unlock()
	return t
}

// newChatTemplate renders a's chunks with the placeholders and finds them; nil if a chunk does
// not hold each once, or the template would be too large to keep.
func newChatTemplate(m Meta, a Answer, includeUsage bool) *chatTemplate {
	m.ID, m.Created = templateID, templateCreated
	c := newChunker(m, includeUsage && m.Dialect != usage.LlamaCpp)
	c.answer(a)
	if len(c.out) > chatTemplateBytes {
		return nil
	}
	t := &chatTemplate{out: c.out, ends: c.ends}
	start := 0
	for _, end := range t.ends {
		chunk := t.out[start:end]
		i, j := bytes.Index(chunk, templateIDMember), bytes.Index(chunk, templateCreatedMember)
		if i < 0 || j < 0 || bytes.Count(chunk, templateIDMember) != 1 || bytes.Count(chunk,
			templateCreatedMember) != 1 {
			return nil
		}
		id := templateHole{at: start + i, n: len(templateIDMember), id: true}
		created := templateHole{at: start + j, n: len(templateCreatedMember)}
		if j < i {
			id, created = created, id
		}
		t.holes = append(t.holes, id, created)
		start = end
	}
	return t
}

// fill renders the stream into buf as AppendChatStream does: the template with m's id and created
// time, then the usage chunk and [DONE].
func (t *chatTemplate) fill(buf []byte, m Meta, u Usage, includeUsage bool) ([][]byte, []byte) {
	c := &chunker{m: m, out: buf, ends: make([]int, 0, len(t.ends)+2)}
	// The two members are rendered once and copied into every chunk: rendering them per chunk
	// (the id escaped, the time formatted) was a third of the fill.
	var scratch [128]byte
	members := appendString(append(scratch[:0], `"id":`...), m.ID)
	idEnd := len(members)
	members = strconv.AppendInt(append(members, `"created":`...), m.Created, 10)
	idMember, createdMember := members[:idEnd], members[idEnd:]
	from, h := 0, 0
	for _, end := range t.ends {
		for ; h < len(t.holes) && t.holes[h].at < end; h++ {
			hole := t.holes[h]
			c.out = append(c.out, t.out[from:hole.at]...)
			if hole.id {
				c.out = append(c.out, idMember...)
			} else {
				c.out = append(c.out, createdMember...)
			}
			from = hole.at + hole.n
		}
		c.out = append(c.out, t.out[from:end]...)
		from = end
		c.ends = append(c.ends, len(c.out))
	}
	return c.finish(len(buf), u, includeUsage)
}
