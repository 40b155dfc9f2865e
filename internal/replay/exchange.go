package replay

import (
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// An exchange line is mostly its request body (a session's whole history, resent every turn).
// encoding/json reads a json.RawMessage twice — once to check it, once to skip it — so decoding
// the line whole read every body of a session two more times. The fast path decodes the line with
// the body left out, and takes the body's bytes as they lie: its SHA-256 (body_sha256) is the
// check that they are the bytes received, and the writer stores a body only when it is valid JSON.

// decodeExchange decodes one exchange line in one pass over it: the line's members, the
// request's and the body's are walked as they are met, so that the body, which is most of the
// line, is scanned once, and the blob references in it are found on the way (refs, offsets in
// the stored body). ok is false when the fast path does not apply (no single "request" or "body"
// member spelled as the writer spells it, or a line the scanner refuses): the caller then decodes
// the line whole, so damage reads as it always did.
func decodeExchange(b []byte) (x Exchange, refs []blobAt, ok bool) {
	var body chat.Span
	var requests, bodies int
	i := jsonx.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return x, nil, false
	}
	end, err := chat.EachMember(b, i, func(key []byte, start int) (int, error) {
		if !sameKey(key, "request", &requests) || start >= len(b) || b[start] != '{' {
			return chat.SkipValue(b, start)
		}
		return chat.EachMember(b, start, func(key []byte, start int) (int, error) {
			if !sameKey(key, "body", &bodies) || start >= len(b) || b[start] != '{' {
				return chat.SkipValue(b, start)
			}
			end, found, err := blobRefs(b, start)
			body, refs = chat.Span{Start: start, End: end}, found
			return end, err
		})
	})
	if err != nil || requests != 1 || bodies != 1 || body.End == 0 || jsonx.SkipSpace(b, end) != len(b) {
		return x, nil, false
	}
	// The line without the body's value: the rest of it is small.
	rest := make([]byte, 0, len(b)-(body.End-body.Start)+4)
	rest = append(rest, b[:body.Start]...)
	rest = append(rest, "null"...)
	rest = append(rest, b[body.End:]...)
	if json.Unmarshal(rest, &x) != nil {
		return Exchange{}, nil, false
	}
	if x.Request.BodySHA256 == "" || x.Request.BodyRaw != nil {
		return Exchange{}, nil, false // nothing to check the body by, or a body kept apart: decode whole
	}
	x.Request.Body = b[body.Start:body.End]
	for i := range refs {
		refs[i].Start -= body.Start
		refs[i].End -= body.Start
	}
	return x, refs, true
}

// sameKey counts a key that encoding/json would match to name (without regard to case), and
// says whether it is name exactly; a key in another case makes the count wrong on purpose, so
// that the line is decoded whole.
func sameKey(key []byte, name string, n *int) bool {
	if chat.KeyIs(key, name) {
		*n++
		return true
	}
	if k, ok := chat.StringValue(key); ok && strings.EqualFold(k, name) {
		*n += 2
	}
	return false
}

// blobAt is a blob reference in a stored body, and the blob's name.
type blobAt struct {
	chat.Span
	sha string
}

// blobRefs walks the stored body that starts at b[i] and finds the values that are blob
// references where JoinBody puts blobs back (visit): the tools, a top-level system prompt, and
// the messages or input items.
func blobRefs(b []byte, i int) (int, []blobAt, error) {
	var refs []blobAt
	ref := func(s, e int) {
		if h, ok := blobRef(b[s:e]); ok {
			refs = append(refs, blobAt{chat.Span{Start: s, End: e}, h})
		}
	}
	end, err := chat.EachMember(b, i, func(key []byte, start int) (int, error) {
		if (chat.KeyIs(key, "messages") || chat.KeyIs(key, "input")) && start < len(b) && b[start] == '[' {
			return chat.EachElement(b, start, func(_, s int) (int, error) {
				e, err := chat.SkipValue(b, s)
				if err == nil {
					ref(s, e)
				}
				return e, err
			})
		}
		e, err := chat.SkipValue(b, start)
		if err == nil && (chat.KeyIs(key, "tools") || chat.KeyIs(key, "instructions") || chat.KeyIs(key, "system") ||
			chat.KeyIs(key, "systemInstruction")) {
			ref(start, e)
		}
		return e, err
	})
	return end, refs, err
}

// joinRefs puts the blobs back into a stored body at refs; false when one is missing (the slow
// path then names it).
func joinRefs(body []byte, refs []blobAt, blobs map[string]json.RawMessage) ([]byte, bool) {
	reps := make([]replacement, len(refs))
	for i, r := range refs {
		data, ok := blobs[r.sha]
		if !ok {
			return nil, false
		}
		reps[i] = replacement{r.Span, data}
	}
	return join(body, reps), true
}
