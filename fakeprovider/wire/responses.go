package wire

import "strconv"

// The Responses API (POST /v1/responses). Its usage has one shape whatever the dialect:
// input_tokens, input_tokens_details.cached_tokens, output_tokens, total_tokens.

// ResponsesBody is a non-streamed response object.
func ResponsesBody(m Meta, a Answer, u Usage) []byte {
	e := enc{b: make([]byte, 0, 1024+len(a.Text)+len(a.Reasoning)), first: true}
	response(&e, m, a, &u, "completed")
	return e.b
}

// ResponsesStream is a streamed response as named server-sent events: response.created,
// response.in_progress, then each output item (reasoning summary, message text, function call)
// added, its deltas, done, and response.completed with the usage.
func ResponsesStream(m Meta, a Answer, u Usage) [][]byte {
	s := rstream{m: m}
	s.event("response.created", func(e *enc) {
		e.key("response")
		response(e, m, a, nil, "in_progress")
	})
	s.event("response.in_progress", func(e *enc) {
		e.key("response")
		response(e, m, a, nil, "in_progress")
	})
	out := 0
	if a.Reasoning != "" {
		id := itemID("rs", m, 0)
		s.event("response.output_item.added", func(e *enc) {
			e.kint("output_index", int64(out))
			e.key("item")
			reasoningItem(e, id, "", false)
		})
		s.event("response.reasoning_summary_part.added", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kint("summary_index", 0)
			e.key("part")
			summaryPart(e, "")
		})
		for _, p := range Pieces(a.Reasoning, a.Chunk, false) {
			s.event("response.reasoning_summary_text.delta", func(e *enc) {
				e.kstr("item_id", id)
				e.kint("output_index", int64(out))
				e.kint("summary_index", 0)
				e.kstr("delta", p)
			})
		}
		s.event("response.reasoning_summary_text.done", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kint("summary_index", 0)
			e.kstr("text", a.Reasoning)
		})
		s.event("response.reasoning_summary_part.done", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kint("summary_index", 0)
			e.key("part")
			summaryPart(e, a.Reasoning)
		})
		s.event("response.output_item.done", func(e *enc) {
			e.kint("output_index", int64(out))
			e.key("item")
			reasoningItem(e, id, a.Reasoning, true)
		})
		out++
	}
	if a.Text != "" {
		id := itemID("msg", m, 0)
		s.event("response.output_item.added", func(e *enc) {
			e.kint("output_index", int64(out))
			e.key("item")
			messageItem(e, id, "", false)
		})
		s.event("response.content_part.added", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kint("content_index", 0)
			e.key("part")
			outputText(e, "")
		})
		for _, p := range Pieces(a.Text, a.Chunk, false) {
			s.event("response.output_text.delta", func(e *enc) {
				e.kstr("item_id", id)
				e.kint("output_index", int64(out))
				e.kint("content_index", 0)
				e.kstr("delta", p)
				e.key("logprobs")
				e.arr()
				e.endArr()
			})
		}
		s.event("response.output_text.done", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kint("content_index", 0)
			e.kstr("text", a.Text)
			e.key("logprobs")
			e.arr()
			e.endArr()
		})
		s.event("response.content_part.done", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kint("content_index", 0)
			e.key("part")
			outputText(e, a.Text)
		})
		s.event("response.output_item.done", func(e *enc) {
			e.kint("output_index", int64(out))
			e.key("item")
			messageItem(e, id, a.Text, true)
		})
		out++
	}
	for i := range a.ToolCalls {
		c := a.ToolCalls[i]
		id := itemID("fc", m, i)
		s.event("response.output_item.added", func(e *enc) {
			e.kint("output_index", int64(out))
			e.key("item")
			callItem(e, id, ToolCall{ID: c.ID, Name: c.Name}, false)
		})
		for _, p := range Pieces(c.Arguments, a.Chunk, true) {
			s.event("response.function_call_arguments.delta", func(e *enc) {
				e.kstr("item_id", id)
				e.kint("output_index", int64(out))
				e.kstr("delta", p)
			})
		}
		s.event("response.function_call_arguments.done", func(e *enc) {
			e.kstr("item_id", id)
			e.kint("output_index", int64(out))
			e.kstr("arguments", c.Arguments)
		})
		s.event("response.output_item.done", func(e *enc) {
			e.kint("output_index", int64(out))
			e.key("item")
			callItem(e, id, c, true)
		})
		out++
	}
	s.event("response.completed", func(e *enc) {
		e.key("response")
		response(e, m, a, &u, "completed")
	})
	return s.out
}

