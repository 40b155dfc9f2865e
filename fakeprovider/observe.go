package fakeprovider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// note carries what a handler knows about an exchange to the middleware that records it.
type exchangeNote struct {
	mu   sync.Mutex
	err  string
	note string
	// body is the request body, when the recording read it first.
	body []byte
	// num is the request's number among all the server received, from 1: its request id's.
	num int
}

type noteKey struct{}

// note says what the fake changed in its answer to keep to the request, for the recording's
// `note`.
func note(ctx context.Context, format string, args ...any) {
	if n, ok := ctx.Value(noteKey{}).(*exchangeNote); ok {
		n.mu.Lock()
		n.note = fmt.Sprintf(format, args...)
		n.mu.Unlock()
	}
}

// fail says what went wrong on lembas-check's side, for the recording's `error`.
func fail(ctx context.Context, format string, args ...any) {
	if n, ok := ctx.Value(noteKey{}).(*exchangeNote); ok {
		n.mu.Lock()
		if n.err == "" {
			n.err = fmt.Sprintf(format, args...)
		}
		n.mu.Unlock()
	}
}

// observe counts every request for the metrics and, with a recording, appends the exchange to it
// once it is complete: the request exactly as received, the response as sent (each write of a
// stream with its offset), timings, and what went wrong.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			next.ServeHTTP(w, r)
			return
		}
		num := s.requests.Add(1)
		start := time.Now()
		tw := &trackWriter{rw: w, start: start, keep: s.rec != nil}
		n := &exchangeNote{num: int(num)}
		r = r.WithContext(context.WithValue(r.Context(), noteKey{}, n))
		var body []byte
		var seq int
		if s.rec != nil {
			// Done once the exchange is written (record, below): Close waits for it.
			s.inflight.Add(1)
			seq = s.rec.NextSeq()
			// Read the body here, up to one byte over the limit, so the recording holds the
			// bytes the handler saw; the handler reads them again from memory.
			var err error
			body, err = readUpTo(r, s.maxBody+1)
			if err != nil {
				fail(r.Context(), "reading the request body: %v", err)
			}
			n.body = body
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		defer func() {
			p := recover()
			if p != nil {
				if p == http.ErrAbortHandler {
					fail(r.Context(), "the stream was cut after %d chunks: the client or the upstream went away",
						tw.chunks)
				} else {
					fail(r.Context(), "lembas-check failed: %v", p)
				}
			}
			s.metrics.done(r, tw, time.Since(start), s.cfg.Upstream != "")
			if s.rec != nil {
				// Written off the request's path: the response ends when the handler returns,
				// not after a file append. The handler is done with r and tw by now.
				end := time.Now()
				tw.finish()
				go func() {
					defer s.inflight.Done()
					s.record(r, tw, n, seq, start, end, body)
				}()
			}
			if p != nil {
				panic(p)
			}
		}()
		next.ServeHTTP(tw, r)
	})
}

// readUpTo reads at most limit bytes of a body, in one allocation when its length is declared.
func readUpTo(r *http.Request, limit int64) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n < limit {
		b := make([]byte, n)
		_, err := io.ReadFull(r.Body, b)
		return b, err
	}
	return io.ReadAll(io.LimitReader(r.Body, limit))
}

