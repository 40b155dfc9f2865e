package fakeprovider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
)

// handleCompletion answers POST /v1/chat/completions or /v1/responses from the script.
func (s *Server) handleCompletion(api string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		body, err := s.readBody(w, r)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeError(w, wire.TooLarge(s.maxBody))
				return
			}
			fail(ctx, "the client hung up while sending its request: %v", err)
			return
		}
		t, e := s.prepare(ctx, api, body, nil)
		if e != nil {
			writeError(w, e)
			return
		}
		s.answer(w, r, t)
	}
}

// turn is one request for a model's answer, made ready: the request as the model sees it (the
// turns it continues put before its input), the body the cache simulator reads, and the answer
// picked and kept to the request's settings.
type turn struct {
	req    *wire.Request
	body   []byte
	pick   script.Pick
	answer wire.Answer
	// own counts the request's own input items (the last of req.Input).
	own int
	// conn is the WebSocket connection the turn came over (nil: HTTP).
	conn *wsConn
}

// prepare decodes a request, puts the turns it continues before it, and picks its answer. An
// error is the API's answer instead.
func (s *Server) prepare(ctx context.Context, api string, body []byte, conn *wsConn) (*turn, *wire.Error) {
	t, e := s.decodeTurn(api, body, conn, s.cfg.Strict)
	if e != nil {
		return nil, e
	}
	req := t.req
	// Turn is given the request as the model sees it: a Responses continuation whole.
	pick, a, e := s.pickFor(ctx, req, t.body)
	if e != nil {
		return nil, e
	}
	t.pick = pick
	if req.Params.Logprobs && a.Text != "" {
		a.Logprobs = &wire.Logprobs{Tokens: s.tokens(a.Text), Top: req.Params.TopLogprobs}
	}
	t.answer = a
	return t, nil
}

// pick is the reply to a request: Config.Turn's, else the script's.
func (s *Server) pick(req *wire.Request, body []byte) (script.Pick, error) {
	if s.cfg.Turn != nil {
		rep, err := s.cfg.Turn(req, body)
		if err != nil {
			return script.Pick{}, err
		}
		if rep != nil {
			return s.picker.Serve(req, rep, "turn")
		}
	}
	return s.picker.Next(req)
}

// decodeTurn decodes a request whose model the server serves (checked as the API checks it when
// strict), with the turns a Responses request continues put before its input.
func (s *Server) decodeTurn(api string, body []byte, conn *wsConn, strict bool) (*turn, *wire.Error) {
	decode := wire.DecodeChat
	if api == chat.Responses {
		decode = wire.DecodeResponses
	}
	if floor {
		decode = floorDecode(decode)
	}
	req, e := decode(body)
	if e != nil {
		return nil, e
	}
	if !s.serves(req.Model) {
		return nil, wire.UnknownModel(req.Model, s.models)
	}
	if strict {
		if e := wire.Validate(req, conn != nil); e != nil {
			return nil, e
		}
	}
	t := &turn{req: req, body: body, conn: conn, own: len(req.Input)}
	if api == chat.Responses {
		if e := s.continueTurn(t); e != nil {
			return nil, e
		}
	}
	return t, nil
}

// continueTurn puts the turns a Responses request continues before its input: those of its
// previous_response_id (kept by the server, or by the WebSocket connection for store: false) or
// of its conversation.
func (s *Server) continueTurn(t *turn) *wire.Error {
	req := t.req
	if req.PreviousResponseID != "" && req.Conversation != "" {
		return &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest, Param: "previous_response_id",
			Code: "invalid_value",
			Message: "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or " +
				"'conversation'."}
	}
	var chain []json.RawMessage
	switch {
	case req.PreviousResponseID != "":
		prev := t.conn.lastResponse(req.PreviousResponseID)
		if prev == nil {
			prev = s.state.response(req.PreviousResponseID)
		}
		if prev == nil {
			return previousNotFound(req.PreviousResponseID)
		}
		chain = prev.chain
	case req.Conversation != "":
		s.state.mu.Lock()
		c := s.state.convs[req.Conversation]
		if c != nil {
			chain = append([]json.RawMessage(nil), c.items...)
		}
		s.state.mu.Unlock()
		if c == nil {
			return notFound("Conversation", req.Conversation)
		}
	}
	if req.PreviousResponseID != "" || s.cfg.Strict {
		if e := unansweredCalls(chain, req.Input); e != nil {
			return e
		}
	}
	if chain == nil {
		return nil
	}
	if e := req.Continue(chain); e != nil {
		return e
	}
	t.body = chat.Continuation(req.Top, req.Input)
	return nil
}

