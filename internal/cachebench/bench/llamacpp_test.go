package bench

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// answer is one answer of a real llama-server, as testdata/llamacpp/bench-*.answers.jsonl keeps
// them: what it answered the n-th time (from 0) it was sent the request whose method, path and
// body hash to key. The request itself is not kept.
type answer struct {
	Key         string `json:"key"`
	N           int    `json:"n"`
	Method      string `json:"method"`
	Path        string `json:"path"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	Body        string `json:"body"`
}

// requestKey is how a request is found among the answers: the SHA-256 of "METHOD PATH\n" and its
// body.
func requestKey(method, uri string, body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", method, uri)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// playAnswers serves what a real llama-server answered, each request with the answer it got the
// same time in the captured bench; a request the capture did not see is a 599 naming it, and the
// test fails.
func playAnswers(t *testing.T, file string) *httptest.Server {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	answers := map[string]answer{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		answers[fmt.Sprintf("%s/%d", a.Key, a.N)] = a
	}
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		key := requestKey(r.Method, r.URL.RequestURI(), body)
		mu.Lock()
		n := seen[key]
		seen[key] = n + 1
		mu.Unlock()
		a, ok := answers[fmt.Sprintf("%s/%d", key, n)]
		if !ok {
			t.Errorf("%s %s (time %d): llama-server was not asked this in the captured bench (re-capture the answers if the bench now asks otherwise): %.200s", r.Method, r.URL.RequestURI(), n+1, body)
			http.Error(w, "not captured", 599)
			return
		}
		w.Header().Set("Content-Type", a.ContentType)
		w.WriteHeader(a.Status)
		io.WriteString(w, a.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The bench against what a real llama-server (the model and build of testdata/llamacpp/README.md)
// answered to `lembas-check bench interleaved.jsonl --variant date-in-system`, with one slot and
// with four, --cache-ram 0: configured from the server's own /props and /slots, counting with its
// /apply-template and /tokenize, the prediction is the server's cache_n on every request.
func TestThePredictionIsARealLlamaServersCacheN(t *testing.T) {
	for _, c := range []struct {
		file  string
		slots int
	}{
		{"../../../testdata/llamacpp/bench-np1.answers.jsonl", 1},
		{"../../../testdata/llamacpp/bench-np4.answers.jsonl", 4},
	} {
		srv := playAnswers(t, c.file)
		snd := replay.Sender{URL: srv.URL, Client: srv.Client()}
		ctx := context.Background()
		info, err := snd.LlamaServer(ctx)
		if err != nil || info == nil || info.Slots != c.slots {
			t.Fatalf("%s: %+v %v", c.file, info, err)
		}
		tok := tokens.NewServer(srv.URL)
		v, _ := ParseVariant("date-in-system")
		res, err := Bench(ctx, opener("../../../testdata/recordings/interleaved.jsonl"), Options{Sender: snd, Cold: true, Tokenizer: tok, LlamaServer: info,
			Adjust: replay.Adjust{MaxTokens: replay.DefaultMaxTokens, AskUsage: true}, Variants: []Variant{v},
			Predictor: predictor(t, PredictorConfig{Slots: info.Slots, Context: info.Context, Tokenizer: tok})})
		if err != nil {
			t.Fatal(err)
		}
		var cached int64
		for _, run := range res.Runs {
			cached += run.Totals.Cached
			if run.Totals.Compared == 0 || run.Totals.Exact != run.Totals.Compared || run.Totals.Compared+run.Totals.Errors != run.Totals.Requests {
				t.Errorf("%d slots, %s: %d of %d exact, %d errors", c.slots, run.Name, run.Totals.Exact, run.Totals.Compared, run.Totals.Errors)
			}
			if !strings.HasPrefix(run.ColdCheck, "cold:") && !strings.HasPrefix(run.ColdCheck, "not checked:") {
				t.Errorf("%d slots, %s: %q", c.slots, run.Name, run.ColdCheck)
			}
		}
		if want := capturedCacheN(t, c.file); cached != want {
			t.Errorf("%d slots: %d cached tokens in all, the server's answers hold %d", c.slots, cached, want)
		}
	}
}

// capturedCacheN sums the timings.cache_n of the chat completions a capture holds.
func capturedCacheN(t *testing.T, file string) int64 {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var a answer
		if json.Unmarshal([]byte(l), &a) != nil || !strings.HasSuffix(a.Path, "/chat/completions") || a.Status != 200 {
			continue
		}
		var r replay.Reply
		if strings.HasPrefix(a.ContentType, "text/event-stream") {
			r, err = replay.ParseStream([][]byte{[]byte(a.Body)})
		} else {
			r, err = replay.ParseReply([]byte(a.Body))
		}
		if u := r.TokenUsage(); err == nil && r.Error == "" && u.CachedTokens != nil {
			sum += int64(*u.CachedTokens)
		}
	}
	return sum
}
