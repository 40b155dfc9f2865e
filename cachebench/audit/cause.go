package audit

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
)

// Causes lists every cause, in the order reports show them.
var Causes = []Cause{Extends, NewConversation, Rewound, SystemChanged, ToolsChanged, MessageRewritten, Compaction, ModelChanged}

// Break says whether the cause breaks the prefix a server has cached.
func (c Cause) Break() bool {
	switch c {
	case SystemChanged, ToolsChanged, MessageRewritten, Compaction, ModelChanged:
		return true
	}
	return false
}

// Allowed says whether a break is one the spec allows (compaction, a move to another model).
func (c Cause) Allowed() bool { return c == Compaction || c == ModelChanged }

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