type rstream struct {
	m   Meta
	seq int64
	out [][]byte
}

func (s *rstream) event(typ string, body func(e *enc)) {
	e := enc{b: make([]byte, 0, 256), first: true}
	e.b = append(e.b, "event: "...)
	e.b = append(e.b, typ...)
	e.b = append(e.b, "\ndata: "...)
	e.obj()
	e.kstr("type", typ)
	e.kint("sequence_number", s.seq)
	body(&e)
	e.end()
	e.b = append(e.b, '\n', '\n')
	s.seq++
	s.out = append(s.out, e.b)
}

func itemID(prefix string, m Meta, i int) string {
	return prefix + "_" + m.ID + "_" + strconv.Itoa(i)
}

// response writes the response object; usage nil while it is in progress (output empty then).
func response(e *enc, m Meta, a Answer, u *Usage, status string) {
	e.obj()
	e.kstr("id", "resp_"+m.ID)
	e.kstr("object", "response")
	e.kint("created_at", m.Created)
	e.kstr("status", status)
	e.kbool("background", false)
	e.knull("error")
	e.knull("incomplete_details")
	e.knull("instructions")
	e.knull("max_output_tokens")
	e.kstr("model", m.Model)
	e.key("output")
	e.arr()
	if u != nil {
		if a.Reasoning != "" {
			reasoningItem(e, itemID("rs", m, 0), a.Reasoning, true)
		}
		if a.Text != "" {
			messageItem(e, itemID("msg", m, 0), a.Text, true)
		}
		for i, c := range a.ToolCalls {
			callItem(e, itemID("fc", m, i), c, true)
		}
	}
	e.endArr()
	e.kbool("parallel_tool_calls", true)
	e.knull("previous_response_id")
	e.key("reasoning")
	e.obj()
	e.knull("effort")
	e.knull("summary")
	e.end()
	e.kbool("store", false)
	e.kfloat("temperature", 1)
	e.key("text")
	e.obj()
	e.key("format")
	e.obj()
	e.kstr("type", "text")
	e.end()
	e.end()
	e.kstr("tool_choice", "auto")
	e.key("tools")
	e.arr()
	e.endArr()
	e.kfloat("top_p", 1)
	e.kstr("truncation", "disabled")
	if u == nil {
		e.knull("usage")
	} else {
		e.key("usage")
		e.obj()
		e.kint("input_tokens", int64(u.Prompt))
		e.key("input_tokens_details")
		e.obj()
		e.kint("cached_tokens", int64(u.Cached))
		e.end()
		e.kint("output_tokens", int64(u.Completion))
		e.key("output_tokens_details")
		e.obj()
		e.kint("reasoning_tokens", int64(u.Reasoning))
		e.end()
		e.kint("total_tokens", int64(u.Prompt+u.Completion))
		e.end()
	}
	e.key("metadata")
	e.obj()
	e.end()
	e.end()
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

func summaryPart(e *enc, text string) {
	e.obj()
	e.kstr("type", "summary_text")
	e.kstr("text", text)
	e.end()
}

func messageItem(e *enc, id, text string, done bool) {
	e.obj()
	e.kstr("id", id)
	e.kstr("type", "message")
	e.kstr("status", status(done))
	e.kstr("role", "assistant")
	e.key("content")
	e.arr()
	if done {
		outputText(e, text)
	}
	e.endArr()
	e.end()
}

func outputText(e *enc, text string) {
	e.obj()
	e.kstr("type", "output_text")
	e.key("annotations")
	e.arr()
	e.endArr()
	e.key("logprobs")
	e.arr()
	e.endArr()
	e.kstr("text", text)
	e.end()
}

func callItem(e *enc, id string, c ToolCall, done bool) {
	e.obj()
	e.kstr("id", id)
	e.kstr("type", "function_call")
	e.kstr("status", status(done))
	e.kstr("arguments", c.Arguments)
	e.kstr("call_id", c.ID)
	e.kstr("name", c.Name)
	e.end()
}
