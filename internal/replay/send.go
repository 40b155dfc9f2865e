package replay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Modes of a replay.
const (
	// Frozen sends each recorded request exactly as it was: the prefix is the recording's, and only
	// the server's cache behaviour varies.
	Frozen = "frozen"
	// Live feeds the server's own answers back: each assistant message that answered an earlier
	// replayed request is replaced by what the server answered it.
	Live = "live"
	// Timed sends the recorded requests as they were, keeping the recorded gaps between them.
	Timed = "timed"
)

// Modes lists the modes.
var Modes = []string{Frozen, Live, Timed}

// Sent is one replayed request and what came back.
type Sent struct {
	Seq  int    `json:"seq"`
	Line int    `json:"line"`
	Path string `json:"path"`
	// Body is what was sent (the recording's bytes, or rewritten: live mode, a variant).
	Body   []byte `json:"-"`
	Status int    `json:"status"`
	Stream bool   `json:"stream"`
	// FirstToken is the time to the first text or call of a stream (for a whole answer, to its
	// last byte); Total to the last byte.
	FirstToken time.Duration `json:"-"`
	Total      time.Duration `json:"-"`
	// Response holds the bytes received: Body for a whole answer, Chunks (each read with its
	// offset) for a stream.
	Response Response `json:"-"`
	Reply    Reply    `json:"-"`
	// Error is what went wrong with this request (an HTTP error status, an answer that cannot be
	// read); the replay goes on.
	Error string `json:"error,omitempty"`
	// RequestID is the answer's X-Request-Id, where the server sent one (OpenAI and the fake do):
	// what the server calls the request.
	RequestID string `json:"-"`
	// Note says what live mode did to this request.
	Note string `json:"note,omitempty"`
	// Retried: the server had closed the reused connection the request was first sent on,
	// before answering, and it was sent again on a new one.
	Retried bool `json:"retried,omitempty"`
}

// Sender sends requests to an OpenAI-compatible server.
type Sender struct {
	// URL is the server's base (http://127.0.0.1:8080, or …/v1).
	URL    string
	Client *http.Client
	// Header is added to every request (an Authorization the caller was given).
	Header http.Header
}

// Endpoint joins the base URL and a recorded path (JoinURL).
func (s *Sender) Endpoint(path string) string { return JoinURL(s.URL, path) }

// JoinURL joins a base URL (or a base URL's path) and a request's path, not doubling a /v1 both
// have (…/v1 + /v1/chat/completions → …/v1/chat/completions); a Gemini path (/v1beta/models/…)
// names its own version in place of the base's /v1. The replay's sender and the recording proxy
// both reach a server given as the base URL an agent would be given.
func JoinURL(base, path string) string {
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/v1") {
		switch {
		case path == "/v1" || strings.HasPrefix(path, "/v1/"):
			path = strings.TrimPrefix(path, "/v1")
		case strings.HasPrefix(path, "/v1beta/"):
			base = strings.TrimSuffix(base, "/v1")
		}
	}
	return base + path
}

// ErrUnreachable wraps an error that stops a replay: the server cannot be reached.
var ErrUnreachable = errors.New("the server cannot be reached")

// Send posts one body and reads the whole answer, timing the first token and the last byte.
//
// A connection the server may have closed is never reused blindly. llama-server ends the
// connection after a streamed answer although it says Keep-Alive, and Go's client would send the
// next request on it and read EOF. So a request that asks for a stream is sent with
// `Connection: close`, and a request whose reused connection ends before any byte of an answer
// came back is sent once more, on a new connection (Sent.Retried says so).
func (s *Sender) Send(ctx context.Context, path string, body []byte) (Sent, error) {
	out := Sent{Body: body}
	resp, start, err := s.post(ctx, path, body, &out)
	if err != nil {
		return out, err
	}
	defer resp.Body.Close()
	out.Status = resp.StatusCode
	out.Response = Response{Status: resp.StatusCode,
		Headers: map[string][]string{"Content-Type": resp.Header.Values("Content-Type")}}
	out.Stream = strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	out.RequestID = resp.Header.Get("X-Request-Id")
	whole, complete := out.read(resp.Body, start)
	if !complete {
		return out, nil
	}
	err = out.parse(whole)
	switch {
	case resp.StatusCode != http.StatusOK:
		out.Error = fmt.Sprintf("%s: %s", resp.Status, refusal(whole))
	case err != nil:
		out.Error = err.Error()
	case out.Reply.Error != "":
		out.Error = "the stream ended with an error: " + out.Reply.Error
	}
	return out, nil
}

