package fakeprovider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/fakeprovider/wire"
)

// handleCompletion answers POST /v1/chat/completions or /v1/responses from the script.
func (s *Server) handleCompletion(api string) http.HandlerFunc {
	decode := wire.DecodeChat
	if api == wire.APIResponses {
		decode = wire.DecodeResponses
	}
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
		req, e := decode(body)
		if e != nil {
			writeError(w, e)
			return
		}
		if !s.serves(req.Model) {
			writeError(w, wire.UnknownModel(req.Model, s.models))
			return
		}
		pick, err := s.picker.Next(req)
		if err != nil {
			fail(ctx, "%v", err)
			code := "script_ran_out"
			var nr *script.NoReadTool
			if errors.As(err, &nr) {
				code = "no_read_tool"
			}
			writeError(w, &wire.Error{Status: http.StatusInternalServerError, Type: wire.TypeServer, Code: code, Message: err.Error()})
			return
		}
		if pick.Warning != "" {
			s.logf("%s", pick.Warning)
		}
		s.answer(w, r, req, body, pick)
	}
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, req *wire.Request, body []byte, pick script.Pick) {
	ctx := r.Context()
	rep, f := pick.Reply, pick.Reply.Fault
	keep := time.Duration(0)
	if req.Stream {
		keep = rep.KeepAlive
	}
	if !s.pause(ctx, w, rep.Delay, keep, false) {
		fail(ctx, "the client hung up before the first byte")
		return
	}
	if f != nil && f.Status != 0 {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		writeError(w, faultError(f, req.Model, pick.Source))
		return
	}
	a := pick.Answer
	u := s.usage(ctx, body, a)
	if req.Stream {
		u.PromptMS = ms(rep.Delay)
		u.PredictedMS = ms(rep.Interval) * float64(len(wire.Pieces(a.Text, a.Chunk, false)))
	}
	m := wire.Meta{Created: s.now().Unix(), Model: req.Model, Dialect: s.cfg.Dialect}
	var frames [][]byte
	var one []byte
	switch {
	case req.API == wire.APIResponses && req.Stream:
		m.ID = fmt.Sprintf("fake%d", pick.N)
		frames = wire.ResponsesStream(m, a, u)
	case req.API == wire.APIResponses:
		m.ID = fmt.Sprintf("fake%d", pick.N)
		one = wire.ResponsesBody(m, a, u)
	case req.Stream:
		m.ID = fmt.Sprintf("chatcmpl-fake%d", pick.N)
		// Rendered into a buffer used again by later streams: garbage is what makes the
		// collector run, and its runs are what a client would feel.
		bp := framePool.Get().(*[]byte)
		var buf []byte
		frames, buf = wire.AppendChatStream((*bp)[:0], m, a, u, req.IncludeUsage)
		defer func() {
			if cap(buf) <= maxPooledFrames {
				*bp = buf[:0]
				framePool.Put(bp)
			}
		}()
	default:
		m.ID = fmt.Sprintf("chatcmpl-fake%d", pick.N)
		one = wire.ChatBody(m, a, u)
	}
	w.Header().Set("X-Request-Id", fmt.Sprintf("req_fake%d", pick.N))
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
	if n, ok := r.Context().Value(noteKey{}).(*note); ok && n.body != nil {
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

// usage asks the cache simulator for the prompt's tokens and counts the reply's.
func (s *Server) usage(ctx context.Context, body []byte, a wire.Answer) wire.Usage {
	r, err := s.cache.Serve(body)
	prompt, cached := r.PromptTokens, r.CachedTokens
	if err != nil {
		fail(ctx, "the cache simulator could not read the request (%v); usage counts its words instead", err)
		prompt, cached = wire.CountWords(string(body)), 0
	}
	count := s.cache.Count
	u := wire.Usage{Prompt: prompt, Cached: cached, Reasoning: count(a.Reasoning)}
	u.Completion = count(a.Text) + u.Reasoning
	for _, c := range a.ToolCalls {
		u.Completion += count(c.Name) + count(c.Arguments)
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
		fail(ctx, "dropped the connection %s, as %s says", map[bool]string{true: "halfway through the body", false: "before any byte"}[f.DropAfter > 0], pick.Source)
		panic(http.ErrAbortHandler)
	}
	if f != nil && f.MalformedAt > 0 {
		b = b[:len(b)/2]
	}
	writeJSON(w, http.StatusOK, b)
}

// sendStream writes the events one write each, flushed, with the reply's timing and faults.
func (s *Server) sendStream(w http.ResponseWriter, r *http.Request, frames [][]byte, rep *script.Reply, pick script.Pick) {
	ctx := r.Context()
	f := rep.Fault
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
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

// pause waits d (or, forever, until the client or the server goes), sending an SSE comment every
// keep period when keep > 0. It returns false when the client went away; the server stopping
// ends the wait early and returns true, so in-flight streams finish quickly.
func (s *Server) pause(ctx context.Context, w http.ResponseWriter, d, keep time.Duration, forever bool) bool {
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
			if w.Header().Get("Content-Type") == "" {
				w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
				w.Header().Set("Cache-Control", "no-cache")
			}
			if _, err := w.Write(keepAlive); err != nil {
				return false
			}
			if http.NewResponseController(w).Flush() != nil {
				return false
			}
		}
	}
}