func (s *Server) record(r *http.Request, tw *trackWriter, n *exchangeNote, seq int, start, end time.Time, body []byte) {
	x := replay.Exchange{Seq: seq, Started: start.UTC(), Method: r.Method, Path: r.URL.Path}
	if r.URL.RawQuery != "" {
		x.Path += "?" + r.URL.RawQuery
	}
	x.Request.Headers, x.Request.Redacted = replay.CleanHeaders(r.Header)
	if int64(len(body)) > s.maxBody {
		fail(r.Context(), "the request body is over the limit of %d bytes; its first %d bytes are recorded", s.maxBody,
			len(body))
	}
	if tw.status != 0 {
		h, _ := replay.CleanHeaders(tw.header)
		resp := &replay.Response{Status: tw.status, Headers: h}
		if tw.stream {
			tw.finish()
			resp.Stream = true
			resp.Chunks = tw.recorded
		} else {
			b := tw.body.Bytes()
			var c bytes.Buffer
			if len(b) > 0 && json.Valid(b) && json.Compact(&c, b) == nil {
				resp.Body = c.Bytes()
			} else if len(b) > 0 {
				t := string(b)
				resp.BodyText = &t
			}
		}
		x.Response = resp
		x.Timing = replay.Timing{FirstByteMS: tw.firstMS, TotalMS: ms(end.Sub(start))}
	} else {
		x.Timing = replay.Timing{TotalMS: ms(end.Sub(start))}
	}
	n.mu.Lock()
	x.Error, x.Note = n.err, n.note
	n.mu.Unlock()
	if x.Error == "" && tw.err != nil {
		x.Error = fmt.Sprintf("the client hung up after %d chunks (%v)", tw.chunks, tw.err)
	}
	if x.Error == "" && tw.lossy {
		x.Error = "the stream held bytes that are not UTF-8; the recording has U+FFFD in their place"
	}
	if err := s.rec.Write(x, body); err != nil {
		s.recErr.Do(func() { s.logf("writing the recording failed: %v; the exchanges from %d on are lost", err, seq) })
		s.recFailed.Store(true)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// trackWriter sees what a handler sends: the status and headers, and each write with its time.
type trackWriter struct {
	rw       http.ResponseWriter
	start    time.Time
	keep     bool // keep the bytes, for a recording
	status   int
	header   http.Header
	stream   bool
	chunks   int
	firstMS  float64
	body     bytes.Buffer
	recorded []replay.Chunk
	// carry holds the bytes of a character cut by a write's end, recorded with the next write
	// so a chunk's data stays valid UTF-8 and the chunks joined are the bytes sent.
	carry []byte
	lossy bool
	err   error
}

func (t *trackWriter) Header() http.Header { return t.rw.Header() }

func (t *trackWriter) WriteHeader(code int) {
	if t.status != 0 {
		return
	}
	t.status = code
	// The headers are copied for a recording only: a copy per response was 3 % of the fake's CPU.
	h := t.rw.Header()
	if t.keep {
		h = h.Clone()
		t.header = h
	}
	t.stream = strings.HasPrefix(h.Get("Content-Type"), "text/event-stream")
	t.rw.WriteHeader(code)
}

func (t *trackWriter) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.WriteHeader(http.StatusOK)
	}
	// A write's time is for a recording (the first's too): reading the clock at every event was
	// 4 % of the fake's CPU.
	if t.keep {
		at := ms(time.Since(t.start))
		if t.chunks == 0 {
			t.firstMS = at
		}
		if t.stream {
			t.keepChunk(b, at)
		} else {
			t.body.Write(b)
		}
	}
	t.chunks++
	n, err := t.rw.Write(b)
	if err != nil && t.err == nil {
		t.err = err
	}
	return n, err
}

func (t *trackWriter) keepChunk(b []byte, at float64) {
	data := append(t.carry, b...)
	t.carry = nil
	cut := len(data)
	// Step back over an unfinished last character (at most 3 bytes of one).
	for i := len(data) - 1; i >= 0 && i >= len(data)-3; i-- {
		if c := data[i]; c < 0x80 {
			break
		} else if c >= 0xC0 {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	t.carry = append([]byte(nil), data[cut:]...)
	data = data[:cut]
	if !utf8.Valid(data) {
		t.lossy = true
	}
	t.recorded = append(t.recorded, replay.Chunk{MS: at, Data: string(data)})
}

// finish records a character still carried at the end of a stream.
func (t *trackWriter) finish() {
	if len(t.carry) > 0 {
		t.lossy = true
		t.recorded = append(t.recorded, replay.Chunk{MS: ms(time.Since(t.start)), Data: string(t.carry)})
		t.carry = nil
	}
}

func (t *trackWriter) Flush() {
	if f, ok := t.rw.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (t *trackWriter) Unwrap() http.ResponseWriter { return t.rw }
