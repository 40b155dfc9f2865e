package replay

import (
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// An exchange line is mostly its request body (a session's whole history, resent every turn).
// encoding/json reads a json.RawMessage twice — once to check it, once to skip it — so decoding
// the line whole read every body of a session two more times. The fast path decodes the line with
// the body left out, and takes the body's bytes as they lie: its SHA-256 (body_sha256) is the
// check that they are the bytes received, and the writer stores a body only when it is valid JSON.

// decodeExchange decodes one exchange line. ok is false when the fast path does not apply (no
// single "request" or "body" member spelled as the writer spells it, or a line the scanner
// refuses): the caller then decodes the line whole, so damage reads as it always did.
func decodeExchange(b []byte) (x Exchange, ok bool) {
	req, ok := onlyMember(b, "request", 0)
	if !ok {
		return x, false
	}
	body, ok := onlyMember(b[req.Start:req.End], "body", req.Start)
	if !ok || body.End-body.Start < 2 {
		return x, false
	}
	// The line without the body's value: the rest of it is small.
	rest := make([]byte, 0, len(b)-(body.End-body.Start)+4)
	rest = append(rest, b[:body.Start]...)
	rest = append(rest, "null"...)
	rest = append(rest, b[body.End:]...)
	if json.Unmarshal(rest, &x) != nil {
		return Exchange{}, false
	}
	if x.Request.BodySHA256 == "" || x.Request.BodyRaw != nil {
		return Exchange{}, false // nothing to check the body by, or a body kept apart: decode whole
	}
	x.Request.Body = b[body.Start:body.End]
	return x, true
}

// onlyMember is where the one member name of the object raw lies (offsets from base), when no
// other member's key matches it as encoding/json matches keys (without regard to case).
func onlyMember(raw []byte, name string, base int) (chat.Span, bool) {
	keys, spans, err := chat.MemberSpans(raw)
	if err != nil {
		return chat.Span{}, false
	}
	at := -1
	for i, k := range keys {
		if strings.EqualFold(k, name) {
			if at >= 0 || k != name {
				return chat.Span{}, false
			}
			at = i
		}
	}
	if at < 0 {
		return chat.Span{}, false
	}
	return chat.Span{Start: base + spans[at].Start, End: base + spans[at].End}, true
}
