package fakeprovider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/coder/websocket"
)

// The Responses API's WebSocket mode, as codex uses it: GET /v1/responses upgrades; the client
// sends {"type": "response.create", …the request's fields} and gets the streaming events of
// that response, one JSON message each, then sends the next. Turns are served one at a time.
// The connection keeps its last response (store: false included) for a continuation by
// previous_response_id; a continuation that fails forgets it. A failure is an `error` message
// with the status the HTTP API would give. Each turn is recorded as an exchange of its own.

// wsConn is one WebSocket connection's state.
type wsConn struct {
	n    int
	mu   sync.Mutex
	last *stored
}

// lastResponse is the connection's last response, when it has that id (nil for HTTP).
func (c *wsConn) lastResponse(id string) *stored {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last != nil && c.last.id == id {
		return c.last
	}
	return nil
}

func (c *wsConn) remember(st *stored) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.last = st
	c.mu.Unlock()
}

// forget drops the connection's last response when it is id: a failed continuation evicts it.
func (c *wsConn) forget(id string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.last != nil && c.last.id == id {
		c.last = nil
	}
	c.mu.Unlock()
}

// handleWebSocket is GET /v1/responses: a WebSocket upgrade, else a 405 as for any other GET.
func (s *Server) handleWebSocket(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Upgrade") == "" {
		w.Header().Set("Allow", "POST")
		writeError(w, &wire.Error{Status: http.StatusMethodNotAllowed, Type: wire.TypeInvalidRequest,
			Code: "method_not_allowed",
			Message: fmt.Sprintf("GET %s is served only as a WebSocket upgrade (the Responses API's WebSocket mode); "+
				"use POST for HTTP.", r.URL.Path)})
		return
	}
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		fail(r.Context(), "the WebSocket upgrade failed: %v", err)
		return
	}
	c.SetReadLimit(s.maxBody)
	conn := &wsConn{n: int(s.wsConns.Add(1))}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.stop:
			c.Close(websocket.StatusGoingAway, "the server is stopping")
		case <-ctx.Done():
		}
	}()
	headers, redacted := replay.CleanHeaders(r.Header)
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			// A close frame, or the connection simply closed (codex ends so): the session is over.
			if st := websocket.CloseStatus(err); st != -1 || ctx.Err() != nil || errors.Is(err,
				io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				c.CloseNow()
				return
			}
			fail(r.Context(), "the WebSocket connection ended: %v", err)
			c.CloseNow()
			return
		}
		s.requests.Add(1)
		x := &wsTurn{s: s, c: c, conn: conn, start: time.Now(), path: r.URL.Path, headers: headers, redacted: redacted}
		if s.rec != nil {
			s.inflight.Add(1)
			x.seq = s.rec.NextSeq()
		}
		if typ != websocket.MessageText {
			x.failWith(&wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Code: "invalid_message",
				Message: "WebSocket messages must be text: a JSON object with type response.create."})
		} else {
			x.serve(ctx, msg)
		}
		if s.rec != nil {
			x.record(msg)
			s.inflight.Done()
		}
		if x.closed {
			return
		}
	}
}

// wsTurn is one response.create and what was sent back for it.
type wsTurn struct {
	s        *Server
	c        *websocket.Conn
	conn     *wsConn
	seq      int
	start    time.Time
	path     string
	headers  map[string][]string
	redacted []string
	status   int
	chunks   []replay.Chunk
	err      string
	note     string
	closed   bool
}

func (x *wsTurn) send(ctx context.Context, b []byte) bool {
	at := ms(time.Since(x.start))
	if err := x.c.Write(ctx, websocket.MessageText, b); err != nil {
		x.err = fmt.Sprintf("the client went away after %d messages (%v)", len(x.chunks), err)
		x.closed = true
		return false
	}
	x.chunks = append(x.chunks, replay.Chunk{MS: at, Data: string(b)})
	return true
}

// failWith sends an error message: {"type": "error", "status", "error": {type, code, message, param}}.
func (x *wsTurn) failWith(e *wire.Error) {
	x.status = e.Status
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	json.Unmarshal(e.Body(), &body)
	b, _ := jsonx.Marshal(wire.Obj("type", "error", "status", e.Status, "error", body.Error))
	x.send(context.Background(), b)
}

