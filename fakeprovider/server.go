// Package fakeprovider is an OpenAI-compatible model server that lembas-check controls: it
// answers chat completions (JSON and SSE) and the Responses API from a script, with faults on
// demand, reports usage with cached tokens from a prompt cache simulator, serves the LLeMbas
// instance endpoints a CLI needs to start, records every exchange (replay's format) and exports
// Prometheus metrics. With an upstream it is instead a recording proxy in front of a real server.
//
// docs/fakeprovider.md is the reference for scripts, flags and endpoints.
package fakeprovider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/internal/replay/cassette"
)

// DefaultModel is the model the fake serves when neither the script nor the flags name one.
const DefaultModel = "fake-model"

// DefaultMaxBody is the largest request body taken (413 above it).
const DefaultMaxBody = 32 << 20

// Config says what a server does. The zero value serves the default policy on loopback.
type Config struct {
	// Script is what to answer; nil serves script.Default() (read README.md, then say done).
	Script *script.Script
	// Upstream, when set, makes a recording proxy to this OpenAI-compatible base URL instead.
	Upstream string
	// Models are the model ids served (404 for any other): these, else the script's; with
	// neither, any model id is served and DefaultModel is the one listed.
	Models []string
	// Dialect shapes chat completions and their usage (usage.OpenAI by default).
	Dialect usage.Dialect
	// Cache reports cached tokens and counts a reply's; nil: a simulator of CacheSlots slots.
	Cache      *cachesim.Cache
	CacheSlots int
	// KeepSlotOrder keeps, in the llama.cpp dialect, the order in which requests took their
	// slots and gave them back (SlotOrder): a bench of the simulator itself follows it, as it
	// follows a llama-server's answers' timings. It grows with every request.
	KeepSlotOrder bool
	// Record, when set, gets every exchange as it completes.
	Record *replay.Writer
	// Listen is the address; empty or a port alone (":8080") is loopback. Name another host
	// ("0.0.0.0:8080") to be reached from elsewhere.
	Listen  string
	MaxBody int64
	// Now is the clock for `created` fields; nil: time.Now.
	Now func() time.Time
	// Log gets problems on lembas-check's side (a recording that cannot be written); nil: none.
	Log io.Writer
	// Strict answers requests the API would refuse with its 400s (wire.Validate); otherwise
	// the fake checks only what it reads.
	Strict bool
	// Turn, when set, chooses each reply before the script does, from the request as decoded
	// and its body as the model sees it — as sent, but for a Responses request that continues
	// an earlier response (previous_response_id, a conversation: codex over its WebSocket),
	// whose earlier turns are put before its input (chat.Continuation) — so that the live target,
	// which plays the model so that a harness makes exactly a case's calls, judges every request
	// whole: a nil reply leaves the request to the script; an error answers 500 with it.
	Turn func(q *wire.Request, body []byte) (*script.Reply, error)
	// Cassette, when set, answers every request with its recorded answer (cassetteHandler); a
	// miss goes to Upstream when it is set (mode new), else it is a 400. Timed sends each
	// answer's writes at their recorded times.
	Cassette *cassette.Cassette
	Timed    bool
	// MCP, when set, names the MCP servers the fake serves at /mcp/NAME: their instructions and
	// tools (docs/fakeprovider.md, MCP servers); asked at each request, so that the live target
	// serves each case's.
	MCP func(name string) (wire.MCPServer, bool)
}

// Server is a running fake provider (or recording proxy).
type Server struct {
	// URL is the server's root, http://127.0.0.1:PORT; the OpenAI base URL is URL + "/v1".
	URL string

	cfg    Config
	picker *script.Picker
	models []string
	// anyModel: no model list was given, so every model id is served (an agent pointed at the
	// fake with its own model name works without --model).
	anyModel bool
	cache    *cachesim.Cache
	// providers are the prompt caches of the Anthropic and Gemini endpoints (providers.go).
	providers providerCaches
	maxBody   int64
	now       func() time.Time
	rec       *replay.Writer
	metrics   *serverMetrics
	handler   http.Handler
	srv       *http.Server
	ln        net.Listener
	stop      chan struct{}
	stopOnce  sync.Once
	inflight  sync.WaitGroup
	served    chan struct{}

	slotOrder slotOrder
	requests  atomic.Int64
	tokensIn  atomic.Int64
	tokensOut atomic.Int64
	recErr    sync.Once
	recFailed atomic.Bool

	personal personalization
	state    *state
	// blocks and vllm are the vllm dialect's prefix cache and counters (vllm.go).
	blocks  *cachesim.Blocks
	vllm    *vllmMetrics
	wsConns atomic.Int64
	logged  atomic.Int64 // lines said on cfg.Log (Logged)
	misses  atomic.Int64 // requests the cassette held no answer to (Misses)
}

