package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Options say how a client talks to a server.
type Options struct {
	// HTTP is the client (nil: one without a timeout of its own: Timeout bounds each call).
	HTTP *http.Client
	// Stream uses message/stream where the card says the agent streams (else message/send).
	Stream bool
	// Timeout bounds a turn, and every other call when under a minute; After is its clock
	// (nil: time.After).
	Timeout time.Duration
	After   func(time.Duration) <-chan time.Time
	// Transcript gets each request ("> ") and each answer or event ("< "), a line each.
	Transcript io.Writer
	// Metadata is sent with the first message of a conversation (its workspace, its screen).
	Metadata map[string]any
}

// Client is one conversation with an A2A server.
type Client struct {
	o    Options
	Card Card
	// Task is the task of the last turn, Context the conversation's contextId.
	Task, Context string
	state         string
	n             int
	sent          bool
	mu            sync.Mutex
}

// Open reads the agent card at base (http://host:port) and makes a client of its endpoint; an
// error names the card's address and what was wrong with it.
func Open(ctx context.Context, base string, o Options) (*Client, error) {
	if o.HTTP == nil {
		o.HTTP = &http.Client{}
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Minute
	}
	c := &Client{o: o}
	url := strings.TrimSuffix(base, "/") + CardPath
	err := c.bounded(ctx, min(time.Minute, o.Timeout), "reading the agent card", func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := o.HTTP.Do(req)
		if err != nil {
			return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("GET %s: %v", url, err)}
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		c.log("< ", b)
		if resp.StatusCode != http.StatusOK {
			return &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("GET %s: %s: %s", url, resp.Status,
				format.Quote(b))}
		}
		if err := json.Unmarshal(b, &c.Card); err != nil || c.Card.URL == "" {
			return &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("GET %s: no agent card with a url: %s", url,
				format.Quote(b))}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A server on port 0 may not know its own address; the card's host is then taken as the
	// one the card was read from.
	if strings.Contains(c.Card.URL, "://localhost:0") || strings.Contains(c.Card.URL, ":0/") {
		c.Card.URL = strings.TrimSuffix(base, "/") + "/"
	}
	return c, nil
}

// Lembas says whether the server takes the LLeMbas methods (ExtLembas on its card).
func (c *Client) Lembas() bool {
	return slices.ContainsFunc(c.Card.Capabilities.Extensions, func(e Extension) bool { return e.URI == ExtLembas })
}

// Session is the conversation's identity as a run names it.
func (c *Client) Session() string {
	return fmt.Sprintf("A2A task %s (context %s)", c.Task, c.Context)
}

// Send sends the person's words as the conversation's next message and waits for the end of the
// turn; said is the agent's answer (its artifacts' text, else its messages').
func (c *Client) Send(ctx context.Context, words string) (said string, err error) {
	c.n++
	if c.Context == "" && c.Lembas() {
		// Chosen here, so that a LLeMbas method made while the turn runs (a job ending) names
		// this conversation.
		c.Context = fmt.Sprintf("lembas-%d", time.Now().UnixNano())
	}
	m := Message{Kind: "message", MessageID: fmt.Sprintf("lembas-%d", c.n), Role: "user", Parts: []Part{{Kind: "text",
		Text: words}},
		ContextID: c.Context}
	if c.Task != "" && !Terminal(c.state) {
		m.TaskID = c.Task
	}
	if !c.sent {
		m.Metadata, c.sent = c.o.Metadata, true
	}
	method := MethodSend
	if c.o.Stream && c.Card.Capabilities.Streaming {
		method = MethodStream
	}
	var t turn
	err = c.bounded(ctx, c.o.Timeout, "its turn", func(ctx context.Context) error {
		return c.post(ctx, method, SendParams{Message: m}, t.add)
	})
	if err != nil {
		return "", err
	}
	if t.task != "" {
		c.Task = t.task
	}
	if t.context != "" && t.context != c.Context {
		c.Context = t.context
	}
	c.state = t.state
	switch {
	case t.state == "failed" || t.state == "rejected":
		return "", fmt.Errorf("the agent's task %s %s: %s", c.Task, t.state, t.said())
	case !t.ended:
		return "", &acp.Fault{Kind: acp.Malformed,
			Detail: fmt.Sprintf("its %s ended with the task %q, not ended (state %q)", method, c.Task, t.state)}
	}
	return t.said(), nil
}