func (x *wsTurn) serve(ctx context.Context, msg []byte) {
	s := x.s
	var head struct {
		Type     string `json:"type"`
		Generate *bool  `json:"generate"`
	}
	if err := json.Unmarshal(msg, &head); err != nil || head.Type != "response.create" {
		x.failWith(&wire.Error{Status: 400, Type: wire.TypeInvalidRequest, Param: "type", Code: "invalid_value",
			Message: fmt.Sprintf("A WebSocket message must be a JSON object with type response.create (got %s).",
				describe(msg, head.Type))})
		return
	}
	nctx := context.WithValue(ctx, noteKey{}, &exchangeNote{})
	var t *turn
	var e *wire.Error
	if head.Generate != nil && !*head.Generate {
		// A warm-up (codex sends one first): a response with no output, and no reply of the
		// script used up.
		t, e = s.warmup(msg, x.conn)
	} else {
		t, e = s.prepare(nctx, chat.Responses, msg, x.conn)
	}
	n := nctx.Value(noteKey{}).(*exchangeNote)
	x.err, x.note = n.err, n.note
	if e != nil {
		var prev struct {
			ID string `json:"previous_response_id"`
		}
		if json.Unmarshal(msg, &prev) == nil && prev.ID != "" {
			x.conn.forget(prev.ID)
		}
		x.failWith(e)
		return
	}
	t.req.Stream = true
	x.answer(ctx, t)
}

func describe(msg []byte, typ string) string {
	if typ != "" {
		return fmt.Sprintf("type %q", typ)
	}
	if !json.Valid(msg) {
		return "text that is not JSON"
	}
	return "no type"
}

// warmup makes a turn with an empty answer, for response.create with generate: false.
func (s *Server) warmup(msg []byte, conn *wsConn) (*turn, *wire.Error) {
	t, e := s.decodeTurn(chat.Responses, msg, conn, s.cfg.Strict)
	if e != nil {
		return nil, e
	}
	t.pick = script.Pick{N: int(s.state.warmups.Add(1)), Reply: &script.Reply{}, Source: "warm-up"}
	return t, nil
}

// answer sends a turn's events, with the reply's timing and faults: a status fault is an error
// message; drop_after closes the connection after that many messages; malformed_at sends that
// message cut in half; stall waits.
func (x *wsTurn) answer(ctx context.Context, t *turn) {
	s := x.s
	req, pick := t.req, t.pick
	rep, f := pick.Reply, pick.Reply.Fault
	if !x.wait(ctx, rep.Delay, rep.KeepAlive, false) {
		return
	}
	if f != nil && f.Status != 0 {
		x.failWith(faultError(f, req.Model, pick.Source))
		return
	}
	a := t.answer
	u := s.usage(ctx, t.body, req, a)
	a.Compaction = s.compaction(req, u)
	t.answer = a
	m := wire.Meta{Created: s.now().Unix(), Model: req.Model, Dialect: s.cfg.Dialect, ID: fmt.Sprintf("fake%d", pick.N)}
	if pick.Source == "warm-up" {
		m.ID, u = fmt.Sprintf("fakewarm%d", pick.N), wire.Usage{}
	}
	s.keep(t, m, wire.ResponsesBody(m, req, a, u))
	var frames [][]byte
	wire.ResponsesEvents(m, req, a, u, func(_ string, data []byte) { frames = append(frames, data) })
	x.status = http.StatusOK
	for i, fr := range frames {
		if f != nil && f.Drop && i == f.DropAfter {
			x.err = fmt.Sprintf("dropped the connection after %d messages, as %s says", i, pick.Source)
			x.c.CloseNow()
			x.closed = true
			return
		}
		if f.Stalls() && i == f.StallAfter && !x.wait(ctx, f.Stall, rep.KeepAlive, f.StallForever) {
			return
		}
		if i > 0 && !x.wait(ctx, rep.Interval, rep.KeepAlive, false) {
			return
		}
		if f != nil && f.MalformedAt == i+1 {
			fr = fr[:len(fr)/2]
		}
		if !x.send(ctx, fr) {
			return
		}
	}
}

// wait pauses as the server's wait does, pinging every keep period.
func (x *wsTurn) wait(ctx context.Context, d, keep time.Duration, forever bool) bool {
	ok := x.s.wait(ctx, d, keep, forever, func() bool {
		if err := x.c.Ping(ctx); err != nil {
			x.err = fmt.Sprintf("the client went away during a pause (%v)", err)
			return false
		}
		return true
	})
	if !ok {
		x.closed = true
	}
	return ok
}

func (x *wsTurn) record(msg []byte) {
	xc := replay.Exchange{Seq: x.seq, Started: x.start.UTC(), Method: http.MethodPost, Path: x.path,
		Transport: "websocket", Conn: x.conn.n,
		Error: x.err, Note: x.note}
	xc.Request.Headers, xc.Request.Redacted = x.headers, x.redacted
	if x.status != 0 || len(x.chunks) > 0 {
		xc.Response = &replay.Response{Status: x.status, Stream: true, WebSocket: true, Chunks: x.chunks}
	}
	xc.Timing = replay.Timing{TotalMS: ms(time.Since(x.start))}
	if len(x.chunks) > 0 {
		xc.Timing.FirstByteMS = x.chunks[0].MS
	}
	if err := x.s.rec.Write(xc, msg); err != nil {
		x.s.recErr.Do(func() {
			x.s.logf("writing the recording failed: %v; the exchanges from %d on are lost", err,
				x.seq)
		})
		x.s.recFailed.Store(true)
	}
}
