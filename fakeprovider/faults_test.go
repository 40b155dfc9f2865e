package fakeprovider_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/openai/openai-go/v3"
)

const streamHello = `{"model":"fake-model","stream":true,"messages":[{"role":"user","content":"hi"}]}`

// event is one SSE event as a client reads it, with when it arrived.
type event struct {
	raw string
	at  time.Duration
}

// readEvents reads an SSE body event by event until it ends or breaks.
func readEvents(body io.Reader) ([]event, error) {
	start := time.Now()
	br := bufio.NewReader(body)
	var out []event
	for {
		ev, err := readEvent(br)
		switch {
		case err == nil:
			out = append(out, event{ev, time.Since(start)})
			continue
		case err == io.EOF && ev == "":
			return out, nil
		case err == io.EOF:
			err = io.ErrUnexpectedEOF
		}
		return out, err
	}
}

// readEvent reads one SSE event, up to and with the empty line that ends it; on an error, what
// it read of one.
func readEvent(br *bufio.Reader) (string, error) {
	var cur strings.Builder
	for {
		line, err := br.ReadString('\n')
		cur.WriteString(line)
		if err != nil {
			return cur.String(), err
		}
		if line == "\n" {
			return cur.String(), nil
		}
	}
}

// recording is a new recording with header h in the test's temporary directory: its path and
// its writer, which the test's end closes (after the fakes started later) unless the test did.
func recording(t testing.TB, h replay.Header) (string, *replay.Writer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := replay.Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return path, w
}

// recorded is the fake with cfg for a test, recording what it serves (as `fake --record`
// without a script file: source fake); readBack reads the recording.
func recorded(t testing.TB, cfg fakeprovider.Config) (*fakeprovider.Server, string, *replay.Writer) {
	t.Helper()
	path, w := recording(t, replay.Header{Source: "fake"})
	cfg.Record = w
	return fakeprovidertest.NewWith(t, cfg), path, w
}

func readBack(t *testing.T, srv *fakeprovider.Server, w *replay.Writer, path string) []replay.Entry {
	t.Helper()
	srv.Close()
	w.Close()
	es, _, err := replay.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestStatusFaults(t *testing.T) {
	srv, path, w := recorded(t, fakeprovider.Config{Script: mustParse(t, `
- fault: {status: 429, retry_after: 2}
- fault: {status: 503, message: "Overloaded, try later", type: overloaded_error, code: overloaded, param: model}
`)})
	resp, b := post(t, srv.BaseURL()+"/chat/completions", hello)
	e := decodeError(t, b)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || e.Error.Type != "rate_limit_error" || *e.Error.Code != "rate_limit_exceeded" ||
		!strings.Contains(e.Error.Message, "Too Many Requests (a fault scripted at reply 1 (line 2) for fake-model)") {
		t.Errorf("429: %d %v %s", resp.StatusCode, resp.Header, b)
	}
	resp, b = post(t, srv.BaseURL()+"/chat/completions", streamHello)
	e = decodeError(t, b)
	if resp.StatusCode != 503 || e.Error.Message != "Overloaded, try later" || e.Error.Type != "overloaded_error" || *e.Error.Code != "overloaded" || *e.Error.Param != "model" {
		t.Errorf("503: %d %s", resp.StatusCode, b)
	}
	es := readBack(t, srv, w, path)
	if len(es) != 2 || es[0].Exchange.Response.Status != 429 || es[0].Exchange.Response.Headers["Retry-After"][0] != "2" || es[0].Exchange.Error != "" {
		t.Errorf("recorded %+v", es)
	}
}

func TestDropAfterChunks(t *testing.T) {
	srv, path, w := recorded(t, fakeprovider.Config{Script: mustParse(t, `
- {text: "one two three four five six", fault: {drop_after: 3}}
- {text: "whole", fault: {drop_after: 0}}
- {text: "a longer body cut in half", fault: {drop_after: 1}}
- {text: "x y z", fault: {drop_after: 3}}
`)})
	resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := readEvents(resp.Body)
	resp.Body.Close()
	if len(evs) != 3 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %d events and %v; want 3, then the connection cut", len(evs), err)
	}
	// Not streamed, dropped before any byte: the client gets no response at all.
	if _, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(hello)); err == nil {
		t.Error("drop_after 0 answered")
	}
	// Not streamed, dropped halfway: a body shorter than its Content-Length.
	resp, err = http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(hello))
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("halfway drop: %v", err)
	}
	// The SDK sees the stream break after what it got.
	client := sdkClient(srv)
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{Model: "fake-model", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	n := 0
	for stream.Next() {
		n++
	}
	if n != 3 || stream.Err() == nil {
		t.Errorf("SDK: %d chunks, err %v", n, stream.Err())
	}
	es := readBack(t, srv, w, path)
	if len(es) != 4 {
		t.Fatalf("%d exchanges", len(es))
	}
	x := es[0].Exchange
	if x.Error != "dropped the connection after 3 chunks, as reply 1 (line 2) says" || len(x.Response.Chunks) != 3 {
		t.Errorf("recorded %q with %d chunks", x.Error, len(x.Response.Chunks))
	}
	if es[1].Exchange.Response != nil || !strings.Contains(es[1].Exchange.Error, "before any byte") {
		t.Errorf("drop before any byte recorded as %+v", es[1].Exchange)
	}
	if !strings.Contains(es[2].Exchange.Error, "halfway through the body") {
		t.Errorf("halfway drop recorded as %q", es[2].Exchange.Error)
	}
}