// newServer makes the server and its handler; it does not listen yet.
func newServer(cfg Config) (*Server, error) {
	s := &Server{cfg: cfg, rec: cfg.Record, stop: make(chan struct{}), served: make(chan struct{}),
		metrics: newMetrics()}
	if cfg.Script == nil {
		cfg.Script = script.Default()
	}
	s.picker = script.NewPicker(cfg.Script)
	s.models = cfg.Models
	if len(s.models) == 0 {
		s.models = cfg.Script.Models
	}
	if len(s.models) == 0 {
		s.models, s.anyModel = []string{DefaultModel}, true
	}
	if s.cfg.Dialect == "" {
		s.cfg.Dialect = usage.OpenAI
	}
	if _, err := usage.ParseDialect(string(s.cfg.Dialect)); err != nil {
		return nil, err
	}
	s.cache = cfg.Cache
	if s.cache == nil {
		s.cache = cachesim.New(cfg.CacheSlots)
	}
	if err := s.providers.init(s.cache.Tokenizer()); err != nil {
		return nil, err
	}
	if s.cfg.Dialect == usage.VLLM {
		s.blocks = cachesim.NewBlocks(cachesim.DefaultBlockSize, vllmBlocks)
		s.vllm = newVLLMMetrics(s.metrics.reg)
		s.vllmModels()
	}
	s.maxBody = cfg.MaxBody
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	s.now = cfg.Now
	if s.now == nil {
		s.now = time.Now
	}
	s.personal = personalization{Available: true}
	s.state = newState()
	mux := &routeMux{ServeMux: http.NewServeMux()}
	mux.Handle("GET /metrics", s.metrics.handler())
	var upstream http.Handler
	if cfg.Upstream != "" {
		p, err := s.proxy(cfg.Upstream)
		if err != nil {
			return nil, err
		}
		upstream = p
	}
	switch {
	case cfg.Cassette != nil:
		mux.Handle("/", s.cassetteHandler(cfg.Cassette, upstream))
	case upstream != nil:
		mux.Handle("/", upstream)
	default:
		s.routes(mux)
	}
	s.handler = s.observe(mux)
	return s, nil
}

// Start listens and serves in the background.
func Start(cfg Config) (*Server, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	addr, err := loopback(cfg.Listen)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	s.ln = ln
	s.URL = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s.handler, ReadHeaderTimeout: 30 * time.Second, ErrorLog: nil}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// loopback binds an address with no host to 127.0.0.1, so nothing is reachable from elsewhere
// unless asked for by name.
func loopback(listen string) (string, error) {
	if listen == "" {
		return "127.0.0.1:0", nil
	}
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--listen %q: want host:port, such as 127.0.0.1:8080 (%v)", listen, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Serve runs a server until ctx is done, then shuts it down (in-flight exchanges get up to 5 s to
// finish and be recorded). ready, if set, gets the server once it listens.
func Serve(ctx context.Context, cfg Config, ready func(*Server)) error {
	s, err := Start(cfg)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(s)
	}
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.Shutdown(sctx)
}

// BaseURL is the OpenAI base URL: URL + "/v1".
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Upstream is the base URL proxied to, or "" for the fake.
func (s *Server) Upstream() string { return s.cfg.Upstream }

// Handler is the server's handler, for embedding it elsewhere.
func (s *Server) Handler() http.Handler { return s.handler }

// Requests counts the requests the server received (but /metrics).
func (s *Server) Requests() int { return int(s.requests.Load()) }

// Shutdown stops taking requests, ends stalls and delays, and waits for the exchanges in flight
// to be recorded, until ctx is done; then it closes what is left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopOnce.Do(func() { close(s.stop) })
	var err error
	if s.srv != nil {
		if err = s.srv.Shutdown(ctx); err != nil {
			s.srv.Close()
		}
	}
	done := make(chan struct{})
	go func() { s.inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		err = errors.Join(err, errors.New("exchanges still in flight after 5 s were not recorded"))
	}
	if s.recFailed.Load() {
		err = errors.Join(err, errors.New("the recording could not be written in full (see the log)"))
	}
	return err
}

// Close stops the server at once; exchanges in flight end as the client hanging up would.
func (s *Server) Close() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return s.Shutdown(ctx)
}

func (s *Server) logf(format string, args ...any) {
	s.logged.Add(1)
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "lembas-check fake: "+format+"\n", args...)
	}
}