// keep stores a Responses answer: for GET and later turns when store is true, for the
// connection's next turn over a WebSocket, and in its conversation.
func (s *Server) keep(t *turn, m wire.Meta, body []byte) {
	req := t.req
	own := req.Input[len(req.Input)-t.own:]
	out := wire.ResponseItems(m, t.answer)
	st := &stored{id: wire.ResponseID(m), body: body, input: s.state.withIDs(own)}
	st.chain = append(append([]json.RawMessage(nil), req.Input...), out...)
	if req.Store {
		s.state.put(st)
	}
	t.conn.remember(st)
	if req.Conversation != "" {
		s.state.mu.Lock()
		if c := s.state.convs[req.Conversation]; c != nil {
			c.items = append(c.items, st.input...)
			c.items = append(c.items, out...)
		}
		s.state.mu.Unlock()
	}
}

// compaction is the summary of the compaction item a Responses answer starts with when its
// prompt reached context_management's threshold, else "".
func (s *Server) compaction(req *wire.Request, u wire.Usage) string {
	if req.Params.CompactAt == 0 || u.Prompt < req.Params.CompactAt {
		return ""
	}
	if c := s.picker.Script().Compaction; c != "" {
		return c
	}
	return DefaultCompaction
}

func (s *Server) count(text string) int { return s.cache.Count(text) }

// tokens cuts a text into the pieces its log probabilities are given for.
func (s *Server) tokens(text string) []string { return wire.Pieces(text, 0, false) }

func (s *Server) answer(w http.ResponseWriter, r *http.Request, t *turn) {
	ctx := r.Context()
	req, pick := t.req, t.pick
	rep, f := pick.Reply, pick.Reply.Fault
	held, ok := s.hold(ctx, w, t.body, t.req.Parts, requestID(pick.N))
	if !ok {
		return
	}
	if held != nil {
		defer func() {
			s.cache.End(held.ticket, nil, held.completion)
			s.keepSpan(requestID(pick.N), held.ticket)
		}()
	}
	if !s.delayOrFault(ctx, w, pick, req.Model, req.Stream, func(e *wire.Error) { writeError(w, e) }) {
		return
	}
	a := t.answer
	var u wire.Usage
	if held != nil {
		u = s.countUsage(ctx, held.result, nil, t.body, req, a)
		held.completion = u.Completion
	} else {
		u = s.usage(ctx, t.body, req, a)
	}
	a.Compaction = s.compaction(req, u)
	t.answer = a
	if req.Stream {
		u.PromptMS = ms(rep.Delay)
		if rep.Interval > 0 { // counting the pieces costs a walk of the reply
			u.PredictedMS = ms(rep.Interval) * float64(wire.PieceCount(a.Text, a.Chunk, false))
		}
	}
	m := wire.Meta{Created: s.now().Unix(), Model: req.Model, Dialect: s.cfg.Dialect}
	var frames [][]byte
	var one []byte
	switch {
	case req.API == chat.Responses:
		m.ID = "fake" + strconv.Itoa(pick.N)
		one = wire.ResponsesBody(m, req, a, u)
		s.keep(t, m, one)
		if req.Stream {
			frames = wire.ResponsesStream(m, req, a, u)
		}
	case req.Stream:
		m.ID = "chatcmpl-fake" + strconv.Itoa(pick.N)
		// Rendered into a buffer used again by later streams: garbage is what makes the
		// collector run, and its runs are what a client would feel.
		bp := framePool.Get().(*[]byte)
		var buf []byte
		if floor {
			frames = floorStream(t.body, m, a, u, req.IncludeUsage)
		} else {
			frames, buf = wire.AppendChatStream((*bp)[:0], m, a, u, req.IncludeUsage)
		}
		defer func() {
			if cap(buf) <= maxPooledFrames {
				*bp = buf[:0]
				framePool.Put(bp)
			}
		}()
	default:
		m.ID = "chatcmpl-fake" + strconv.Itoa(pick.N)
		one = wire.ChatBody(m, a, u)
	}
	w.Header().Set("X-Request-Id", requestID(pick.N))
	if !req.Stream {
		s.sendBody(w, r, one, f, pick)
		return
	}
	s.sendStream(w, r, frames, rep, pick)
}