// post sends the request, once more when a kept-alive connection closed before any answer (the
// server ended it while idle; out.Retried says so), and returns the response and when it was sent.
func (s *Sender) post(ctx context.Context, path string, body []byte, out *Sent) (*http.Response, time.Time, error) {
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	stream := asksStream(body)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.Endpoint(path), bytes.NewReader(body))
		if err != nil {
			return nil, time.Time{}, err
		}
		req.Header.Set("Content-Type", "application/json")
		for k, v := range s.Header {
			req.Header[k] = v
		}
		req.Close = stream
		reused := false
		req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GotConn: func(i httptrace.GotConnInfo) { reused = i.Reused },
		}))
		start := time.Now()
		resp, err := c.Do(req)
		if err == nil {
			return resp, start, nil
		}
		if ctx.Err() != nil {
			return nil, start, ctx.Err()
		}
		if attempt == 0 && reused && closedBeforeAnswer(err) {
			out.Retried = true
			continue
		}
		return nil, start, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
}

// read reads the whole answer, keeping a stream's chunks with their times; an answer cut before
// its end is said in out.Error and reported as not complete.
func (out *Sent) read(body io.Reader, start time.Time) (whole []byte, complete bool) {
	buf := make([]byte, 64<<10)
	for {
		n, rerr := body.Read(buf)
		if n > 0 {
			at := time.Since(start)
			whole = append(whole, buf[:n]...)
			if out.Stream {
				out.Response.Chunks = append(out.Response.Chunks, Chunk{MS: ms(at), Data: string(buf[:n])})
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			out.Total = time.Since(start)
			out.Error = fmt.Sprintf("the answer was cut: %v", rerr)
			return whole, false
		}
	}
	out.Total = time.Since(start)
	out.FirstToken = out.Total
	return whole, true
}

// parse reads the reply from the answer: a stream's events, a JSON body, or text that is neither.
func (out *Sent) parse(whole []byte) error {
	var err error
	switch {
	case out.Stream:
		out.Response.Stream = true
		var chunks [][]byte
		for _, ch := range out.Response.Chunks {
			chunks = append(chunks, []byte(ch.Data))
		}
		out.Reply, err = ParseStream(chunks)
		if i := out.Reply.FirstTokenChunk; i >= 0 {
			out.FirstToken = time.Duration(out.Response.Chunks[i].MS * float64(time.Millisecond))
		}
	case json.Valid(whole):
		out.Response.Body = whole
		out.Reply, err = ParseReply(whole)
	default:
		t := string(whole)
		out.Response.BodyText = &t
		err = fmt.Errorf("the answer is not JSON: %.120s", whole)
	}
	return err
}

// refusal is what an error answer says: its error object's message (with its type), else its
// first bytes.
func refusal(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		return ErrorMessage(e.Error)
	}
	return fmt.Sprintf("%.200s", bytes.TrimSpace(body))
}

// asksStream says whether a body asks for a streamed answer (`"stream": true`).
func asksStream(body []byte) bool {
	st, en, ok := chat.Member(body, "stream")
	return ok && string(bytes.TrimSpace(body[st:en])) == "true"
}

// closedBeforeAnswer says whether a request failed because its connection ended before any byte
// of an answer: the server had closed it (EOF, a reset). Such a request was not answered.
func closedBeforeAnswer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err,
		syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Source gives a recording's exchanges in order (a *Reader).
