package audit

import "fmt"

// Cause is why a request is, or is not, a continuation of the one it is compared with.
type Cause string

// The causes, in docs/audit.md's words.
const (
	// Extends: the request is the one it continues with messages appended (or nothing).
	Extends Cause = "extends"
	// NewConversation: it continues no earlier request (a title request, a subagent, a new session).
	NewConversation Cause = "new conversation"
	// Rewound: its history is an earlier request's cut back (an undo, a rewind); all of it is cached.
	Rewound Cause = "rewound"
	// SystemChanged: the system prompt differs from the request it continues.
	SystemChanged Cause = "system prompt changed"
	// ToolsChanged: the tool list differs (a tool added, removed, changed or moved).
	ToolsChanged Cause = "tools changed"
	// MessageRewritten: a message already sent was changed (an old tool result pruned in place).
	MessageRewritten Cause = "earlier message rewritten"
	// Compaction: the history was replaced by a summary after the compaction ask: allowed.
	Compaction Cause = "compaction"
	// ModelChanged: the request goes to another model, whose cache holds nothing of it: allowed.
	ModelChanged Cause = "model changed"

	// Causes beyond bytes: the prefix is the same bytes, and the provider's cache (its rules in
	// package cachesim) still reads less of it. A cost, not a break of the spec's prefix rules:
	// they do not fail the audit.

	// IdlePastTTL: the gap since the cached prefix was last used is longer than the cache lives.
	IdlePastTTL Cause = "idle past TTL"
	// KeyChanged: a parameter that keys the cache beside the bytes changed (tool choice,
	// thinking, effort, prompt_cache_key, a beta header).
	KeyChanged Cause = "cache key changed"
	// BreakpointsMoved: no breakpoint of this request reaches the prefix the last one cached
	// (Anthropic: none at it or within 20 blocks after it).
	BreakpointsMoved Cause = "breakpoints moved"
	// TooManyBreakpoints: more than 4 breakpoints: the API refuses the request.
	TooManyBreakpoints Cause = "too many breakpoints"
	// UnderMinimum: the prefix is shorter than the model's minimum cacheable length.
	UnderMinimum Cause = "under minimum"
	// AcrossSessions: a new session of the same agent shares bytes with an earlier one that the
	// cache cannot read (an unmarked block that differs before the first breakpoint).
	AcrossSessions Cause = "across sessions"
)

// Causes lists every cause, in the order reports show them.
var Causes = []Cause{Extends, NewConversation, Rewound, SystemChanged, ToolsChanged, MessageRewritten, Compaction,
	ModelChanged,
	IdlePastTTL, KeyChanged, BreakpointsMoved, TooManyBreakpoints, UnderMinimum, AcrossSessions}

// Break says whether the cause breaks the prefix a server has cached.
func (c Cause) Break() bool {
	switch c {
	case SystemChanged, ToolsChanged, MessageRewritten, Compaction, ModelChanged:
		return true
	}
	return c.BeyondBytes()
}

// BeyondBytes says whether the cause is the provider's cache reading less of the same bytes.
func (c Cause) BeyondBytes() bool {
	switch c {
	case IdlePastTTL, KeyChanged, BreakpointsMoved, TooManyBreakpoints, UnderMinimum, AcrossSessions:
		return true
	}
	return false
}

// Allowed says whether a break is one the spec allows (compaction, a move to another model), or
// a cost beyond bytes.
func (c Cause) Allowed() bool { return c == Compaction || c == ModelChanged || c.BeyondBytes() }

// Fails says whether the cause fails an audit: a break the spec does not allow.
func (c Cause) Fails() bool { return c.Break() && !c.Allowed() }

// Slug is the cause as one word, for flags and metric labels: system-prompt-changed.
func (c Cause) Slug() string {
	b := []byte(c)
	for i := range b {
		if b[i] == ' ' {
			b[i] = '-'
		}
	}
	return string(b)
}

// ParseCause reads a cause by its name or slug.
func ParseCause(s string) (Cause, bool) {
	for _, c := range Causes {
		if string(c) == s || c.Slug() == s {
			return c, true
		}
	}
	return "", false
}

// ParseCauses reads --allow's causes (a cause or its slug each).
func ParseCauses(list []string) ([]Cause, error) {
	var out []Cause
	for _, a := range list {
		c, ok := ParseCause(a)
		if !ok {
			return nil, fmt.Errorf("--allow %q: not a cause; want one of system-prompt-changed, tools-changed, "+
				"earlier-message-rewritten, compaction, model-changed", a)
		}
		out = append(out, c)
	}
	return out, nil
}
