// Package simserver is a small OpenAI-compatible server over the cache simulator (cachesim),
// answering as llama.cpp's llama-server does — the same fields, streamed or not — so that `bench
// --sim` measures the whole path (replay, timing, usage parsing) in CI with no model. Its replies
// are a fixed text; its timings are simulated from token counts (no sleeping), so a bench against
// it is fast and deterministic.
package simserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/LLeMbas/lembas-check/cachesim"
)

// Costs of the simulated server, close to the fixtures' small CPU model
// (testdata/llamacpp/01-cold-nonstream.json: 1008 tokens read in 267 ms).
const (
	PromptMSPerToken    = 0.265
	PredictedMSPerToken = 3.26
	SystemFingerprint   = "b1-sim"
)

// Server answers chat completions from a simulated cache.
type Server struct {
	Cache *cachesim.Cache
	Model string
	// Reply is the text every answer carries ("ok" when empty).
	Reply string
	// Now gives the `created` time (time.Now when nil); fixed in tests and recordings.
	Now func() time.Time
	ids atomic.Int64
}

// New makes a server over a cache of n slots.
func New(slots int, model string) *Server {
	return &Server{Cache: cachesim.New(slots), Model: model}
}

// ServeHTTP implements http.Handler: POST /v1/chat/completions (and /chat/completions),
// GET /v1/models, GET /slots, POST /slots/{id}?action=erase, GET /health.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case p == "/health":
		writeJSON(w, 200, map[string]string{"status": "ok"})
	case p == "/v1/models" || p == "/models":
		writeJSON(w, 200, map[string]any{"object": "list", "data": []map[string]any{{"id": s.model(), "object": "model", "owned_by": "llamacpp"}}})
	case p == "/slots" && r.Method == http.MethodGet:
		writeJSON(w, 200, s.Cache.Info())
	case strings.HasPrefix(p, "/slots/") && r.Method == http.MethodPost:
		id, err := strconv.Atoi(strings.TrimPrefix(p, "/slots/"))
		if err != nil || r.URL.Query().Get("action") != "erase" || !s.Cache.Erase(id) {
			writeError(w, 400, "invalid_request_error", "want POST /slots/{id}?action=erase with an existing slot id")
			return
		}
		writeJSON(w, 200, map[string]any{"id_slot": id, "n_erased": 0})
	case strings.HasSuffix(p, "/chat/completions") && r.Method == http.MethodPost:
		s.complete(w, r)
	default:
		writeError(w, 404, "not_found_error", "File Not Found")
	}
}

func (s *Server) model() string {
	if s.Model == "" {
		return "sim"
	}
	return s.Model
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "type": typ}})
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 256<<20))
	if err != nil {
		writeError(w, 400, "invalid_request_error", err.Error())
		return
	}
	var req struct {
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	json.Unmarshal(body, &req)
	res, err := s.Cache.Serve(body)
	if err != nil {
		writeError(w, 400, "invalid_request_error", err.Error())
		return
	}
	reply := s.Reply
	if reply == "" {
		reply = "ok"
	}
	id := fmt.Sprintf("chatcmpl-sim%08d", s.ids.Add(1))
	created := s.now().Unix()
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(Completion(id, created, s.model(), res, reply))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	for _, ev := range Chunks(id, created, s.model(), res, reply) {
		w.Write(ev)
		if fl != nil {
			fl.Flush()
		}
	}
}