type Source interface {
	Next() (Entry, error)
}

// Player replays a recording against a server.
type Player struct {
	Sender Sender
	Mode   string
	// Speed divides the recorded gaps in timed mode (2 replays twice as fast); 0 means 1.
	Speed float64
	// Rewrite, when set, changes each request body before it is sent (a variant); it gets the
	// exchange's seq. It runs before live mode's substitutions.
	Rewrite func(seq int, body []byte) ([]byte, error)
	// Adjust is applied to every request last, after Rewrite and live mode: the answer's length,
	// a stream's usage.
	Adjust Adjust
	// BeforeSend is called with each request as it is about to be sent (its path and final
	// bytes); OnSent after it, in order.
	BeforeSend func(path string, body []byte)
	OnSent     func(Sent)
	// Sleep waits in timed mode (time.Sleep-like, but stopping with ctx); nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock timed mode measures the replay on; nil is time.Now. A test gives a fake
	// one with Sleep, so that the waits do not depend on the machine's speed.
	Now func() time.Time

	live map[[32]byte]json.RawMessage // recorded prefix chain → the server's own answer
}

// Play replays every exchange of src. It stops at the first damage in the recording (returning
// the *LineError after replaying everything before it), when the server cannot be reached, or
// when ctx ends; a request the server refuses is reported through OnSent and the replay goes on.
func (p *Player) Play(ctx context.Context, src Source) error {
	switch p.Mode {
	case "", Frozen, Live, Timed:
	default:
		return fmt.Errorf("no replay mode %q: want %s", p.Mode, strings.Join(Modes, ", "))
	}
	p.live = map[[32]byte]json.RawMessage{}
	speed := p.Speed
	if speed <= 0 {
		speed = 1
	}
	now := p.Now
	if now == nil {
		now = time.Now
	}
	var first time.Time
	began := now()
	for {
		e, err := src.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if !IsPrompt(e.Exchange) {
			continue
		}
		if p.Mode == Timed && !e.Exchange.Started.IsZero() {
			if first.IsZero() {
				first = e.Exchange.Started
			}
			due := time.Duration(float64(e.Exchange.Started.Sub(first)) / speed)
			if wait := due - now().Sub(began); wait > 0 {
				if err := p.sleep(ctx, wait); err != nil {
					return err
				}
			}
		}
		body := e.Body
		if p.Rewrite != nil {
			if body, err = p.Rewrite(e.Exchange.Seq, body); err != nil {
				return fmt.Errorf("line %d (request %d): %v", e.Line, e.Exchange.Seq, err)
			}
		}
		var note string
		var chains [][32]byte
		if p.Mode == Live {
			body, chains, note = p.substitute(body)
		}
		path := e.Exchange.Path
		if path == "" {
			path = "/v1/chat/completions"
		}
		if body, err = p.Adjust.Apply(path, body); err != nil {
			return fmt.Errorf("line %d (request %d): %v", e.Line, e.Exchange.Seq, err)
		}
		if p.BeforeSend != nil {
			p.BeforeSend(path, body)
		}
		s, err := p.Sender.Send(ctx, path, body)
		s.Seq, s.Line, s.Path, s.Note = e.Exchange.Seq, e.Line, path, note
		if err != nil {
			return fmt.Errorf("request %d (line %d): %w", s.Seq, s.Line, err)
		}
		if p.Mode == Live && s.Error == "" && chains != nil {
			p.live[chains[len(chains)-1]] = s.Reply.Message()
		}
		if p.OnSent != nil {
			p.OnSent(s)
		}
	}
}

