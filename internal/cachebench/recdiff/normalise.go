package recdiff

import (
	"bytes"
	"encoding/json"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// What is cosmetic between two runs of one harness (docs/audit.md, "Two recordings"): JSON white
// space outside strings (the API reads the values, not the text), ids (a tool call's, a
// response's, a session's: new on every run) and times (the audit's clock forms). A part is
// compared masked; the excerpt a difference shows is masked too, so an id never hides the
// difference after it. The regexps are compiled on first use: at init they would cost every
// lembas-check start.
var (
	// idMember is a member that holds an id whatever its value looks like.
	idMember = lazyre.New(`"(id|tool_call_id|call_id|tool_use_id|previous_response_id|prompt_cache_key|` +
		`user_id|session_id|conversation_id|request_id)":"(?:[^"\\]|\\.)*"`)
	// idValue is a value shaped as the APIs' and agents' ids: a prefixed one (call_, toolu_, fc_,
	// msg_, resp_, rs_, chatcmpl-, item_), a UUID, or a long hex run.
	idValue = lazyre.New(`\b(?:call|toolu|srvtoolu|fc|msg|resp|rs|chatcmpl|item|ses|sess)[_-][A-Za-z0-9_-]{6,}` +
		`|\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b|\b[0-9a-f]{24,}\b`)
)

var (
	idMask   = []byte("<id>")
	timeMask = []byte("<time>")
)

// masked is a part's bytes as compared: compacted, then its ids and times masked, with the
// cosmetic kind each step removed.
type masked struct {
	raw, compact, ids, all []byte
}

func mask(raw []byte) masked {
	m := masked{raw: raw, compact: raw}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		m.compact = b.Bytes()
	}
	m.ids = idValue().ReplaceAll(idMember().ReplaceAll(m.compact, []byte(`"$1":"<id>"`)), idMask)
	m.all = audit.MaskClocks(m.ids, timeMask)
	return m
}

// cosmetic says how two parts that are the same masked differ: "" when they are the same bytes.
func cosmetic(a, b masked) string {
	switch {
	case bytes.Equal(a.raw, b.raw):
		return ""
	case bytes.Equal(a.compact, b.compact):
		return "whitespace"
	case bytes.Equal(a.ids, b.ids):
		return "ids"
	}
	return "times"
}
