package live

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
)

// Sent is one request of a session, in the order the session sent it, with what was done before
// it that lets it differ from the one before.
type Sent struct {
	// Seq is the request's number, for messages (the recording's seq, or a case's count).
	Seq int
	Req *chat.Request
	// Remade: the prompt was made again before it (a compaction, a move to another model), so its
	// system prompt may differ. Reset: a compaction replaced the history before it.
	Remade, Reset bool
}

// Break is a request that breaks one of the rules Held checks: where, against the request before
// it in the session, in the audit's words.
type Break struct {
	Rule      string // RuleSystemPrompt, RuleTools or RuleRewritten
	Seq, Prev int
	Cause     audit.Cause
	// Path is the JSON path of the first byte that differs, in this request's body (in the
	// earlier one's when the part was removed).
	Path   string
	Change *audit.Change
	Detail string
	// Clock shows a change that looks like a clock ("Nov 30 → Dec 01").
	Clock string
}

// String is the break in a line: which request, against which, what and where.
func (b Break) String() string {
	s := fmt.Sprintf("request %d (after request %d): %s at %s", b.Seq, b.Prev, b.Cause, b.Path)
	if b.Clock != "" {
		s += "; a clock: " + b.Clock
	} else if b.Detail != "" {
		s += "; " + b.Detail
	}
	return s
}

// Held checks the rules that hold from one request of a session to the next — context.md §10
// rule 1 (the system prompt), rule 4 (the tools), rule 5 (nothing sent is rewritten) — over a
// session's requests in the order it sent them, each against the one before it: every break of
// every rule, in order. The session is the caller's to know (the live driver's ACP session, a
// case's planned requests), never guessed from the bytes: a rewrite inside it is a rewrite,
// however much it changed. `live` and `run --live` both judge these rules here.
func Held(reqs []Sent) []Break {
	var out []Break
	for i := 1; i < len(reqs); i++ {
		out = append(out, heldAfter(reqs[i-1], reqs[i])...)
	}
	return out
}

// heldAfter is how c breaks the rules against p, the request before it.
func heldAfter(p, c Sent) []Break {
	var out []Break
	add := func(rule string, cause audit.Cause, b Break, detail string) {
		b.Rule, b.Cause, b.Seq, b.Prev = rule, cause, c.Seq, p.Seq
		b.Detail = strings.TrimPrefix(b.Detail+"; "+detail, "; ")
		out = append(out, b)
	}
	moved := c.Req.Model != "" && p.Req.Model != "" && c.Req.Model != p.Req.Model
	if i, ok := differ(p.Req.System, c.Req.System); ok && !c.Remade && !moved {
		add(RuleSystemPrompt, audit.SystemChanged, breakAt(p.Req.System, c.Req.System, i),
			fmt.Sprintf("the system prompt of request %d changed", p.Seq))
	}
	if i, ok := differ(p.Req.Tools, c.Req.Tools); ok {
		add(RuleTools, audit.ToolsChanged, breakAt(p.Req.Tools, c.Req.Tools, i),
			"tools "+audit.ToolsDiff(contents(p.Req.Tools), contents(c.Req.Tools)))
	}
	if c.Reset {
		return out
	}
	pm, cm := p.Req.Messages, c.Req.Messages
	if i, ok := differ(pm, cm); ok && i < len(pm) {
		b := breakAt(pm, cm, i)
		switch {
		case i == 0:
			add(RuleRewritten, audit.MessageRewritten, b,
				fmt.Sprintf("its history does not begin as request %d's: a new conversation inside the session", p.Seq))
		case i < len(cm):
			add(RuleRewritten, audit.MessageRewritten, b, fmt.Sprintf("%s (%s) was rewritten", cm[i].Path(),
				audit.MessageLabel(cm[i], pm[i].Content())))
		default:
			add(RuleRewritten, audit.MessageRewritten, b,
				fmt.Sprintf("request %d sent %d messages, this one sends %d: the history was cut back", p.Seq, len(pm),
					len(cm)))
		}
	}
	return out
}