// framePool holds the buffers streams are rendered into; one larger than maxPooledFrames (a
// very long reply) is left to the collector rather than kept.
var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

const maxPooledFrames = 1 << 20

// readBody reads a request body up to the limit (an error wrapping *http.MaxBytesError above
// it), in one allocation when the client declared its length; with a recording the body was
// already read, and is taken from there.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if n, ok := r.Context().Value(noteKey{}).(*exchangeNote); ok && n.body != nil {
		if int64(len(n.body)) > s.maxBody {
			return nil, &http.MaxBytesError{Limit: s.maxBody}
		}
		return n.body, nil
	}
	rd := http.MaxBytesReader(w, r.Body, s.maxBody)
	if n := r.ContentLength; n > 0 && n <= s.maxBody {
		b := make([]byte, n)
		if _, err := io.ReadFull(rd, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	return io.ReadAll(rd)
}

// Tokens an image or a file input counts in the prompt: what OpenAI bills a low-detail image.
// The simulator reads text only; a file is counted the same, whatever its size.
const mediaTokens = 85

// usage asks the cache simulator for the prompt's tokens and counts the reply's (each choice's).
func (s *Server) usage(ctx context.Context, body []byte, req *wire.Request, a wire.Answer) wire.Usage {
	if s.blocks != nil {
		r, err := s.serveBlocks(ctx, body, req.Model)
		u := s.countUsage(ctx, r, err, body, req, a)
		s.vllm.generation.With(req.Model).Add(float64(u.Completion))
		return u
	}
	var r cachesim.Result
	var err error
	if req.Parts != nil { // a chat request, cut by its decoding: its body is never rewritten
		if floor {
			r, err = floorServe(ctx, s.cache, body, req.Parts)
		} else {
			r, err = s.cache.ServeParsed(ctx, body, req.Parts)
		}
	} else {
		r, err = s.cache.Serve(body)
	}
	return s.countUsage(ctx, r, err, body, req, a)
}

// countUsage is the usage of a request the cache simulator served (r, or err).
func (s *Server) countUsage(ctx context.Context, r cachesim.Result, err error, body []byte, req *wire.Request,
	a wire.Answer) wire.Usage {
	prompt, cached := r.PromptTokens, r.CachedTokens
	if err != nil {
		fail(ctx, "the cache simulator could not read the request (%v); usage counts its words instead", err)
		prompt, cached = wire.CountWords(string(body)), 0
	}
	prompt += mediaTokens * (req.Params.Images + req.Params.Files)
	count := s.count
	u := wire.Usage{Prompt: prompt, Cached: cached, Reasoning: count(a.Reasoning)}
	u.Completion = count(a.Text) + u.Reasoning
	for _, c := range a.ToolCalls {
		u.Completion += count(c.Name) + count(c.Arguments)
	}
	if a.Choices > 1 {
		u.Completion *= a.Choices
		u.Reasoning *= a.Choices
	}
	s.metrics.tokens(prompt, cached, u.Completion)
	s.tokensIn.Add(int64(prompt))
	s.tokensOut.Add(int64(u.Completion))
	return u
}

func faultError(f *script.Fault, model, source string) *wire.Error {
	e := &wire.Error{Status: f.Status, Message: f.Message, Type: f.Type, Param: f.Param, Code: f.Code}
	if e.Message == "" {
		e.Message = fmt.Sprintf("%s (a fault scripted at %s for %s).", http.StatusText(f.Status), source, model)
	}
	if e.Code == "" && f.Status == http.StatusTooManyRequests {
		e.Code = "rate_limit_exceeded"
	}
	return e
}

// sendBody writes a JSON body, with the reply's faults: dropped (before any byte, or halfway),
// stalled, or cut short.
func (s *Server) sendBody(w http.ResponseWriter, r *http.Request, b []byte, f *script.Fault, pick script.Pick) {
	ctx := r.Context()
	if f != nil && f.Stalls() && !s.pause(ctx, w, f.Stall, 0, f.StallForever) {
		fail(ctx, "the client hung up during the stall")
		return
	}
	if f != nil && f.Drop {
		if f.DropAfter > 0 {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
			w.WriteHeader(http.StatusOK)
			w.Write(b[:len(b)/2])
			http.NewResponseController(w).Flush()
		}
		fail(ctx, "dropped the connection %s, as %s says", map[bool]string{true: "halfway through the body",
			false: "before any byte"}[f.DropAfter > 0], pick.Source)
		panic(http.ErrAbortHandler)
	}
	if f != nil && f.MalformedAt > 0 {
		b = b[:len(b)/2]
	}
	writeJSON(w, http.StatusOK, b)
}

// sendStream writes the events one write each, flushed, with the reply's timing and faults.
func (s *Server) sendStream(w http.ResponseWriter, r *http.Request, frames [][]byte, rep *script.Reply,
	pick script.Pick) {
	ctx := r.Context()
	f := rep.Fault
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	if f != nil && f.Status != 0 && f.ErrorAfter > 0 { // the API's error in the middle of the stream
		frames = append(frames[:min(f.ErrorAfter, len(frames)):min(f.ErrorAfter, len(frames))], streamError(r,
			faultError(f, "the stream", pick.Source)))
	}
	for i, fr := range frames {
		if f != nil && f.Drop && i == f.DropAfter {
			rc.Flush()
			fail(ctx, "dropped the connection after %d chunks, as %s says", i, pick.Source)
			panic(http.ErrAbortHandler)
		}
		if f.Stalls() && i == f.StallAfter && !s.pause(ctx, w, f.Stall, rep.KeepAlive, f.StallForever) {
			fail(ctx, "the client hung up after %d chunks, during the stall", i)
			return
		}
		if i > 0 && !s.pause(ctx, w, rep.Interval, rep.KeepAlive, false) {
			fail(ctx, "the client hung up after %d chunks", i)
			return
		}
		if f != nil && f.MalformedAt == i+1 {
			fr = malformed(fr)
		}
		if _, err := w.Write(fr); err != nil {
			fail(ctx, "the client hung up after %d chunks", i)
			return
		}
		if err := rc.Flush(); err != nil {
			fail(ctx, "the client hung up after %d chunks", i+1)
			return
		}
	}
}

// malformed cuts an event's data in half: the decoder on the other side gets JSON that ends early.
func malformed(fr []byte) []byte {
	i := bytes.Index(fr, []byte("data: "))
	if i < 0 {
		return fr
	}
	i += len("data: ")
	end := len(bytes.TrimRight(fr, "\n"))
	cut := i + (end-i)/2
	out := append([]byte(nil), fr[:cut]...)
	return append(out, '\n', '\n')
}

var keepAlive = []byte(": keep-alive\n\n")

// delayOrFault waits the reply's delay (with keep-alives when it streams) and, when the reply is a
// status fault that comes before any answer, sends it through refuse. True: go on and answer.
func (s *Server) delayOrFault(ctx context.Context, w http.ResponseWriter, pick script.Pick, model string, stream bool,
	refuse func(*wire.Error)) bool {
	rep, f := pick.Reply, pick.Reply.Fault
	keep := time.Duration(0)
	if stream {
		keep = rep.KeepAlive
	}
	if !s.pause(ctx, w, rep.Delay, keep, false) {
		fail(ctx, "the client hung up before the first byte")
		return false
	}
	if f != nil && f.Status != 0 && !(stream && f.ErrorAfter > 0) {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		refuse(faultError(f, model, pick.Source))
		return false
	}
	return true
}

// pause waits d (or, forever, until the client or the server goes), sending an SSE comment every
// keep period when keep > 0. It returns false when the client went away; the server stopping
// ends the wait early and returns true, so in-flight streams finish quickly.
func (s *Server) pause(ctx context.Context, w http.ResponseWriter, d, keep time.Duration, forever bool) bool {
	return s.wait(ctx, d, keep, forever, func() bool {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
		}
		if _, err := w.Write(keepAlive); err != nil {
			return false
		}
		return http.NewResponseController(w).Flush() == nil
	})
}

// wait is pause for any transport: alive is called every keep period (an SSE comment, a
// WebSocket ping) and says whether the client is still there.
func (s *Server) wait(ctx context.Context, d, keep time.Duration, forever bool, alive func() bool) bool {
	if d <= 0 && !forever {
		return ctx.Err() == nil
	}
	var timeout <-chan time.Time
	if !forever {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	var tick <-chan time.Time
	if keep > 0 {
		tk := time.NewTicker(keep)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		select {
		case <-ctx.Done():
			return false
		case <-s.stop:
			return ctx.Err() == nil
		case <-timeout:
			return true
		case <-tick:
			if !alive() {
				return false
			}
		}
	}
}

// requestID is the X-Request-Id of the fake's answer to its request n.
func requestID(n int) string { return "req_fake" + strconv.Itoa(n) }
