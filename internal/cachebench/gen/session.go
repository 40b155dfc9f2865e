// Package gen makes recordings by driving scripted sessions: a harness side that builds each
// request as a harness would (keeping the 3.1 prefix rules, or breaking one of them on purpose),
// a scripted model side that answers, and a simulated server (cachesim) that reports the
// cached tokens in llama.cpp's fields. The answers are written by the fake provider's wire
// (internal/api/wire, the llama.cpp dialect), as the fake would send them. The recordings under
// testdata/recordings are made by it (`go run ./internal/cachebench/cmd/gen`), and so are the large ones
// the benchmarks audit.
package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/replay"
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
	b.Write(jsonx.String(s.Model))
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

// Msg is a message with a text content.
func Msg(role, content string) json.RawMessage {
	return json.RawMessage(
		`{"role":` + string(jsonx.String(role)) + `,"content":` + string(jsonx.String(content)) + `}`,
	)
}

// Tool is a function tool with one string parameter per name.
func Tool(name, description string, params ...string) json.RawMessage {
	props := make([]string, len(params))
	for i, p := range params {
		props[i] = string(jsonx.String(p)) + `:{"type":"string"}`
	}
	req := make([]string, len(params))
	for i, p := range params {
		req[i] = string(jsonx.String(p))
	}
	return json.RawMessage(`{"type":"function","function":{"name":` + string(jsonx.String(name)) +
		`,"description":` + string(jsonx.String(description)) +
		`,"parameters":{"type":"object","properties":{` + strings.Join(props, ",") +
		`},"required":[` + strings.Join(req, ",") + `]}}}`)
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

// Message is the assistant message a harness appends for a reply (replay.Reply.Message), byte
// for byte what Reply answered.
func (r Reply) Message() json.RawMessage {
	x := replay.Reply{Text: r.Text}
	for _, c := range r.Calls {
		x.ToolCalls = append(x.ToolCalls, replay.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return x.Message()
}

// Result is a tool result message.
func Result(id, content string) json.RawMessage {
	return json.RawMessage(
		`{"role":"tool","tool_call_id":` + string(
			jsonx.String(id),
		) + `,"content":` + string(
			jsonx.String(content),
		) + `}`,
	)
}

// Recorder sends requests to a simulated server and records each exchange: the request body as
// the harness built it, the scripted reply, the usage the simulator reports.
type Recorder struct {
	W *replay.Writer
	// Sim reports the prompt and cached tokens; nil: both are 0.
	Sim *cachesim.Cache
	// Clock is the time of the next request; Gap is added after each.
	Clock time.Time
	Gap   time.Duration
	n     int
}

// Costs of the simulated server, close to the fixtures' small CPU model
// (testdata/llamacpp/01-cold-nonstream.json: 1008 tokens read in 267 ms).
const (
	promptMSPerToken    = 0.265
	predictedMSPerToken = 3.26
)

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
	m := wire.Meta{ID: fmt.Sprintf("chatcmpl-gen%06d", r.n), Created: r.Clock.Unix(), Model: modelOf(body),
		Dialect: usage.LlamaCpp}
	a := wire.Answer{Text: reply.Text}
	for _, c := range reply.Calls {
		a.ToolCalls = append(a.ToolCalls, wire.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	// A completion counts its words (a call as one), at least one; its times are simulated from
	// the token counts (no sleeping).
	n := max(1, len(strings.Fields(reply.Text))+len(reply.Calls))
	u := wire.Usage{Prompt: res.PromptTokens, Cached: res.CachedTokens, Completion: n,
		PromptMS:    float64(res.PromptTokens-res.CachedTokens) * promptMSPerToken,
		PredictedMS: float64(n) * predictedMSPerToken}
	x := replay.Exchange{Seq: r.n, Started: r.Clock, Method: "POST", Path: "/v1/chat/completions",
		Request: replay.Request{Headers: map[string][]string{"Content-Type": {"application/json"}}}}
	first := 20 + u.PromptMS
	total := first + u.PredictedMS
	x.Timing = replay.Timing{FirstByteMS: round(first), TotalMS: round(total)}
	if stream {
		x.Response = &replay.Response{Status: 200, Stream: true,
			Headers: map[string][]string{"Content-Type": {"text/event-stream"}}}
		evs := wire.ChatStream(m, a, u, true)
		for i, ev := range evs {
			ms := first + (total-first)*float64(i)/float64(max(1, len(evs)-1))
			x.Response.Chunks = append(x.Response.Chunks, replay.Chunk{MS: round(ms), Data: string(ev)})
		}
	} else {
		x.Response = &replay.Response{Status: 200, Headers: map[string][]string{"Content-Type": {"application/json"}},
			Body: wire.ChatBody(m, a, u)}
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
