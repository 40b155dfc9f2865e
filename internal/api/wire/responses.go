package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The Responses API (POST /v1/responses). Its usage has one shape whatever the dialect:
// input_tokens, input_tokens_details.cached_tokens, output_tokens, total_tokens.

// ResponsesBody is a non-streamed response object. q is the request, whose settings the
// response echoes (nil: the API's defaults).
func ResponsesBody(m Meta, q *Request, a Answer, u Usage) []byte {
	e := enc{b: make([]byte, 0, 1536+len(a.Text)+len(a.Reasoning)), first: true}
	response(&e, m, q, a, &u, Status(a))
	return e.b
}

// Status is a finished response's status: "incomplete" when the answer was cut by its token
// bound, else "completed".
func Status(a Answer) string {
	if a.FinishReason == "length" {
		return "incomplete"
	}
	return "completed"
}

// ResponseItems are a finished answer's output items, as ResponsesBody lists them: what a
// stored response continues with.
func ResponseItems(m Meta, a Answer) []json.RawMessage {
	var out []json.RawMessage
	eachItem(m, a, func(render func(e *enc, done bool)) {
		e := enc{first: true}
		render(&e, true)
		out = append(out, e.b)
	})
	return out
}

// eachItem calls f with each output item of the answer, in order: its reasoning, its message,
// its calls.
func eachItem(m Meta, a Answer, f func(render func(e *enc, done bool))) {
	st := itemStatus(a)
	if a.Compaction != "" {
		f(func(e *enc, done bool) { compactionItem(e, itemID("cmp", m, 0), a.Compaction) })
	}
	if a.Reasoning != "" {
		f(func(e *enc, done bool) { reasoningItem(e, itemID("rs", m, 0), a.Reasoning, done) })
	}
	if a.Text != "" {
		f(func(e *enc, done bool) { messageItem(e, itemID("msg", m, 0), a, done, st) })
	}
	for i, c := range a.ToolCalls {
		f(func(e *enc, done bool) { callItem(e, callItemID(m, c, i), c, done) })
	}
}

// ResponsesStream is a streamed response as named server-sent events: response.created,
// response.in_progress, then each output item (reasoning summary, message text, function or
// custom tool call) added, its deltas, done, and response.completed (response.incomplete for
// an answer cut short) with the usage.
func ResponsesStream(m Meta, q *Request, a Answer, u Usage) [][]byte {
	var out [][]byte
	ResponsesEvents(m, q, a, u, func(typ string, data []byte) { out = append(out, Event(typ, data)) })
	return out
}

// ResponsesEvents gives each streaming event of a response, its type and its JSON, in order:
// the events of ResponsesStream, which the WebSocket mode sends as frames of their own.
func ResponsesEvents(m Meta, q *Request, a Answer, u Usage, emit func(typ string, data []byte)) {
	s := rstream{emit: emit}
	for _, typ := range []string{"response.created", "response.in_progress"} {
		s.event(typ, func(e *enc) {
			e.key("response")
			response(e, m, q, a, nil, "in_progress")
		})
	}
	out := 0
	st := itemStatus(a)
	if a.Compaction != "" {
		id := itemID("cmp", m, 0)
		for _, typ := range []string{"response.output_item.added", "response.output_item.done"} {
			s.item(typ, out, func(e *enc) { compactionItem(e, id, a.Compaction) })
		}
		out++
	}
	if a.Reasoning != "" {
		s.reasoning(m, a, out)
		out++
	}
	if a.Text != "" {
		s.message(m, a, out, st)
		out++
	}
	for i, c := range a.ToolCalls {
		s.call(m, a, c, i, out)
		out++
	}
	final := "response.completed"
	if Status(a) == "incomplete" {
		final = "response.incomplete"
	}
	s.event(final, func(e *enc) {
		e.key("response")
		response(e, m, q, a, &u, Status(a))
	})
}

// reasoning emits the reasoning item, output index out, and its summary's events.
func (s *rstream) reasoning(m Meta, a Answer, out int) {
	id := itemID("rs", m, 0)
	s.item("response.output_item.added", out, func(e *enc) { reasoningItem(e, id, "", false) })
	s.part("response.reasoning_summary_part.added", id, out, "summary_index", func(e *enc) {
		e.key("part")
		summaryPart(e, "")
	})
	for _, p := range Pieces(a.Reasoning, a.Chunk, false) {
		s.part("response.reasoning_summary_text.delta", id, out, "summary_index", func(e *enc) {
			e.kstr("delta", p)
		})
	}
	s.part("response.reasoning_summary_text.done", id, out, "summary_index", func(e *enc) {
		e.kstr("text", a.Reasoning)
	})
	s.part("response.reasoning_summary_part.done", id, out, "summary_index", func(e *enc) {
		e.key("part")
		summaryPart(e, a.Reasoning)
	})
	s.item("response.output_item.done", out, func(e *enc) { reasoningItem(e, id, a.Reasoning, true) })
}

