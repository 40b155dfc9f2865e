package fakeprovider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// The state the Responses API keeps: stored responses (store: true, the API's default), which a
// later request continues with previous_response_id, reads back (GET /v1/responses/{id}, its
// input_items) or deletes; and conversations with their items. In memory, for the server's life.

// stored is a response the server keeps.
type stored struct {
	id   string
	body []byte // the response object as sent
	// input are the request's own input items (with ids); chain is everything the response
	// continues with: the earlier chain, the input, and the output.
	input, chain []json.RawMessage
}

type conversation struct {
	id       string
	created  int64
	metadata json.RawMessage
	items    []json.RawMessage
}

type state struct {
	mu    sync.Mutex
	resps map[string]*stored
	convs map[string]*conversation
	ids   int
	// warmups counts the WebSocket warm-ups (generate: false), which have ids of their own.
	warmups atomic.Int64
}

func newState() *state {
	return &state{resps: map[string]*stored{}, convs: map[string]*conversation{}}
}

// nextID names a new object: prefix and a number, the same from run to run.
func (st *state) nextID(prefix string) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ids++
	return fmt.Sprintf("%s_fake%d", prefix, st.ids)
}

func (st *state) response(id string) *stored {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.resps[id]
}

func (st *state) put(r *stored) {
	st.mu.Lock()
	st.resps[r.id] = r
	st.mu.Unlock()
}

// withIDs gives each item an id, as the API does when it keeps them: msg_… for messages, item_…
// for others; an item that has one keeps it.
func (st *state) withIDs(items []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		out[i] = st.withID(it)
	}
	return out
}

func (st *state) withID(it json.RawMessage) json.RawMessage {
	var m struct {
		ID   *string `json:"id"`
		Type string  `json:"type"`
		Role string  `json:"role"`
	}
	if json.Unmarshal(it, &m) != nil {
		return it
	}
	id := ""
	if m.ID == nil {
		prefix := "item"
		if m.Type == "" || m.Type == "message" {
			prefix = "msg"
		}
		id = st.nextID(prefix)
	}
	return wire.StoredItem(it, id)
}

func notFound(what, id string) *wire.Error {
	return &wire.Error{Status: http.StatusNotFound, Type: wire.TypeInvalidRequest,
		Message: fmt.Sprintf("%s with id '%s' not found.", what, id)}
}

// previousNotFound is the API's answer to a previous_response_id it does not hold.
func previousNotFound(id string) *wire.Error {
	return &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest, Param: "previous_response_id",
		Code:    "previous_response_not_found",
		Message: fmt.Sprintf("Previous response with id '%s' not found.", id)}
}

// unansweredCalls checks that each tool output in the input answers a call of the chain or of
// the input itself, as the API does.
func unansweredCalls(chain, input []json.RawMessage) *wire.Error {
	calls := map[string]bool{}
	note := func(items []json.RawMessage) {
		for _, it := range items {
			var c struct {
				Type   string `json:"type"`
				CallID string `json:"call_id"`
			}
			if json.Unmarshal(it, &c) == nil && (c.Type == "function_call" || c.Type == "custom_tool_call") {
				calls[c.CallID] = true
			}
		}
	}
	note(chain)
	note(input)
	for i, it := range input {
		var o struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		}
		if json.Unmarshal(it,
			&o) == nil && (o.Type == "function_call_output" || o.Type == "custom_tool_call_output") &&
			!calls[o.CallID] {
			return &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest,
				Param:   fmt.Sprintf("input[%d]", i),
				Message: fmt.Sprintf("No tool call found for function call output with call_id %s.", o.CallID)}
		}
	}
	return nil
}

// handleGetResponse is GET /v1/responses/{id}.
func (s *Server) handleGetResponse(w http.ResponseWriter, r *http.Request) {
	if st := s.storedOf(w, r); st != nil {
		writeJSON(w, http.StatusOK, st.body)
	}
}

// storedOf is the stored response the path's {id} names; nil once it has answered the API's
// 404 for an id it does not hold.
func (s *Server) storedOf(w http.ResponseWriter, r *http.Request) *stored {
	id := r.PathValue("id")
	st := s.state.response(id)
	if st == nil {
		writeError(w, notFound("Response", id))
	}
	return st
}

// handleDeleteResponse is DELETE /v1/responses/{id}.
func (s *Server) handleDeleteResponse(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.state.mu.Lock()
	_, ok := s.state.resps[id]
	delete(s.state.resps, id)
	s.state.mu.Unlock()
	if !ok {
		writeError(w, notFound("Response", id))
		return
	}
	writeValue(w, wire.Obj("id", id, "object", "response.deleted", "deleted", true))
}

