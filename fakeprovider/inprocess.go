package fakeprovider

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// NewInProcess makes a server that does not listen: its Client reaches it in the caller's
// process, with no socket, so that a test runs the server and its clients whole inside a
// testing/synctest bubble (where nothing may wait on a socket), its delays, stalls and keep-alives
// on the bubble's clock. Its URL is http://in-process.
func NewInProcess(cfg Config) (*Server, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	s.URL = "http://in-process"
	return s, nil
}

// Client is a client that sends its requests to the server's handler in-process, whatever the
// URL's host: each response's body is a pipe the handler writes as the client reads. A client
// that cancels its request, or closes the body, is a client that hung up.
func (s *Server) Client() *http.Client { return &http.Client{Transport: inProcess{s.handler}} }

type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, hangUp := context.WithCancel(req.Context())
	in := req.Clone(ctx)
	in.RequestURI, in.RemoteAddr = req.URL.RequestURI(), "in-process"
	if in.Body == nil {
		in.Body = http.NoBody
	}
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, pw: pw, head: make(chan struct{})}
	// The client's request ending ends the body it reads with the reason, as over a socket.
	stop := context.AfterFunc(req.Context(), func() { pw.CloseWithError(req.Context().Err()) })
	go func() {
		defer hangUp()
		defer stop()
		defer in.Body.Close()
		defer func() {
			// A handler that aborts (http.ErrAbortHandler: a dropped connection) or fails cuts
			// the response where it is, as the server's end of a connection closing would.
			var err error
			if p := recover(); p != nil {
				err = io.ErrUnexpectedEOF
				if p != http.ErrAbortHandler {
					err = fmt.Errorf("the fake's handler failed: %v", p)
				}
				w.fail(err)
			}
			w.WriteHeader(http.StatusOK)
			// A handler that ended because the client's request did says why, as stop would.
			if cerr := req.Context().Err(); cerr != nil {
				err = cerr
			}
			pw.CloseWithError(err) // nil: io.EOF
		}()
		t.h.ServeHTTP(w, in)
	}()
	select {
	case <-w.head:
	case <-req.Context().Done():
		hangUp()
		return nil, req.Context().Err()
	}
	if w.err != nil {
		hangUp()
		return nil, w.err
	}
	return &http.Response{StatusCode: w.code, Status: fmt.Sprintf("%d %s", w.code, http.StatusText(w.code)),
		Header: w.sent,
		Body: hangUpBody{pr,
			hangUp}, ContentLength: -1, Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// pipeWriter is the handler's side of an in-process response.
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter
	once   sync.Once
	head   chan struct{} // closed once the status and headers are sent, or the handler failed first
	code   int
	sent   http.Header // the headers as sent
	err    error       // the handler failed before sending them
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() { w.code, w.sent = code, w.header.Clone(); close(w.head) })
}

func (w *pipeWriter) fail(err error) { w.once.Do(func() { w.err = err; close(w.head) }) }

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}

// Flush is a no-op: a write returns only once the client has read it.
func (w *pipeWriter) Flush() {}

// hangUpBody is a response body whose Close hangs up: the handler's request context ends.
type hangUpBody struct {
	*io.PipeReader
	hangUp context.CancelFunc
}

func (b hangUpBody) Close() error {
	b.hangUp()
	return b.PipeReader.Close()
}