// message emits the message item, output index out, its text's deltas with their logprobs.
func (s *rstream) message(m Meta, a Answer, out int, st string) {
	id := itemID("msg", m, 0)
	s.item("response.output_item.added", out, func(e *enc) { messageItem(e, id, a, false, "") })
	s.part("response.content_part.added", id, out, "content_index", func(e *enc) {
		e.key("part")
		outputText(e, Answer{})
	})
	for i, p := range textPieces(a) {
		lp := a.Logprobs.one(i)
		s.part("response.output_text.delta", id, out, "content_index", func(e *enc) {
			e.kstr("delta", p)
			e.key("logprobs")
			logprobList(e, lp)
		})
	}
	s.part("response.output_text.done", id, out, "content_index", func(e *enc) {
		e.kstr("text", a.Text)
		e.key("logprobs")
		logprobList(e, a.Logprobs)
	})
	s.part("response.content_part.done", id, out, "content_index", func(e *enc) {
		e.key("part")
		outputText(e, a)
	})
	s.item("response.output_item.done", out, func(e *enc) { messageItem(e, id, a, true, st) })
}

// call emits tool call i's item, output index out, and its arguments' (or input's) deltas.
func (s *rstream) call(m Meta, a Answer, c ToolCall, i, out int) {
	id := callItemID(m, c, i)
	s.item("response.output_item.added", out, func(e *enc) {
		callItem(e, id, ToolCall{ID: c.ID, Name: c.Name, Custom: c.Custom, Namespace: c.Namespace}, false)
	})
	delta, done, field := "response.function_call_arguments.delta", "response.function_call_arguments.done", "arguments"
	if c.Custom {
		delta, done, field = "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "input"
	}
	for _, p := range Pieces(c.Arguments, a.Chunk, true) {
		s.part(delta, id, out, "", func(e *enc) {
			e.kstr("delta", p)
		})
	}
	s.part(done, id, out, "", func(e *enc) {
		if !c.Custom {
			e.kstr("name", c.Name)
		}
		e.kstr(field, c.Arguments)
	})
	s.item("response.output_item.done", out, func(e *enc) { callItem(e, id, c, true) })
}

type rstream struct {
	seq  int64
	emit func(typ string, data []byte)
}

// item is an event carrying an output item whole: its output_index, then the item.
func (s *rstream) item(typ string, out int, item func(e *enc)) {
	s.event(typ, func(e *enc) {
		e.kint("output_index", int64(out))
		e.key("item")
		item(e)
	})
}

// part is an event about output item id: its item_id and output_index, then the index of its
// part (summary_index or content_index, always 0: one part an item) unless index is "".
func (s *rstream) part(typ, id string, out int, index string, body func(e *enc)) {
	s.event(typ, func(e *enc) {
		e.kstr("item_id", id)
		e.kint("output_index", int64(out))
		if index != "" {
			e.kint(index, 0)
		}
		body(e)
	})
}

func (s *rstream) event(typ string, body func(e *enc)) {
	e := enc{b: make([]byte, 0, 256), first: true}
	e.obj()
	e.kstr("type", typ)
	e.kint("sequence_number", s.seq)
	body(&e)
	e.end()
	s.seq++
	s.emit(typ, e.b)
}

func itemID(prefix string, m Meta, i int) string {
	return prefix + "_" + m.ID + "_" + strconv.Itoa(i)
}

func callItemID(m Meta, c ToolCall, i int) string {
	if c.Custom {
		return itemID("ctc", m, i)
	}
	return itemID("fc", m, i)
}

// itemStatus is the status of the answer's last item once done: incomplete when cut short.
func itemStatus(a Answer) string {
	if Status(a) == "incomplete" {
		return "incomplete"
	}
	return "completed"
}

// ResponseID is the id of the response a completion of this Meta is.
func ResponseID(m Meta) string { return "resp_" + m.ID }

