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
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/replay"
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
	var cur strings.Builder
	for {
		line, err := br.ReadString('\n')
		cur.WriteString(line)
		if line == "\n" {
			out = append(out, event{cur.String(), time.Since(start)})
			cur.Reset()
		}
		if err != nil {
			if err == io.EOF && cur.Len() == 0 {
				return out, nil
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return out, err
		}
	}
}

func startRecorded(t *testing.T, src string) (*fakeprovider.Server, string, *replay.Writer) {
	t.Helper()
	s, err := script.Parse("faults.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := replay.Create(path, replay.Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	return fakeprovider.NewWith(t, fakeprovider.Config{Script: s, Record: w}), path, w
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
	srv, path, w := startRecorded(t, `
- fault: {status: 429, retry_after: 2}
- fault: {status: 503, message: "Overloaded, try later", type: overloaded_error, code: overloaded, param: model}
`)
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
	srv, path, w := startRecorded(t, `
- {text: "one two three four five six", fault: {drop_after: 3}}
- {text: "whole", fault: {drop_after: 0}}
- {text: "a longer body cut in half", fault: {drop_after: 1}}
- {text: "x y z", fault: {drop_after: 3}}
`)
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
	srv := fakeprovider.New(t, mustParse(t, `
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

// waitExchanges waits until a recording being written holds n exchanges.
func waitExchanges(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		es, _, _ := replay.ReadAll(path)
		if len(es) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recording holds %d exchanges after 5 s, want %d", len(es), n)
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

func TestStallDelayAndKeepAlive(t *testing.T) {
	srv, path, w := startRecorded(t, `
- {text: "a b c", fault: {stall: 300ms, stall_after: 1}}
- {text: "a b c", delay: 250ms, keepalive: 50ms}
- {text: "slow body", delay: 150ms}
- {text: "never", fault: {stall: forever, stall_after: 2}}
`)
	resp, _ := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
	evs, err := readEvents(resp.Body)
	resp.Body.Close()
	if err != nil || len(evs) != 6 {
		t.Fatalf("%d events, %v", len(evs), err)
	}
	if gap := evs[1].at - evs[0].at; gap < 280*time.Millisecond {
		t.Errorf("stall of 300ms after 1 chunk, but chunk 2 came %v after chunk 1", gap)
	}

	resp, _ = http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
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
	if err != nil || comments < 2 || comments > 5 {
		t.Errorf("%d keep-alive comments in a 250ms delay at 50ms (%v)", comments, err)
	}

	start := time.Now()
	resp, _ = post(t, srv.BaseURL()+"/chat/completions", hello)
	if d := time.Since(start); d < 150*time.Millisecond || resp.StatusCode != 200 {
		t.Errorf("delay 150ms answered after %v", d)
	}

	// A stall without end lasts until the client hangs up.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.BaseURL()+"/chat/completions", strings.NewReader(streamHello))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	evs, err = readEvents(resp.Body)
	resp.Body.Close()
	if len(evs) != 2 || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stall forever: %d events, %v", len(evs), err)
	}
	// The exchange reaches the file as soon as the server sees the client gone.
	waitExchanges(t, path, 4)
	es := readBack(t, srv, w, path)
	last := es[len(es)-1].Exchange
	if len(es) != 4 || last.Error != "the client hung up after 2 chunks, during the stall" || len(last.Response.Chunks) != 2 {
		t.Errorf("recorded %d, last %q with %d chunks", len(es), last.Error, len(last.Response.Chunks))
	}
}

// Stopping the server ends a stall: the stream finishes, and the exchange is recorded.
func TestShutdownEndsStall(t *testing.T) {
	srv, path, w := startRecorded(t, "- {text: \"a b\", fault: {stall: forever, stall_after: 1}}\n")
	got := make(chan []event, 1)
	go func() {
		resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
		if err != nil {
			got <- nil
			return
		}
		evs, _ := readEvents(resp.Body)
		resp.Body.Close()
		got <- evs
	}()
	time.Sleep(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
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
}