// Usage and Timings are llama-server's usage and timings objects, field for field.
type Usage struct {
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokens        int `json:"prompt_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

type Timings struct {
	CacheN              int     `json:"cache_n"`
	PromptN             int     `json:"prompt_n"`
	PromptMS            float64 `json:"prompt_ms"`
	PromptPerTokenMS    float64 `json:"prompt_per_token_ms"`
	PromptPerSecond     float64 `json:"prompt_per_second"`
	PredictedN          int     `json:"predicted_n"`
	PredictedMS         float64 `json:"predicted_ms"`
	PredictedPerTokenMS float64 `json:"predicted_per_token_ms"`
	PredictedPerSecond  float64 `json:"predicted_per_second"`
}

// completionTokens is how many tokens a reply counts for: its words, at least one.
func completionTokens(reply string) int { return max(1, len(strings.Fields(reply))) }

// UsageOf fills usage and timings from what the simulator did.
func UsageOf(res cachesim.Result, reply string) (Usage, Timings) {
	n := completionTokens(reply)
	var u Usage
	u.CompletionTokens, u.PromptTokens, u.TotalTokens = n, res.PromptTokens, res.PromptTokens+n
	u.PromptTokensDetails.CachedTokens = res.CachedTokens
	read := res.PromptTokens - res.CachedTokens
	t := Timings{CacheN: res.CachedTokens, PromptN: read, PromptMS: float64(read) * PromptMSPerToken,
		PredictedN: n, PredictedMS: float64(n) * PredictedMSPerToken, PromptPerTokenMS: PromptMSPerToken,
		PredictedPerTokenMS: PredictedMSPerToken, PredictedPerSecond: 1000 / PredictedMSPerToken}
	if read > 0 {
		t.PromptPerSecond = 1000 / PromptMSPerToken
	}
	return u, t
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Completion is a whole chat.completion body, as llama-server writes one.
func Completion(id string, created int64, model string, res cachesim.Result, reply string) []byte {
	u, t := UsageOf(res, reply)
	b, _ := json.Marshal(struct {
		Choices []struct {
			FinishReason string  `json:"finish_reason"`
			Index        int     `json:"index"`
			Message      message `json:"message"`
		} `json:"choices"`
		Created           int64   `json:"created"`
		Model             string  `json:"model"`
		SystemFingerprint string  `json:"system_fingerprint"`
		Object            string  `json:"object"`
		Usage             Usage   `json:"usage"`
		ID                string  `json:"id"`
		Timings           Timings `json:"timings"`
	}{
		Choices: []struct {
			FinishReason string  `json:"finish_reason"`
			Index        int     `json:"index"`
			Message      message `json:"message"`
		}{{"stop", 0, message{"assistant", reply}}},
		Created: created, Model: model, SystemFingerprint: SystemFingerprint, Object: "chat.completion",
		Usage: u, ID: id, Timings: t,
	})
	return b
}

type delta struct {
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content"`
}

type chunkChoice struct {
	FinishReason *string `json:"finish_reason"`
	Index        int     `json:"index"`
	Delta        any     `json:"delta"`
}

type chunk struct {
	Choices           []chunkChoice `json:"choices"`
	Created           int64         `json:"created"`
	ID                string        `json:"id"`
	Model             string        `json:"model"`
	SystemFingerprint string        `json:"system_fingerprint"`
	Object            string        `json:"object"`
	Usage             *Usage        `json:"usage,omitempty"`
	Timings           *Timings      `json:"timings,omitempty"`
}

// Chunks are the server-sent events of a streamed answer, as llama-server writes them: a role
// chunk, one chunk per word, a finish chunk, a chunk with usage and timings and no choices, and
// [DONE].
func Chunks(id string, created int64, model string, res cachesim.Result, reply string) [][]byte {
	u, t := UsageOf(res, reply)
	mk := func(c chunk) []byte {
		c.Created, c.ID, c.Model, c.SystemFingerprint, c.Object = created, id, model, SystemFingerprint, "chat.completion.chunk"
		b, _ := json.Marshal(c)
		return []byte("data: " + string(b) + "\n\n")
	}
	var out [][]byte
	out = append(out, mk(chunk{Choices: []chunkChoice{{Delta: delta{Role: "assistant"}}}}))
	words := strings.SplitAfter(reply, " ")
	for _, w := range words {
		if w == "" {
			continue
		}
		w := w
		out = append(out, mk(chunk{Choices: []chunkChoice{{Delta: delta{Content: &w}}}}))
	}
	stop := "stop"
	out = append(out, mk(chunk{Choices: []chunkChoice{{FinishReason: &stop, Delta: struct{}{}}}}))
	out = append(out, mk(chunk{Choices: []chunkChoice{}, Usage: &u, Timings: &t}))
	out = append(out, []byte("data: [DONE]\n\n"))
	return out
}