// handleInputItems is GET /v1/responses/{id}/input_items.
func (s *Server) handleInputItems(w http.ResponseWriter, r *http.Request) {
	if st := s.storedOf(w, r); st != nil {
		writeList(w, r, st.input, "desc")
	}
}

// handleCancel is POST /v1/responses/{id}/cancel: the fake runs nothing in the background.
func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	if s.storedOf(w, r) == nil {
		return
	}
	writeError(w, &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest,
		Message: "Only responses created with background: true can be cancelled."})
}

// writeList answers a list endpoint: {object: "list", data, first_id, last_id, has_more}, with
// the API's `order` (asc or desc, default def), `limit` (1–100, default 20) and `after`.
func writeList(w http.ResponseWriter, r *http.Request, items []json.RawMessage, def string) {
	q := r.URL.Query()
	order := q.Get("order")
	if order == "" {
		order = def
	}
	if order != "asc" && order != "desc" {
		writeError(w, &wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Param: "order", Code: "invalid_value",
			Message: fmt.Sprintf("Invalid value: '%s'. Supported values are: 'asc' and 'desc'.", order)})
		return
	}
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			writeError(w, &wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Param: "limit", Code: "invalid_value",
				Message: fmt.Sprintf("Invalid 'limit': %s. Expected an integer from 1 to 100.", v)})
			return
		}
		limit = n
	}
	list := append([]json.RawMessage(nil), items...)
	if order == "desc" {
		for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
			list[i], list[j] = list[j], list[i]
		}
	}
	if after := q.Get("after"); after != "" {
		for i, it := range list {
			if itemID(it) == after {
				list = list[i+1:]
				break
			}
		}
	}
	more := len(list) > limit
	if more {
		list = list[:limit]
	}
	first, last := any(nil), any(nil)
	if len(list) > 0 {
		first, last = itemID(list[0]), itemID(list[len(list)-1])
	}
	writeValue(w, wire.Obj("object", "list", "data", list, "first_id", first, "last_id", last, "has_more", more))
}

func itemID(it json.RawMessage) string {
	var m struct {
		ID string `json:"id"`
	}
	json.Unmarshal(it, &m)
	return m.ID
}

// Conversations: POST /v1/conversations {items?, metadata?}; GET, POST (metadata) and DELETE
// /v1/conversations/{id}; GET and POST /v1/conversations/{id}/items; GET and DELETE
// /v1/conversations/{id}/items/{item_id}.

func convObject(c *conversation) wire.Object {
	md := c.metadata
	if md == nil {
		md = json.RawMessage("{}")
	}
	return wire.Obj("id", c.id, "object", "conversation", "created_at", c.created, "metadata", md)
}

func (s *Server) handleCreateConversation(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Items    []json.RawMessage `json:"items"`
		Metadata json.RawMessage   `json:"metadata"`
	}
	if !s.readJSON(w, r, &in) {
		return
	}
	if len(in.Items) > 20 {
		writeError(w, &wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Param: "items",
			Code: "array_above_max_length",
			Message: fmt.Sprintf("Invalid 'items': array too long. Expected an array with maximum length 20, but got "+
				"an array with length %d instead.", len(in.Items))})
		return
	}
	c := &conversation{id: s.state.nextID("conv"), created: s.now().Unix(), metadata: nullToNil(in.Metadata),
		items: s.state.withIDs(in.Items)}
	s.state.mu.Lock()
	s.state.convs[c.id] = c
	s.state.mu.Unlock()
	writeValue(w, convObject(c))
}

func nullToNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}

// readJSON decodes a small JSON body (an empty one is {}), answering a 400 when it is not.
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, wire.TooLarge(s.maxBody))
		return false
	}
	if len(body) == 0 {
		return true
	}
	if err := json.Unmarshal(body, v); err != nil {
		writeError(w, &wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Code: "invalid_json",
			Message: fmt.Sprintf("We could not parse the JSON body of your request: %v.", err)})
		return false
	}
	return true
}

func (s *Server) conversation(w http.ResponseWriter, r *http.Request) *conversation {
	id := r.PathValue("id")
	s.state.mu.Lock()
	c := s.state.convs[id]
	s.state.mu.Unlock()
	if c == nil {
		writeError(w, notFound("Conversation", id))
	}
	return c
}

func (s *Server) handleConversation(w http.ResponseWriter, r *http.Request) {
	c := s.conversation(w, r)
	if c == nil {
		return
	}
	switch r.Method {
	case http.MethodPost:
		var in struct {
			Metadata json.RawMessage `json:"metadata"`
		}
		if !s.readJSON(w, r, &in) {
			return
		}
		s.state.mu.Lock()
		c.metadata = nullToNil(in.Metadata)
		s.state.mu.Unlock()
	case http.MethodDelete:
		s.state.mu.Lock()
		delete(s.state.convs, c.id)
		s.state.mu.Unlock()
		writeValue(w, wire.Obj("id", c.id, "object", "conversation.deleted", "deleted", true))
		return
	}
	s.state.mu.Lock()
	o := convObject(c)
	s.state.mu.Unlock()
	writeValue(w, o)
}

