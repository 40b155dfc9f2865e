package fakeprovider_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/openai/openai-go/v3"
)

func proxyTo(t *testing.T, upstream string) (*fakeprovider.Server, string, *replay.Writer) {
	t.Helper()
	path, w := recording(t, replay.Header{Source: "proxy", Upstream: upstream})
	return fakeprovidertest.NewWith(t, fakeprovider.Config{Upstream: upstream, Record: w}), path, w
}

// The proxy passes a stream through chunk by chunk, as the upstream sends it, and records each
// chunk with its time; the credential reaches the upstream but not the file. The upstream sends
// each chunk only once the client has read the one before: a proxy that held the stream back
// would hang here (go test's -timeout), whatever the machine's speed (it was a bound of 100 ms
// of the real clock between the first event and the last).
func TestProxyStreamsThrough(t *testing.T) {
	var mu sync.Mutex
	var gotPath, gotAuth, gotBody string
	read := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		gotPath, gotAuth, gotBody = r.URL.Path, r.Header.Get("Authorization"), string(b)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < 4; i++ {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%d\"}}]}\n\n", i)
			w.(http.Flusher).Flush()
			<-read
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer up.Close()
	srv, path, w := proxyTo(t, up.URL+"/v1")
	req, _ := http.NewRequest(http.MethodPost, srv.BaseURL()+"/chat/completions", strings.NewReader(streamHello))
	req.Header.Set("Authorization", "Bearer sk-real-upstream-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var evs []event
	br := bufio.NewReader(resp.Body)
	for len(evs) < 5 {
		ev, err := readEvent(br)
		if err != nil {
			t.Fatalf("after %d events: %v", len(evs), err)
		}
		evs = append(evs, event{raw: ev})
		if len(evs) < 5 {
			read <- struct{}{}
		}
	}
	if rest, _ := io.ReadAll(br); len(rest) > 0 {
		t.Errorf("after [DONE]: %q", rest)
	}
	resp.Body.Close()
	mu.Lock()
	if gotPath != "/v1/chat/completions" || gotAuth != "Bearer sk-real-upstream-key" || gotBody != streamHello {
		t.Errorf("upstream got %s %q %q", gotPath, gotAuth, gotBody)
	}
	mu.Unlock()
	es := readBack(t, srv, w, path)
	raw, _ := os.ReadFile(path)
	if bytes.Contains(raw, []byte("sk-real-upstream-key")) {
		t.Error("the upstream key reached the recording")
	}
	if len(es) != 1 {
		t.Fatalf("%d exchanges", len(es))
	}
	x := es[0].Exchange
	if !x.Response.Stream || len(x.Response.Chunks) < 4 || string(es[0].Body) != streamHello {
		t.Fatalf("recorded %+v", x)
	}
	var joined strings.Builder
	for _, c := range x.Response.Chunks {
		joined.WriteString(c.Data)
	}
	var sent strings.Builder
	for _, e := range evs {
		sent.WriteString(e.raw)
	}
	if joined.String() != sent.String() {
		t.Errorf("recorded bytes differ from those passed on")
	}
	// Each chunk was passed on before the next came: its offset is its own, in order.
	for i := 1; i < len(x.Response.Chunks); i++ {
		if x.Response.Chunks[i].MS < x.Response.Chunks[i-1].MS {
			t.Errorf("chunk %d recorded at %vms, before chunk %d at %vms", i, x.Response.Chunks[i].MS, i-1, x.Response.Chunks[i-1].MS)
		}
	}
	if x.Response.Chunks[len(x.Response.Chunks)-1].MS <= x.Response.Chunks[0].MS {
		t.Errorf("chunk offsets %v…%vms: the stream was recorded as one write", x.Response.Chunks[0].MS, x.Response.Chunks[len(x.Response.Chunks)-1].MS)
	}
}

// A gzip-compressed upstream answer is recorded readable.
func TestProxyGzip(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(w, `{"plain":true}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, `{"object":"list","data":[]}`)
		zw.Close()
	}))
	defer up.Close()
	srv, path, w := proxyTo(t, up.URL)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/models", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != `{"object":"list","data":[]}` {
		t.Errorf("client got %q (%v)", b, resp.Header)
	}
	es := readBack(t, srv, w, path)
	if string(es[0].Exchange.Response.Body) != `{"object":"list","data":[]}` {
		t.Errorf("recorded %s", es[0].Exchange.Response.Body)
	}
}

// The proxy joins its upstream and a request's path as the replay does (replay.JoinURL): a
// Gemini request under an upstream ending in /v1 goes to the upstream's /v1beta, not /v1/v1beta
// (which the proxy's own join sent it to).
func TestProxyJoinsPathsAsTheReplayDoes(t *testing.T) {
	var mu sync.Mutex
	var got []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.RequestURI())
		mu.Unlock()
		io.WriteString(w, `{}`)
	}))
	defer up.Close()
	srv, _, _ := proxyTo(t, up.URL+"/v1/")
	paths := []string{"/v1/chat/completions", "/v1beta/models/m:streamGenerateContent?alt=sse", "/v1/models"}
	for _, p := range paths {
		resp, err := http.Post(srv.URL+p, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, " ") != strings.Join(paths, " ") {
		t.Errorf("upstream got %q, want %q", got, paths)
	}
}

func TestProxyUpstreamDown(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	srv, path, w := proxyTo(t, dead)
	resp, b := post(t, srv.BaseURL()+"/chat/completions", hello)
	e := decodeError(t, b)
	if resp.StatusCode != 502 || *e.Error.Code != "upstream_unreachable" || !strings.Contains(e.Error.Message, dead) {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
	es := readBack(t, srv, w, path)
	if len(es) != 1 || !strings.Contains(es[0].Exchange.Error, "the upstream "+dead+" could not be reached") {
		t.Errorf("recorded %+v", es)
	}
	if _, err := fakeprovider.Start(fakeprovider.Config{Upstream: "ftp://x"}); err == nil || !strings.Contains(err.Error(), "want an http(s) base URL") {
		t.Errorf("bad upstream: %v", err)
	}
}

// The SDK works through the proxy in front of a fake, streaming; the proxy's recording is what
// the fake sent.
func TestProxyInFrontOfFake(t *testing.T) {
	fake := fakeprovidertest.New(t, nil)
	srv, path, w := proxyTo(t, fake.BaseURL())
	client := sdkClient(srv)
	params := chatParams()
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if stream.Err() != nil || len(acc.Choices) == 0 || len(acc.Choices[0].Message.ToolCalls) != 1 || acc.Choices[0].Message.ToolCalls[0].Function.Name != "read" {
		t.Fatalf("%v %+v", stream.Err(), acc.Choices)
	}
	es := readBack(t, srv, w, path)
	if len(es) != 1 || fake.Requests() != 1 {
		t.Fatalf("%d exchanges, fake saw %d", len(es), fake.Requests())
	}
	// Chunks are the proxy's reads: events that came together are one chunk.
	var joined strings.Builder
	for _, c := range es[0].Exchange.Response.Chunks {
		joined.WriteString(c.Data)
	}
	if !strings.HasPrefix(joined.String(), "data: {") || !strings.HasSuffix(joined.String(), "data: [DONE]\n\n") {
		t.Errorf("recorded stream %q", joined.String())
	}
}
