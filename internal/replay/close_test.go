package replay_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// closingServer serves h over raw HTTP/1.1 the way llama-server does: every answer says
// `Keep-Alive` and is sent chunked, and after an answer that closes (a stream, or every answer
// when always is set) the server ends the connection. To make the race deterministic it waits
// until the client has sent the next request on that connection (or closed it) and then closes
// without answering: the worst case of what llama-server does.
type closingServer struct {
	ln     net.Listener
	always bool
	mu     sync.Mutex
	closed int // connections ended with a request unanswered
	conns  []net.Conn
	wg     sync.WaitGroup
}

func newClosingServer(t *testing.T, h http.Handler, always bool) *closingServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &closingServer{ln: ln, always: always}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() { defer s.wg.Done(); s.serve(c, h) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close() // a connection the client keeps idle
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *closingServer) URL() string { return "http://" + s.ln.Addr().String() }

func (s *closingServer) serve(c net.Conn, h http.Handler) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		req.Body.Close()
		body := rec.Body.Bytes()
		stream := strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream")
		w := bufio.NewWriter(c)
		fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nServer: llama.cpp\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n",
			rec.Code, http.StatusText(rec.Code), rec.Header().Get("Content-Type"))
		if len(body) > 0 {
			fmt.Fprintf(w, "%x\r\n%s\r\n", len(body), body)
		}
		fmt.Fprint(w, "0\r\n\r\n")
		if w.Flush() != nil {
			return
		}
		if stream || s.always {
			// The client's next request on this connection, if it sends one, goes unanswered.
			if _, err := br.Peek(1); err == nil {
				s.mu.Lock()
				s.closed++
				s.mu.Unlock()
			}
			return
		}
	}
}

// A server that closes the connection after each stream, as llama-server does, passes 100 of
// 100 replays of a streamed recording: a streamed request is sent with Connection: close, so no
// request goes out on a connection the server is closing. (Before, Go reused the connection
// and the next request read EOF: "the server cannot be reached".)
func TestAServerThatClosesAfterEachStream(t *testing.T) {
	srv := newClosingServer(t, simServer(t, "").Handler(), false)
	client := &http.Client{}
	for i := range 100 {
		p := &replay.Player{Sender: replay.Sender{URL: srv.URL(), Client: client}, Mode: replay.Frozen}
		sent, err := play(t, p, recDir+"interleaved.jsonl")
		if err != nil {
			t.Fatalf("replay %d of 100: %v", i+1, err)
		}
		if len(sent) != 9 {
			t.Fatalf("replay %d: %d of 9 requests sent", i+1, len(sent))
		}
		for _, s := range sent {
			if s.Error != "" || s.Status != 200 {
				t.Fatalf("replay %d request %d: %d %s", i+1, s.Seq, s.Status, s.Error)
			}
		}
	}
	if srv.closed != 0 {
		t.Errorf("%d requests were sent on a connection the server was closing", srv.closed)
	}
}

// A server that closes after every answer, streamed or not, without saying so: the request that
// finds its reused connection closed before any answer is sent once more on a new one.
func TestARequestOnAClosedReusedConnectionIsSentAgain(t *testing.T) {
	srv := newClosingServer(t, simServer(t, "").Handler(), true)
	p := &replay.Player{Sender: replay.Sender{URL: srv.URL(), Client: &http.Client{}}, Mode: replay.Frozen}
	sent, err := play(t, p, recDir+"clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	retried := 0
	for _, s := range sent {
		if s.Error != "" || s.Status != 200 {
			t.Errorf("request %d: %d %s", s.Seq, s.Status, s.Error)
		}
		if s.Retried {
			retried++
		}
	}
	// clean.jsonl is not streamed: every request after the first went out on the connection
	// the server closed after the answer before it.
	if len(sent) != 6 || retried != 5 || srv.closed != 5 {
		t.Errorf("%d sent, %d retried, %d unanswered on a closing connection", len(sent), retried, srv.closed)
	}
}

// A server that answers nothing is still an error, not retried for ever.
func TestAServerThatNeverAnswersIsUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	defer ln.Close()
	s := replay.Sender{URL: "http://" + ln.Addr().String(), Client: &http.Client{}}
	if _, err := s.Send(context.Background(), "/v1/chat/completions", []byte(`{"messages":[]}`)); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("got %v", err)
	}
}