// routes are the fake's endpoints. Each API path is also served without its /v1, for clients
// whose base URL leaves it out.
func (s *Server) routes(mux *routeMux) {
	for _, p := range []string{"/v1", ""} {
		mux.HandleFunc("GET "+p+"/models", s.handleModels)
		mux.HandleFunc("POST "+p+"/chat/completions", s.handleCompletion(chat.ChatCompletions))
		mux.HandleFunc("POST "+p+"/responses", s.handleCompletion(chat.Responses))
		mux.HandleFunc("GET "+p+"/responses", s.handleWebSocket)
		mux.HandleFunc("GET "+p+"/responses/{id}", s.handleGetResponse)
		mux.HandleFunc("DELETE "+p+"/responses/{id}", s.handleDeleteResponse)
		mux.HandleFunc("GET "+p+"/responses/{id}/input_items", s.handleInputItems)
		mux.HandleFunc("POST "+p+"/responses/{id}/cancel", s.handleCancel)
		mux.HandleFunc("POST "+p+"/responses/compact", s.handleCompact)
		mux.HandleFunc("POST "+p+"/responses/input_tokens", s.handleInputTokens)
		mux.HandleFunc("POST "+p+"/conversations", s.handleCreateConversation)
		mux.HandleFunc("GET "+p+"/conversations/{id}", s.handleConversation)
		mux.HandleFunc("POST "+p+"/conversations/{id}", s.handleConversation)
		mux.HandleFunc("DELETE "+p+"/conversations/{id}", s.handleConversation)
		mux.HandleFunc("GET "+p+"/conversations/{id}/items", s.handleConversationItems)
		mux.HandleFunc("POST "+p+"/conversations/{id}/items", s.handleConversationItems)
		mux.HandleFunc("GET "+p+"/conversations/{id}/items/{item}", s.handleConversationItem)
		mux.HandleFunc("DELETE "+p+"/conversations/{id}/items/{item}", s.handleConversationItem)
	}
	s.providerRoutes(mux) // Anthropic's Messages and Gemini (providers.go)
	mux.HandleFunc("GET /.well-known/lembas.json", s.handleDiscovery)
	mux.HandleFunc("GET /api/v1/instance", s.handleInstance)
	mux.HandleFunc("POST /mcp/{name}", s.handleMCP)
	mux.HandleFunc("GET /v1/usage", s.handleUsage)
	mux.HandleFunc("GET /v1/me/personalization", s.handlePersonalization)
	mux.HandleFunc("PUT /v1/me/personalization", s.handlePersonalization)
	if s.cfg.Dialect == usage.VLLM {
		mux.HandleFunc("POST /reset_prefix_cache", s.handleResetPrefixCache)
	}
	if s.cfg.Dialect == usage.LlamaCpp {
		mux.HandleFunc("GET /slots", s.handleSlots)
		mux.HandleFunc("POST /slots/{id}", s.handleSlotAction)
	}
	mux.HandleFunc("/", s.handleUnknown(mux))
}

func writeError(w http.ResponseWriter, e *wire.Error) {
	b := e.Body()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(e.Status)
	w.Write(b)
}

func writeJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// handleUnknown answers a path no route serves (404), or a known path with the wrong method (405).
func (s *Server) handleUnknown(mux *routeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
			probe := &http.Request{Method: m, URL: &url.URL{Path: r.URL.Path}, Host: r.Host}
			if _, pat := mux.Handler(probe); pat != "" && pat != "/" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, &wire.Error{Status: http.StatusMethodNotAllowed, Type: wire.TypeInvalidRequest,
				Code: "method_not_allowed",
				Message: fmt.Sprintf("%s %s is not served here; use %s.", r.Method, r.URL.Path, strings.Join(allow,
					" or "))})
			return
		}
		writeError(w, &wire.Error{Status: http.StatusNotFound, Type: wire.TypeInvalidRequest, Code: "unknown_url",
			Message: fmt.Sprintf("Unknown request URL: %s %s. This fake serves %s (docs/fakeprovider.md).", r.Method,
				r.URL.Path, mux.served())})
	}
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("anthropic-version") != "" { // the Messages API's clients
		writeJSON(w, http.StatusOK, wire.AnthropicModelsBody(s.models, s.now().UTC().Format(time.RFC3339)))
		return
	}
	writeJSON(w, http.StatusOK, wire.ModelsBody(s.cfg.Dialect, s.models, s.now().Unix()))
}

func (s *Server) serves(model string) bool {
	if s.anyModel {
		return true
	}
	for _, m := range s.models {
		if m == model {
			return true
		}
	}
	return false
}