// differ is the first part whose bytes differ between two lists (cache_control left out), or
// where the shorter one ends; ok is false when they are the same.
func differ(prev, cur []chat.Part) (int, bool) {
	i := 0
	for i < len(prev) && i < len(cur) && bytes.Equal(prev[i].Content(), cur[i].Content()) {
		i++
	}
	return i, i < len(prev) || i < len(cur)
}

// breakAt shows how part i differs: its path and change, as the audit shows a break.
func breakAt(prev, cur []chat.Part, i int) Break {
	var b Break
	switch {
	case i < len(prev) && i < len(cur):
		pc, cc := prev[i].Content(), cur[i].Content()
		off, ch, clock := audit.Difference(pc, cc)
		b.Path, b.Change, b.Clock = cur[i].Path()+chat.PathAt(cc, off), &ch, clock
	case i < len(cur):
		_, ch, _ := audit.Difference(nil, cur[i].Content())
		ch.Old = ""
		b.Path, b.Change, b.Detail = cur[i].Path(), &ch, "a part was added"
	default:
		_, ch, _ := audit.Difference(prev[i].Content(), nil)
		ch.New = ""
		b.Path, b.Change, b.Detail = prev[i].Path(), &ch, "a part was removed (the path is the earlier request's)"
	}
	return b
}

func contents(ps []chat.Part) [][]byte {
	out := make([][]byte, len(ps))
	for i, p := range ps {
		out[i] = p.Content()
	}
	return out
}

// sideMarks are the marks of a request an agent sends beside the session, in its last user
// message: claude-agent-acp's prompt suggestion.
var sideMarks = []struct{ mark, kind string }{{"[SUGGESTION MODE:", "suggestion"}}

// sideOf says what a request beside the session is — "suggestion", "title", "no tools",
// "another system prompt" — or "" for one of the session's own, by what it is against the
// session's first request (head), never by when it came: a prompt suggestion sent between two
// prompts, a title request, a subagent with a system prompt of its own. A request that changed
// its system prompt in a place (a mode, a date) or kept some of the tools is the session's, and
// its changes are judged.
func sideOf(head, q *chat.Request) string {
	if n := len(q.Messages); n > 0 {
		last := strings.Join(chat.MessageTexts(q.Messages[n-1].Raw), "\n")
		for _, m := range sideMarks {
			if strings.Contains(last, m.mark) {
				return m.kind
			}
		}
	}
	if head == nil || head == q {
		return ""
	}
	if len(q.Tools) == 0 && len(head.Tools) > 0 {
		if bytes.Contains(bytes.ToLower(systemText(q)), []byte("title")) {
			return "title"
		}
		return "no tools"
	}
	if !related(head, q) {
		return "another system prompt"
	}
	return ""
}

// related says whether two requests can be one session's: a tool in common, or system prompts
// that are mostly the same bytes (one changed in a place).
func related(a, b *chat.Request) bool {
	for _, t := range b.Tools {
		for _, u := range a.Tools {
			if bytes.Equal(t.Content(), u.Content()) {
				return true
			}
		}
	}
	x, y := systemText(a), systemText(b)
	longer := max(len(x), len(y))
	if longer == 0 {
		return true
	}
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	return 2*(p+s) >= longer
}

// headOf is the session's first request of its own: the first with tools and no side mark (a
// title request may come first), else the first.
func headOf(reqs []*chat.Request) *chat.Request {
	for _, q := range reqs {
		if len(q.Tools) > 0 && sideOf(nil, q) == "" {
			return q
		}
	}
	if len(reqs) > 0 {
		return reqs[0]
	}
	return nil
}

// speculates says whether a request runs a suggested prompt ahead of the person (claude-agent-acp
// sends the reply to its suggestion request as the next user message, before the person types
// anything): its last user message says one of the suggestions, word for word.
func speculates(q *chat.Request, suggested []string) bool {
	for i := len(q.Messages) - 1; i >= 0 && len(suggested) > 0; i-- {
		m := q.Messages[i]
		if m.Role != "user" {
			continue
		}
		for _, t := range chat.MessageTexts(m.Raw) {
			for _, s := range suggested {
				if strings.TrimSpace(t) == s {
					return true
				}
			}
		}
		return false
	}
	return false
}
