package replay

import (
	"bytes"
	"encoding/json"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// Responses requests that continue an earlier response (previous_response_id, as codex sends
// every turn after the first over its WebSocket) carry only their new input: the model sees the
// earlier turns too. A reader puts them back, from the responses recorded before, so the audit
// and the bench see each prompt whole.

// link is one recorded response: what it continues, and the items it adds to the conversation
// (its request's input, then its output).
type link struct {
	parent *link
	items  []json.RawMessage
}

// maxChains bounds the responses a reader remembers for continuations.
const maxChains = 4096

// chains are the recorded responses by id, for the continuations that name them.
type chains struct {
	byID  map[string]*link
	order []string
}

// prompt is the request body as the model saw it when it continues a response recorded
// earlier (nil otherwise), and notes the entry's response for later continuations.
func (c *chains) prompt(e *Entry) []byte {
	if chat.APIOf(e.Exchange.Path) != chat.Responses {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(e.Body, &top) != nil {
		return nil
	}
	input, _ := chat.InputItems(top["input"])
	var prev string
	json.Unmarshal(top["previous_response_id"], &prev)
	parent := c.byID[prev]
	id, output := responseOutput(e.Exchange.Response)
	if id != "" {
		if c.byID == nil {
			c.byID = map[string]*link{}
		}
		if len(c.order) >= maxChains {
			delete(c.byID, c.order[0])
			c.order = c.order[1:]
		}
		c.byID[id] = &link{parent: parent, items: append(append([]json.RawMessage(nil), input...), output...)}
		c.order = append(c.order, id)
	}
	if parent == nil {
		return nil
	}
	var earlier [][]json.RawMessage
	for l := parent; l != nil; l = l.parent {
		earlier = append(earlier, l.items)
	}
	var all []json.RawMessage
	for i := len(earlier) - 1; i >= 0; i-- {
		all = append(all, earlier[i]...)
	}
	return chat.Continuation(top, append(all, input...))
}

// responseOutput is a recorded Responses answer's id and output items: from its body, or from
// the response.completed (or incomplete) event of its stream or WebSocket messages.
func responseOutput(r *Response) (string, []json.RawMessage) {
	if r == nil {
		return "", nil
	}
	var resp struct {
		ID     string            `json:"id"`
		Output []json.RawMessage `json:"output"`
	}
	if !r.Stream {
		json.Unmarshal(r.Body, &resp)
		return resp.ID, resp.Output
	}
	for _, ev := range Events(bytes.Join(r.streamChunks(), nil)) {
		var v struct {
			Type     string          `json:"type"`
			Response json.RawMessage `json:"response"`
		}
		if json.Unmarshal(ev, &v) == nil && (v.Type == "response.completed" || v.Type == "response.incomplete") {
			json.Unmarshal(v.Response, &resp)
		}
	}
	return resp.ID, resp.Output
}