func (s *Server) handleConversationItems(w http.ResponseWriter, r *http.Request) {
	c := s.conversation(w, r)
	if c == nil {
		return
	}
	if r.Method == http.MethodPost {
		var in struct {
			Items []json.RawMessage `json:"items"`
		}
		if !s.readJSON(w, r, &in) {
			return
		}
		if len(in.Items) == 0 {
			writeError(w, &wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Param: "items",
				Code:    "missing_required_parameter",
				Message: "Missing required parameter: 'items'."})
			return
		}
		added := s.state.withIDs(in.Items)
		s.state.mu.Lock()
		c.items = append(c.items, added...)
		s.state.mu.Unlock()
		first, last := itemID(added[0]), itemID(added[len(added)-1])
		writeValue(w, wire.Obj("object", "list", "data", added, "first_id", first, "last_id", last, "has_more", false))
		return
	}
	s.state.mu.Lock()
	items := append([]json.RawMessage(nil), c.items...)
	s.state.mu.Unlock()
	writeList(w, r, items, "desc")
}

func (s *Server) handleConversationItem(w http.ResponseWriter, r *http.Request) {
	c := s.conversation(w, r)
	if c == nil {
		return
	}
	id := r.PathValue("item")
	s.state.mu.Lock()
	defer s.state.mu.Unlock()
	for i, it := range c.items {
		if itemID(it) != id {
			continue
		}
		if r.Method == http.MethodDelete {
			c.items = append(c.items[:i:i], c.items[i+1:]...)
			o := convObject(c)
			s.state.mu.Unlock()
			writeValue(w, o)
			s.state.mu.Lock()
			return
		}
		writeJSON(w, http.StatusOK, it)
		return
	}
	writeError(w, notFound("Item", id))
}

// handleCompact is POST /v1/responses/compact: the input window compacted, as the API gives it
// back — the user's messages kept, the rest replaced by one compaction item whose
// encrypted_content carries the summary (the script's `compaction`, else a default).
func (s *Server) handleCompact(w http.ResponseWriter, r *http.Request) {
	t := s.readTurn(w, r)
	if t == nil {
		return
	}
	req := t.req
	summary := s.picker.Script().Compaction
	if summary == "" {
		summary = DefaultCompaction
	}
	var out []json.RawMessage
	for _, it := range req.Input {
		var m struct {
			Type string `json:"type"`
			Role string `json:"role"`
		}
		if json.Unmarshal(it, &m) == nil && (m.Type == "" || m.Type == "message") && m.Role == "user" {
			out = append(out, s.state.withID(it))
		}
	}
	id := s.state.nextID("cmp")
	item, _ := jsonx.Marshal(wire.Obj("id", id, "type", "compaction", "encrypted_content",
		wire.CompactionContent(summary)))
	out = append(out, item)
	u := s.usage(r.Context(), t.body, req, wire.Answer{Text: summary})
	writeValue(w, wire.Obj("id", id, "object", "response.compaction", "created_at", s.now().Unix(), "output", out,
		"usage", wire.Obj("input_tokens", u.Prompt, "input_tokens_details", wire.Obj("cached_tokens", u.Cached),
			"output_tokens", u.Completion, "output_tokens_details", wire.Obj("reasoning_tokens",
				0), "total_tokens", u.Prompt+u.Completion)))
}

// DefaultCompaction is the summary of a compaction when the script gives none.
const DefaultCompaction = "A summary of the conversation so far, made by lembas-check's fake provider."

// handleInputTokens is POST /v1/responses/input_tokens: the prompt's tokens, counted as the
// usage would count them.
func (s *Server) handleInputTokens(w http.ResponseWriter, r *http.Request) {
	t := s.readTurn(w, r)
	if t == nil {
		return
	}
	req := t.req
	n := s.count(string(t.body)) + mediaTokens*(req.Params.Images+req.Params.Files)
	writeValue(w, wire.Obj("object", "response.input_tokens", "input_tokens", n))
}

// readTurn reads a Responses request that is not answered by the script (compact, input_tokens):
// decoded, its model served, the turns it continues put before it. nil: the error was answered.
func (s *Server) readTurn(w http.ResponseWriter, r *http.Request) *turn {
	body, err := s.readBody(w, r)
	if err != nil {
		writeError(w, wire.TooLarge(s.maxBody))
		return nil
	}
	t, e := s.decodeTurn(chat.Responses, body, nil, false)
	if e != nil {
		writeError(w, e)
		return nil
	}
	return t
}
