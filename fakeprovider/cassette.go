package fakeprovider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/replay/cassette"
)

// The cassette modes, as go-vcr's: strict answers from the cassette alone, a miss is an error;
// new answers a miss from the upstream, recording it beside the exchanges played; all
// re-records everything from the upstream.
const (
	CassetteStrict = "strict"
	CassetteNew    = "new"
	CassetteAll    = "all"
)

// cassetteHandler answers each request with its recorded answer (cassette.Cassette.Play). A
// request that matches none goes to upstream when there is one (mode new); otherwise it is
// answered with a 400 naming the nearest recorded request and the first differing path, said
// on the log and recorded as the exchange's error.
func (s *Server) cassetteHandler(c *cassette.Cassette, upstream http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body, err := readUpTo(r, s.maxBody+1)
		if err != nil {
			fail(r.Context(), "reading the request body: %v", err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		path := r.URL.Path
		if r.URL.RawQuery != "" {
			path += "?" + r.URL.RawQuery
		}
		rec, repeat, miss := c.Play(r.Method, path, body)
		switch {
		case miss != nil && upstream != nil:
			note(r.Context(), "not in the cassette %s: answered by the upstream", c.File)
			upstream.ServeHTTP(w, r)
		case miss != nil:
			s.cassetteMiss(w, r, c, miss)
		default:
			if repeat {
				note(r.Context(), "cassette exchange %d played again (a repeat)", rec.Seq)
			} else {
				note(r.Context(), "cassette exchange %d", rec.Seq)
			}
			s.play(w, r, rec, start)
		}
	})
}

// cassetteMiss answers a request the cassette holds no answer to, in its API's error shape.
func (s *Server) cassetteMiss(w http.ResponseWriter, r *http.Request, c *cassette.Cassette, miss *cassette.Miss) {
	s.misses.Add(1)
	msg := fmt.Sprintf("lembas-check cassette %s: %v", c.File, miss)
	fail(r.Context(), "%s", msg)
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "lembas-check fake: %s\n", msg)
	}
	e := &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest, Code: "cassette_miss",
		Message: msg + " (re-record with --cassette-mode new or all, or say what may vary with --cassette-match; " +
			"docs/recording.md)"}
	switch chat.APIOf(r.URL.Path) {
	case chat.Anthropic:
		num := 0
		if n, ok := r.Context().Value(noteKey{}).(*exchangeNote); ok {
			num = n.num
		}
		s.anthropicError(w, e, num)
	case chat.Gemini:
		geminiError(w, e)
	default:
		writeError(w, e)
	}
}

// play sends a recorded answer: its status and headers, then its body, or its stream chunk by
// chunk as it was written (each write flushed); with Config.Timed each write waits for its
// recorded time from the request's start.
func (s *Server) play(w http.ResponseWriter, r *http.Request, rec *cassette.Recorded, start time.Time) {
	resp := rec.Response
	for k, vs := range resp.Headers {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Transfer-Encoding", "Date", "Connection":
			continue
		}
		w.Header()[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	when := rec.Schedule()
	if !resp.Stream {
		b := []byte(resp.Body)
		if resp.BodyText != nil {
			b = []byte(*resp.BodyText)
		}
		if s.cfg.Timed && !s.waitUntil(r.Context(), start, when[0]) {
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		w.WriteHeader(resp.Status)
		w.Write(b)
		return
	}
	w.WriteHeader(resp.Status)
	fl, _ := w.(http.Flusher)
	for i, ch := range resp.Chunks {
		if s.cfg.Timed && !s.waitUntil(r.Context(), start, when[i]) {
			return
		}
		if _, err := io.WriteString(w, ch.Data); err != nil {
			return
		}
		if fl != nil {
			fl.Flush()
		}
	}
}

// waitUntil waits for start+d, false when the client went or the server stops first.
func (s *Server) waitUntil(ctx context.Context, start time.Time, d time.Duration) bool {
	wait := time.Until(start.Add(d))
	if wait <= 0 {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.stop:
		return false
	}
}

// Misses counts the requests the cassette held no answer to (in mode strict).
func (s *Server) Misses() int { return int(s.misses.Load()) }