// Call makes another JSON-RPC call (a LLeMbas method) and decodes its result into out.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	return c.bounded(ctx, min(time.Minute, c.o.Timeout), method, func(ctx context.Context) error {
		return c.post(ctx, method, params, func(r json.RawMessage) error {
			if out == nil {
				return nil
			}
			return json.Unmarshal(r, out)
		})
	})
}

// bounded runs f under the timeout d on the client's clock: past it, f's context ends and the
// call is a Hung fault.
func (c *Client) bounded(ctx context.Context, d time.Duration, what string, f func(context.Context) error) error {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	up := c.o.After(d)
	hung := errors.New("hung")
	go func() {
		select {
		case <-up:
			cancel(hung)
		case <-cctx.Done():
		}
	}()
	err := f(cctx)
	if errors.Is(context.Cause(cctx), hung) {
		return &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("%s did not end within %v", what, d)}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// post sends one JSON-RPC request and hands each result to each: one for a JSON answer, one per
// event for an SSE stream.
func (c *Client) post(ctx context.Context, method string, params any, each func(json.RawMessage) error) error {
	p, err := jsonx.Marshal(params)
	if err != nil {
		return err
	}
	id := strconv.Itoa(c.n)
	body, _ := jsonx.Marshal(Request{JSONRPC: "2.0", ID: json.RawMessage(strconv.Quote(id)), Method: method, Params: p})
	c.log("> ", body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.Card.URL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if method == MethodStream {
		req.Header.Set("Accept", "text/event-stream")
	}
	resp, err := c.o.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("POST %s (%s): %v", c.Card.URL, method, err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("POST %s (%s): %s: %s", c.Card.URL, method,
			resp.Status, format.Quote(b))}
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return c.events(resp.Body, method, each)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("reading the answer to %s: %v", method, err)}
	}
	c.log("< ", b)
	return c.result(b, method, each)
}

// result reads one JSON-RPC answer: an error is the agent's refusal, a result goes to each.
func (c *Client) result(b []byte, method string, each func(json.RawMessage) error) error {
	var r Response
	if err := json.Unmarshal(b, &r); err != nil || (r.Result == nil && r.Error == nil) {
		return &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("the answer to %s is no JSON-RPC response: %s",
			method, format.Quote(b))}
	}
	if r.Error != nil {
		if r.Error.Code == -32601 {
			return &acp.Unsupported{What: method, Why: "the A2A server has no such method"}
		}
		return &Refused{Method: method, Code: r.Error.Code, Message: r.Error.Message}
	}
	return each(r.Result)
}

// Refused is a JSON-RPC error the agent answered a method with.
type Refused struct {
	Method  string
	Code    int
	Message string
}

func (e *Refused) Error() string {
	return fmt.Sprintf("the agent refused %s: %s (code %d)", e.Method, e.Message, e.Code)
}

// events reads an SSE stream: each event's data is a JSON-RPC response.
func (c *Client) events(body io.Reader, method string, each func(json.RawMessage) error) error {
	var answered error // the agent's answer that ended the stream, not a read of it failing
	err := replay.EachEvent(body, func(data []byte) error {
		c.log("< ", data)
		answered = c.result(data, method, each)
		return answered
	})
	if answered != nil {
		return answered
	}
	if err != nil {
		return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("reading the %s stream: %v", method, err)}
	}
	return nil
}

func (c *Client) log(prefix string, b []byte) {
	if c.o.Transcript == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.o.Transcript, "%s%s\n", prefix, bytes.ReplaceAll(bytes.TrimSpace(b), []byte("\n"), []byte(" ")))
}

// turn is what a turn's results said: the task, its state, its artifacts and messages.
type turn struct {
	task, context, state string
	ended                bool
	artifacts            []Artifact
	messages             []string
}