// response writes the response object; usage nil while it is in progress (output empty then).
// Its members come in the order the API sends them; each setting is the request's, else the
// API's default.
func response(e *enc, m Meta, q *Request, a Answer, u *Usage, status string) {
	top := map[string]json.RawMessage{}
	if q != nil && q.Top != nil {
		top = q.Top
	}
	echo := func(k, def string) { echoRaw(e, k, top[k], def) }
	e.obj()
	e.kstr("id", ResponseID(m))
	e.kstr("object", "response")
	e.kint("created_at", m.Created)
	e.kstr("status", status)
	e.kbool("background", false)
	e.key("access_programs") // required by the SDKs' types; the fake runs no access program
	e.obj()
	e.kstr("cyber", "standard")
	e.end()
	if u != nil {
		e.kint("completed_at", m.Created)
	} else {
		e.knull("completed_at")
	}
	if c := conversationOf(q); c != "" {
		e.key("conversation")
		e.obj()
		e.kstr("id", c)
		e.end()
	}
	e.knull("error")
	echo("frequency_penalty", "0.0")
	if u != nil && status == "incomplete" {
		e.key("incomplete_details")
		e.obj()
		e.kstr("reason", "max_output_tokens")
		e.end()
	} else {
		e.knull("incomplete_details")
	}
	echo("instructions", "null")
	echo("max_output_tokens", "null")
	echo("max_tool_calls", "null")
	e.kstr("model", m.Model)
	e.key("output")
	e.arr()
	if u != nil {
		eachItem(m, a, func(render func(e *enc, done bool)) { render(e, true) })
	}
	e.endArr()
	echo("parallel_tool_calls", "true")
	echo("presence_penalty", "0.0")
	echo("previous_response_id", "null")
	echo("prompt_cache_key", "null")
	r := settingsOf(top["reasoning"])
	echoObject(e, "reasoning", echoed{"effort", r.Effort, "null"}, echoed{"summary", r.Summary, "null"})
	echo("safety_identifier", "null")
	e.key("service_tier")
	if raw, ok := top["service_tier"]; ok && !isNull(raw) && string(compact(raw)) != `"auto"` {
		e.raw(compact(raw))
	} else {
		e.str("default")
	}
	e.kbool("store", q == nil || q.Store)
	echo("temperature", "1.0")
	t := settingsOf(top["text"])
	echoObject(e, "text", echoed{"format", t.Format, `{"type":"text"}`}, echoed{"verbosity", t.Verbosity, `"medium"`})
	echo("tool_choice", `"auto"`)
	e.key("tools")
	echoTools(e, top["tools"])
	echo("top_logprobs", "0")
	echo("top_p", "1.0")
	echo("truncation", `"disabled"`)
	responseUsage(e, u)
	echo("user", "null")
	echo("metadata", "{}")
	e.end()
}

// responseUsage writes the response's usage: null while it is in progress.
func responseUsage(e *enc, u *Usage) {
	if u == nil {
		e.knull("usage")
		return
	}
	e.key("usage")
	e.obj()
	e.kint("input_tokens", int64(u.Prompt))
	e.key("input_tokens_details")
	e.obj()
	e.kint("cached_tokens", int64(u.Cached))
	e.kint("cache_write_tokens", 0) // OpenAI's cache is written without a charge; nothing is counted
	e.end()
	e.kint("output_tokens", int64(u.Completion))
	e.key("output_tokens_details")
	e.obj()
	e.kint("reasoning_tokens", int64(u.Reasoning))
	e.end()
	e.kint("total_tokens", int64(u.Prompt+u.Completion))
	e.end()
}

func conversationOf(q *Request) string {
	if q == nil {
		return ""
	}
	return q.Conversation
}

// echoTools writes the request's tools as the API gives them back: a function with its
// description, parameters and strict (null, null and true when not sent), a custom tool with
// its format ({"type": "text"} when not sent); any other tool as sent.
func echoTools(e *enc, raw json.RawMessage) {
	e.arr()
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		for _, t := range list {
			var m map[string]json.RawMessage
			if json.Unmarshal(t, &m) != nil {
				continue
			}
			field := func(k, def string) {
				e.key(k)
				if v, ok := m[k]; ok {
					e.raw(compact(v))
				} else {
					e.raw([]byte(def))
				}
			}
			switch string(m["type"]) {
			case `"function"`:
				e.obj()
				e.kstr("type", "function")
				field("description", "null")
				field("name", `""`)
				field("parameters", "null")
				field("strict", "true")
				e.end()
			case `"custom"`:
				e.obj()
				e.kstr("type", "custom")
				if _, ok := m["description"]; ok {
					field("description", "null")
				}
				field("format", `{"type":"text"}`)
				field("name", `""`)
				e.end()
			default:
				e.raw(compact(t))
			}
		}
	}
	e.endArr()
}

// settings are the members of the request's reasoning and text objects the response gives back.
type settings struct {
	Effort, Summary   json.RawMessage // reasoning
	Format, Verbosity json.RawMessage // text
}

// settingsOf reads a settings object; what is not an object has none of them.
func settingsOf(raw json.RawMessage) settings {
	var s settings
	json.Unmarshal(raw, &s)
	return s
}

// echoed is one member of an object given back: its key, what the request sent, the default.
type echoed struct {
	key      string
	raw      json.RawMessage
	fallback string
}