func (p *Player) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// substitute puts the server's own answers in place of the recorded assistant messages that
// answered earlier replayed requests. It returns the new body and the recorded prefix chains of
// its messages (chains[i] covers messages 0..i), by which the answer to this request is found
// again in later ones.
func (p *Player) substitute(body []byte) ([]byte, [][32]byte, string) {
	r, err := chat.Parse(body)
	if err != nil || r.API != chat.ChatCompletions {
		return body, nil, "live mode replaces assistant messages of chat completions only; sent as recorded"
	}
	chains := make([][32]byte, len(r.Messages)+1)
	var edits []chat.Edit
	var notes []string
	times := map[string]int{}
	for i, m := range r.Messages {
		if live, ok := p.live[chains[i]]; ok && m.Role == "assistant" {
			with, note := keepCalls(m.Raw, live)
			edits = append(edits, chat.Replace(m, with))
			if note != "" {
				if times[note] == 0 {
					notes = append(notes, note)
				}
				times[note]++
			}
		}
		chains[i+1] = sha256.Sum256(append(chains[i][:], m.Raw...))
	}
	// A note true of several answers is said once, with how many: each later request carries
	// every earlier answer again.
	for i, n := range notes {
		if times[n] > 1 {
			notes[i] = fmt.Sprintf("%s (%d assistant messages)", n, times[n])
		}
	}
	return chat.Splice(body, edits), chains, strings.Join(notes, "; ")
}

// Message is the chat completions message a harness appends for a reply: role, content (null
// for calls alone), tool_calls, in that order, the text as sent. Live mode feeds it back; the
// session generator (internal/cachebench/gen) writes it into the requests it makes.
func (r Reply) Message() json.RawMessage {
	type fn struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type call struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	m := struct {
		Role      string  `json:"role"`
		Content   *string `json:"content"`
		ToolCalls []call  `json:"tool_calls,omitempty"`
	}{Role: "assistant"}
	if r.Text != "" || len(r.ToolCalls) == 0 {
		t := r.Text
		m.Content = &t
	}
	for _, c := range r.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, call{c.ID, "function", fn{c.Name, c.Arguments}})
	}
	b, _ := jsonx.Marshal(m)
	return b
}

// keepCalls fits the server's answer into the recorded conversation: the recorded results that
// follow answer the recorded calls by their ids, so a live answer with as many calls takes those
// ids, and one with a different number keeps the recorded calls (and says so).
func keepCalls(recorded []byte, live json.RawMessage) ([]byte, string) {
	var rec, lv struct {
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}
	json.Unmarshal(recorded, &rec)
	json.Unmarshal(live, &lv)
	if len(rec.ToolCalls) == 0 && len(lv.ToolCalls) == 0 {
		return live, ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(live, &m) != nil {
		return live, ""
	}
	note := ""
	if len(rec.ToolCalls) == len(lv.ToolCalls) {
		calls := make([]json.RawMessage, len(lv.ToolCalls))
		for i := range lv.ToolCalls {
			var id struct {
				ID string `json:"id"`
			}
			json.Unmarshal(rec.ToolCalls[i], &id)
			var c map[string]json.RawMessage
			json.Unmarshal(lv.ToolCalls[i], &c)
			c["id"], _ = json.Marshal(id.ID)
			calls[i], _ = json.Marshal(c)
		}
		m["tool_calls"], _ = json.Marshal(calls)
	} else {
		note = fmt.Sprintf("the server made %d calls where the recording has %d; the recorded calls were kept, so "+
			"the recorded results still answer them", len(lv.ToolCalls), len(rec.ToolCalls))
		if len(rec.ToolCalls) == 0 {
			delete(m, "tool_calls")
		} else {
			m["tool_calls"], _ = json.Marshal(rec.ToolCalls)
		}
	}
	b, _ := jsonx.Marshal(orderedAssistant(m))
	return b, note
}

// orderedAssistant writes role, content, tool_calls in that order.
func orderedAssistant(m map[string]json.RawMessage) any {
	return struct {
		Role      json.RawMessage `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls json.RawMessage `json:"tool_calls,omitempty"`
	}{m["role"], m["content"], m["tool_calls"]}
}