// add takes one result: a task, a message, a status or an artifact update.
func (t *turn) add(r json.RawMessage) error {
	var e Event
	if err := json.Unmarshal(r, &e); err != nil {
		return &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("a result that is no A2A event: %s",
			format.Quote(r))}
	}
	if e.ContextID != "" {
		t.context = e.ContextID
	}
	switch e.Kind {
	case "task":
		t.task = e.ID
		t.artifacts = append(t.artifacts, e.Artifacts...)
		t.status(e.Status, Ended(stateOf(e.Status)))
	case "message":
		if e.Role == "agent" {
			t.messages = append(t.messages, Text(e.Parts))
		}
		t.ended = true // a message is the whole answer
	case "status-update":
		t.task = e.TaskID
		t.status(e.Status, e.Final || Ended(stateOf(e.Status)))
	case "artifact-update":
		t.task = e.TaskID
		if e.Artifact != nil {
			t.artifact(*e.Artifact, e.Append)
		}
	default:
		return &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("an A2A event of no known kind %q: %s", e.Kind,
			format.Quote(r))}
	}
	return nil
}

func stateOf(s *Status) string {
	if s == nil {
		return ""
	}
	return s.State
}

func (t *turn) status(s *Status, ended bool) {
	if s == nil {
		return
	}
	t.state = s.State
	t.ended = t.ended || ended
	if s.Message != nil && s.Message.Role == "agent" {
		if txt := Text(s.Message.Parts); txt != "" {
			t.messages = append(t.messages, txt)
		}
	}
}

func (t *turn) artifact(a Artifact, appendTo bool) {
	for i := range t.artifacts {
		if t.artifacts[i].ArtifactID == a.ArtifactID {
			if appendTo {
				t.artifacts[i].Parts = append(t.artifacts[i].Parts, a.Parts...)
			} else {
				t.artifacts[i] = a
			}
			return
		}
	}
	t.artifacts = append(t.artifacts, a)
}

// said is the answer: the artifacts' text where there is any, else the messages' (a streaming
// server sends its words as status messages, chunk by chunk).
func (t *turn) said() string {
	var b strings.Builder
	for _, a := range t.artifacts {
		b.WriteString(Text(a.Parts))
	}
	if b.Len() == 0 {
		for _, m := range t.messages {
			b.WriteString(m)
		}
	}
	return strings.TrimSpace(b.String())
}

// Configure moves the conversation (a mode, a model: fields) with _lembas/configure, where the
// card offers ExtLembas; what names the step for a skip. Before the first message the
// conversation's contextId is chosen here, and the workspace sent with it.
func (c *Client) Configure(ctx context.Context, what string, fields map[string]any) error {
	if !c.Lembas() {
		return noLembas(what)
	}
	if c.Context == "" {
		c.Context = fmt.Sprintf("lembas-%d", time.Now().UnixNano())
	}
	params := map[string]any{"sessionId": c.Context, "metadata": c.o.Metadata}
	for k, v := range fields {
		params[k] = v
	}
	return c.Call(ctx, spec.Text("acp.method.configure"), params, nil)
}

// noLembas is the skip of a step only the LLeMbas methods carry, on a server whose card offers
// none of them.
func noLembas(what string) error {
	return &acp.Unsupported{What: what,
		Why: "A2A carries only the person's messages, and the agent card offers no LLeMbas extension (" +
			ExtLembas + ")"}
}

// Compact compacts the conversation with _lembas/session/compact, where the card offers
// ExtLembas.
func (c *Client) Compact(ctx context.Context) error {
	if !c.Lembas() {
		return noLembas("a compaction")
	}
	if c.Context == "" {
		return &acp.Unsupported{What: "a compaction", Why: "nothing to compact: no message was sent"}
	}
	return c.bounded(ctx, c.o.Timeout, "its compaction", func(ctx context.Context) error {
		return c.post(ctx, spec.Text("acp.method.compact"), map[string]any{"sessionId": c.Context},
			func(json.RawMessage) error { return nil })
	})
}