// echoObject writes k as an object of the members, each as sent or its default.
func echoObject(e *enc, k string, members ...echoed) {
	e.key(k)
	e.obj()
	for _, m := range members {
		echoRaw(e, m.key, m.raw, m.fallback)
	}
	e.end()
}

// echoRaw writes k with what the request sent (compacted), or def (raw JSON) when it sent nothing
// or null.
func echoRaw(e *enc, k string, raw json.RawMessage, def string) {
	e.key(k)
	if absent(raw) {
		e.raw([]byte(def))
	} else {
		e.raw(compact(raw))
	}
}

// compact is a raw JSON value without insignificant space (what encoding/json would write,
// but with <, > and & as they are).
func compact(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if !bytes.ContainsAny(raw, " \t\r\n") {
		return raw
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func status(done bool) string {
	if done {
		return "completed"
	}
	return "in_progress"
}

func reasoningItem(e *enc, id, text string, done bool) {
	e.obj()
	e.kstr("id", id)
	e.kstr("type", "reasoning")
	e.kstr("status", status(done))
	e.key("summary")
	e.arr()
	if done {
		summaryPart(e, text)
	}
	e.endArr()
	e.end()
}

// compactionItem is {id, type: "compaction", encrypted_content}.
func compactionItem(e *enc, id, summary string) {
	e.obj()
	e.kstr("id", id)
	e.kstr("type", "compaction")
	e.kstr("encrypted_content", CompactionContent(summary))
	e.end()
}

func summaryPart(e *enc, text string) {
	e.obj()
	e.kstr("type", "summary_text")
	e.kstr("text", text)
	e.end()
}

// messageItem writes the assistant's message; st is its status once done (completed, or
// incomplete when the answer was cut short).
func messageItem(e *enc, id string, a Answer, done bool, st string) {
	e.obj()
	e.kstr("id", id)
	e.kstr("type", "message")
	if done {
		e.kstr("status", st)
	} else {
		e.kstr("status", "in_progress")
	}
	e.key("content")
	e.arr()
	if done {
		outputText(e, a)
	}
	e.endArr()
	e.kstr("role", "assistant")
	e.end()
}

func outputText(e *enc, a Answer) {
	e.obj()
	e.kstr("type", "output_text")
	e.kstrs("annotations")
	e.key("logprobs")
	logprobList(e, a.Logprobs)
	e.kstr("text", a.Text)
	e.end()
}

func callItem(e *enc, id string, c ToolCall, done bool) {
	e.obj()
	e.kstr("id", id)
	// The two items order their members apart: input before call_id, arguments after it.
	if c.Custom {
		e.kstr("type", "custom_tool_call")
		e.kstr("status", status(done))
		e.kstr("call_id", c.ID)
		e.kstr("input", c.Arguments)
	} else {
		e.kstr("type", "function_call")
		e.kstr("status", status(done))
		e.kstr("arguments", c.Arguments)
		e.kstr("call_id", c.ID)
	}
	e.kstr("name", c.Name)
	if c.Namespace != "" {
		e.kstr("namespace", c.Namespace)
	}
	e.end()
}

// CompactionContent is a compaction item's encrypted_content: opaque to the client, as the API's
// is, but the summary in the clear after a prefix, so a recording can be read.
func CompactionContent(summary string) string { return "lembas-fake-compaction:" + summary }

// StoredItem is an input item as the API gives it back once kept (input_items, conversation
// items, a compaction's output): with its id (id, or its own), and a message in full — type,
// status, content as parts (a string becomes one input_text part, output_text for the
// assistant), role. Other items get only their id.
func StoredItem(item json.RawMessage, id string) json.RawMessage {
	var m struct {
		ID      *string         `json:"id"`
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Status  string          `json:"status"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(item, &m) != nil {
		return item
	}
	if m.ID != nil {
		id = *m.ID
	}
	if (m.Type != "" && m.Type != "message") || m.Role == "" {
		if m.ID != nil {
			return item
		}
		return WithMember(item, "id", string(appendString(nil, id)))
	}
	e := enc{first: true}
	e.obj()
	e.kstr("id", id)
	e.kstr("type", "message")
	st := m.Status
	if st == "" {
		st = "completed"
	}
	e.kstr("status", st)
	e.key("content")
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		e.arr()
		e.obj()
		if m.Role == "assistant" {
			e.kstr("type", "output_text")
			e.kstrs("annotations")
			e.kstrs("logprobs")
		} else {
			e.kstr("type", "input_text")
		}
		e.kstr("text", s)
		e.end()
		e.endArr()
	} else if len(m.Content) > 0 {
		e.raw(compact(m.Content))
	} else {
		e.arr()
		e.endArr()
	}
	e.kstr("role", m.Role)
	e.end()
	return e.b
}