func TestMalformedChunk(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, `
- {text: "one two three", fault: {malformed_at: 2}}
- {text: "one two three", fault: {malformed_at: 2}}
- {text: "not streamed", fault: {malformed_at: 1}}
`))
	resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
	if err != nil {
		t.Fatal(err)
	}
	// A stream goes out with chunked transfer encoding, as an SSE stream.
	if len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		t.Errorf("transfer encoding %v, content type %q", resp.TransferEncoding, resp.Header.Get("Content-Type"))
	}
	evs, err := readEvents(resp.Body)
	resp.Body.Close()
	if err != nil || len(evs) != 6 {
		t.Fatalf("%d events, %v", len(evs), err)
	}
	for i, ev := range evs[:len(evs)-1] {
		data := strings.TrimSuffix(strings.TrimPrefix(ev.raw, "data: "), "\n\n")
		if valid := json.Valid([]byte(data)); valid == (i == 1) {
			t.Errorf("event %d valid=%v: %q", i, valid, data)
		}
	}
	client := sdkClient(srv)
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{Model: "fake-model", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	n := 0
	for stream.Next() {
		n++
	}
	var se *json.SyntaxError
	if n != 1 || !errors.As(stream.Err(), &se) {
		t.Errorf("SDK: %d chunks, err %v", n, stream.Err())
	}
	resp, b := post(t, srv.BaseURL()+"/chat/completions", hello)
	if resp.StatusCode != 200 || json.Valid(b) || !bytes.HasPrefix(b, []byte(`{"id":"chatcmpl-fake3"`)) {
		t.Errorf("malformed body: %d %s", resp.StatusCode, b)
	}
}

// waitExchanges waits until a recording being written holds n exchanges. A poll, not a bound:
// go test's -timeout catches a recording that never fills.
func waitExchanges(t *testing.T, path string, n int) {
	t.Helper()
	for {
		if es, _, _ := replay.ReadAll(path); len(es) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func mustParse(t testing.TB, src string) *script.Script {
	t.Helper()
	s, err := script.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// inProcess is a fake serving src and recording what it serves, reached in-process (no socket),
// for a test inside a testing/synctest bubble: its delays and stalls are on the bubble's clock.
func inProcess(t *testing.T, src string) (*fakeprovider.Server, *http.Client, string, *replay.Writer) {
	t.Helper()
	path, w := recording(t, replay.Header{Source: "fake"})
	srv, err := fakeprovider.NewInProcess(fakeprovider.Config{Script: mustParse(t, src), Record: w})
	if err != nil {
		t.Fatal(err)
	}
	return srv, srv.Client(), path, w
}

func postWith(t *testing.T, c *http.Client, ctx context.Context, url, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Stalls, delays and keep-alives take the time the script says, on the bubble's clock: exact,
// whatever the machine's speed (they were checked against the real clock, with bounds a loaded
// machine could miss).
func TestStallDelayAndKeepAlive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, path, w := inProcess(t, `
- {text: "a b c", fault: {stall: 300ms, stall_after: 1}}
- {text: "a b c", delay: 250ms, keepalive: 50ms}
- {text: "slow body", delay: 150ms}
- {text: "never", fault: {stall: forever, stall_after: 2}}
`)
		url := srv.BaseURL() + "/chat/completions"
		resp := postWith(t, c, context.Background(), url, streamHello)
		evs, err := readEvents(resp.Body)
		resp.Body.Close()
		if err != nil || len(evs) != 6 {
			t.Fatalf("%d events, %v", len(evs), err)
		}
		if gap := evs[1].at - evs[0].at; gap != 300*time.Millisecond {
			t.Errorf("stall of 300ms after 1 chunk, but chunk 2 came %v after chunk 1", gap)
		}

		resp = postWith(t, c, context.Background(), url, streamHello)
		evs, err = readEvents(resp.Body)
		resp.Body.Close()
		comments := 0
		for _, ev := range evs {
			if ev.raw == ": keep-alive\n\n" {
				comments++
			} else if comments == 0 {
				t.Errorf("a data event before any keep-alive: %q", ev.raw)
			}
		}
		// At 50, 100, 150 and 200 ms; the one at 250 ms comes with the delay's end, which may win.
		if err != nil || comments != 4 && comments != 5 {
			t.Errorf("%d keep-alive comments in a 250ms delay at 50ms (%v), want 4 or 5", comments, err)
		}

		start := time.Now()
		resp = postWith(t, c, context.Background(), url, hello)
		io.ReadAll(resp.Body)
		resp.Body.Close()
		if d := time.Since(start); d != 150*time.Millisecond || resp.StatusCode != 200 {
			t.Errorf("delay 150ms answered %d after %v", resp.StatusCode, d)
		}

		// A stall without end lasts until the client hangs up.
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		resp = postWith(t, c, ctx, url, streamHello)
		evs, err = readEvents(resp.Body)
		resp.Body.Close()
		if len(evs) != 2 || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("stall forever: %d events, %v", len(evs), err)
		}
		// The exchange reaches the file as soon as the server sees the client gone.
		synctest.Wait()
		if es, _, _ := replay.ReadAll(path); len(es) != 4 {
			t.Errorf("%d exchanges recorded once the client hung up, want 4", len(es))
		}
		es := readBack(t, srv, w, path)
		last := es[len(es)-1].Exchange
		if len(es) != 4 || last.Error != "the client hung up after 2 chunks, during the stall" || len(last.Response.Chunks) != 2 {
			t.Errorf("recorded %d, last %q with %d chunks", len(es), last.Error, len(last.Response.Chunks))
		}
	})
}

