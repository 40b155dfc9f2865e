// Package gen makes recordings by driving scripted sessions: a harness side that builds each
// request as a harness would (keeping the 3.1 prefix rules, or breaking one of them on purpose),
// a scripted model side that answers, and a simulated server (cachesim) that reports the
// cached tokens in llama.cpp's fields. The recordings under testdata/recordings are made by it
// (`go run ./cachebench/cmd/gen`), and so are the large ones the benchmarks audit.
package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/cachebench/simserver"
	"github.com/LLeMbas/lembas-check/cachesim"
	"github.com/LLeMbas/lembas-check/replay"
)

// Session is the harness side of one conversation: what its next request sends.
type Session struct {
	Model  string
	Stream bool
	System []json.RawMessage
	Tools  []json.RawMessage
	Msgs   []json.RawMessage
}

// Body is the next request's body: model, messages (system first), tools, stream.
func (s *Session) Body() []byte {
	var b bytes.Buffer
	b.WriteString(`{"model":`)
	b.Write(str(s.Model))
	b.WriteString(`,"messages":[`)
	n := 0
	for _, m := range append(append([]json.RawMessage(nil), s.System...), s.Msgs...) {
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
		n++
	}
	b.WriteByte(']')
	if len(s.Tools) > 0 {
		b.WriteString(`,"tools":[`)
		for i, t := range s.Tools {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(t)
		}
		b.WriteByte(']')
	}
	if s.Stream {
		b.WriteString(`,"stream":true,"stream_options":{"include_usage":true}`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// str is a JSON string, with <, > and & kept as they are.
func str(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Msg is a message with a text content.
func Msg(role, content string) json.RawMessage {
	return json.RawMessage(`{"role":` + string(str(role)) + `,"content":` + string(str(content)) + `}`)
}

// Tool is a function tool with one string parameter per name.
func Tool(name, description string, params ...string) json.RawMessage {
	props := make([]string, len(params))
	for i, p := range params {
		props[i] = string(str(p)) + `:{"type":"string"}`
	}
	req := make([]string, len(params))
	for i, p := range params {
		req[i] = string(str(p))
	}
	return json.RawMessage(`{"type":"function","function":{"name":` + string(str(name)) + `,"description":` + string(str(description)) +
		`,"parameters":{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}}}`)
}

// Call is a tool call the scripted model makes.
type Call struct {
	ID, Name, Arguments string
}

// Reply is the scripted model's answer: text, calls, or both.
type Reply struct {
	Text  string
	Calls []Call
}

// Message is the assistant message a harness appends for a reply, byte for byte what Reply
// answered.
func (r Reply) Message() json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"role":"assistant","content":`)
	if r.Text == "" && len(r.Calls) > 0 {
		b.WriteString("null")
	} else {
		b.Write(str(r.Text))
	}
	if len(r.Calls) > 0 {
		b.WriteString(`,"tool_calls":[`)
		for i, c := range r.Calls {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`, str(c.ID), str(c.Name), str(c.Arguments))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// Result is a tool result message.
func Result(id, content string) json.RawMessage {
	return json.RawMessage(`{"role":"tool","tool_call_id":` + string(str(id)) + `,"content":` + string(str(content)) + `}`)
}

// Recorder sends requests to a simulated server and records each exchange: the request body as
// the harness built it, the scripted reply, the usage the simulator reports.
type Recorder struct {
	W *replay.Writer
	// Sim reports cached tokens; nil: usage carries no cache fields.
	Sim *cachesim.Cache
	// Clock is the time of the next request; Gap is added after each.
	Clock time.Time
	Gap   time.Duration
	n     int
}

// Send records one exchange and returns the reply's assistant message.
func (r *Recorder) Send(body []byte, reply Reply, stream bool) (json.RawMessage, error) {
	r.n++
	res := cachesim.Result{}
	if r.Sim != nil {
		var err error
		if res, err = r.Sim.Serve(body); err != nil {
			return nil, err
		}
	}
	id := fmt.Sprintf("chatcmpl-gen%06d", r.n)
	model := modelOf(body)
	created := r.Clock.Unix()
	u, t := simserver.UsageOf(res, reply.Text+strings.Repeat(" call", len(reply.Calls)))
	x := replay.Exchange{Seq: r.n, Started: r.Clock, Method: "POST", Path: "/v1/chat/completions",
		Request: replay.Request{Headers: map[string][]string{"Content-Type": {"application/json"}}}}
	// Simulated times, from the token counts (no sleeping).
	first := 20 + t.PromptMS
	total := first + t.PredictedMS
	x.Timing = replay.Timing{FirstByteMS: round(first), TotalMS: round(total)}
	if stream {
		x.Response = &replay.Response{Status: 200, Stream: true, Headers: map[string][]string{"Content-Type": {"text/event-stream"}}}
		evs := streamEvents(id, created, model, reply, u, t)
		for i, ev := range evs {
			ms := first + (total-first)*float64(i)/float64(max(1, len(evs)-1))
			x.Response.Chunks = append(x.Response.Chunks, replay.Chunk{MS: round(ms), Data: string(ev)})
		}
	} else {
		x.Response = &replay.Response{Status: 200, Headers: map[string][]string{"Content-Type": {"application/json"}},
			Body: completion(id, created, model, reply, u, t)}
		x.Timing.FirstByteMS = x.Timing.TotalMS
	}
	if err := r.W.Write(x, body); err != nil {
		return nil, err
	}
	r.Clock = r.Clock.Add(r.Gap + time.Duration(total*float64(time.Millisecond)))
	return reply.Message(), nil
}

func round(ms float64) float64 { return float64(int64(ms*10+0.5)) / 10 }

func modelOf(body []byte) string {
	var v struct {
		Model string `json:"model"`
	}
	json.Unmarshal(body, &v)
	return v.Model
}

func completion(id string, created int64, model string, reply Reply, u simserver.Usage, t simserver.Timings) json.RawMessage {
	finish := "stop"
	if len(reply.Calls) > 0 {
		finish = "tool_calls"
	}
	b, _ := json.Marshal(map[string]any{
		"choices": []any{map[string]any{"finish_reason": finish, "index": 0, "message": json.RawMessage(reply.Message())}},
		"created": created, "model": model, "system_fingerprint": simserver.SystemFingerprint,
		"object": "chat.completion", "usage": u, "id": id, "timings": t,
	})
	return b
}

func streamEvents(id string, created int64, model string, reply Reply, u simserver.Usage, t simserver.Timings) [][]byte {
	ev := func(choices any, extra map[string]any) []byte {
		m := map[string]any{"choices": choices, "created": created, "id": id, "model": model,
			"system_fingerprint": simserver.SystemFingerprint, "object": "chat.completion.chunk"}
		for k, v := range extra {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return []byte("data: " + string(b) + "\n\n")
	}
	delta := func(d any, finish any) any {
		return []any{map[string]any{"finish_reason": finish, "index": 0, "delta": d}}
	}
	out := [][]byte{ev(delta(map[string]any{"role": "assistant", "content": nil}, nil), nil)}
	for _, w := range strings.SplitAfter(reply.Text, " ") {
		if w != "" {
			out = append(out, ev(delta(map[string]any{"content": w}, nil), nil))
		}
	}
	for i, c := range reply.Calls {
		out = append(out, ev(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Arguments}}}}, nil), nil))
	}
	finish := "stop"
	if len(reply.Calls) > 0 {
		finish = "tool_calls"
	}
	out = append(out, ev(delta(map[string]any{}, finish), nil))
	out = append(out, ev([]any{}, map[string]any{"usage": u, "timings": t}))
	return append(out, []byte("data: [DONE]\n\n"))
}