// Stopping the server ends a stall at once: the stream finishes, and the exchange is recorded.
func TestShutdownEndsStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, path, w := inProcess(t, "- {text: \"a b\", fault: {stall: forever, stall_after: 1}}\n")
		got := make(chan []event, 1)
		go func() {
			resp, err := c.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
			if err != nil {
				got <- nil
				return
			}
			evs, _ := readEvents(resp.Body)
			resp.Body.Close()
			got <- evs
		}()
		synctest.Wait() // the stream is in its stall, the client waiting for more
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		start := time.Now()
		if err := srv.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("shutdown took %v", d)
		}
		evs := <-got
		if len(evs) != 5 || evs[len(evs)-1].raw != "data: [DONE]\n\n" {
			t.Errorf("the stalled stream got %d events", len(evs))
		}
		w.Close()
		es, _, err := replay.ReadAll(path)
		if err != nil || len(es) != 1 || len(es[0].Exchange.Response.Chunks) != 5 {
			t.Errorf("recorded %+v, %v", es, err)
		}
	})
}

// The in-process client sees a connection the fake drops as one over a socket: no response when
// dropped before any byte, a stream cut short after its chunks; and a client that closes the body
// mid-stream has hung up.
func TestInProcessDropsAndHangUps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, path, w := inProcess(t, `
- {text: "whole", fault: {drop_after: 0}}
- {text: "one two three four five six", fault: {drop_after: 3}}
- {text: "a b c", fault: {stall: forever, stall_after: 1}}
`)
		url := srv.BaseURL() + "/chat/completions"
		if resp, err := c.Post(url, "application/json", strings.NewReader(hello)); err == nil {
			t.Errorf("drop_after 0 answered %d", resp.StatusCode)
		}
		resp := postWith(t, c, context.Background(), url, streamHello)
		evs, err := readEvents(resp.Body)
		resp.Body.Close()
		if len(evs) != 3 || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("got %d events and %v; want 3, then the connection cut", len(evs), err)
		}
		resp = postWith(t, c, context.Background(), url, streamHello)
		if ev, err := readEvent(bufio.NewReader(resp.Body)); err != nil || !strings.HasPrefix(ev, "data: {") {
			t.Fatalf("first event %q, %v", ev, err)
		}
		resp.Body.Close()
		synctest.Wait()
		es := readBack(t, srv, w, path)
		if len(es) != 3 || !strings.Contains(es[0].Exchange.Error, "before any byte") || !strings.HasPrefix(es[2].Exchange.Error, "the client hung up after 1 chunks") {
			for _, e := range es {
				t.Logf("%d: %q", e.Exchange.Seq, e.Exchange.Error)
			}
			t.Errorf("recorded %d exchanges", len(es))
		}
	})
}
