package fakeprovider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// The endpoints of the providers whose own APIs the fake speaks beside OpenAI's: Anthropic's
// Messages API and Gemini's generateContent, each with its provider's prompt cache rules.

// providerCaches are the fake's simulated caches of those providers, sharing the slot cache's
// tokenizer.
type providerCaches struct {
	anthropic *cachesim.Breakpoints
	gemini    *cachesim.Implicit
	tok       *tokens.Tiktoken
}

func (p *providerCaches) init(tok *tokens.Tiktoken) error {
	var err error
	p.tok = tok
	if p.anthropic, err = cachesim.NewBreakpoints(tok); err != nil {
		return err
	}
	p.gemini, err = cachesim.NewImplicit(cachesim.ProviderGemini, 0, tok)
	return err
}

func (s *Server) providerRoutes(mux *routeMux) {
	for _, p := range []string{"/v1", ""} {
		mux.HandleFunc("POST "+p+"/messages", s.handleMessages)
		mux.HandleFunc("POST "+p+"/messages/count_tokens", s.handleCountTokens)
	}
	for _, p := range []string{"/v1beta", "/v1"} {
		mux.HandleFunc("POST "+p+"/models/{call}", s.handleGemini)
	}
	mux.HandleFunc("GET /v1beta/models", s.handleGeminiModels)
}

// anthropicError writes an error in the Messages API's shape, its request_id also in the
// request-id header, as the API sends it and the SDKs read it.
func (s *Server) anthropicError(w http.ResponseWriter, e *wire.Error, n int) {
	id := anthropicRequestID(n)
	w.Header().Set("request-id", id)
	writeJSON(w, e.Status, e.AnthropicBody(id))
}

// readOr413 reads the body, answering a body over the limit; ok is false when nothing more is
// to be done.
func (s *Server) readOr413(w http.ResponseWriter, r *http.Request, tooLarge func(*wire.Error)) ([]byte, bool) {
	body, err := s.readBody(w, r)
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			tooLarge(wire.TooLarge(s.maxBody))
			return nil, false
		}
		fail(r.Context(), "the client hung up while sending its request: %v", err)
		return nil, false
	}
	return body, true
}

// pickFor picks and shapes the answer to a decoded request, as the OpenAI endpoints do.
func (s *Server) pickFor(ctx context.Context, req *wire.Request, body []byte) (script.Pick, wire.Answer, *wire.Error) {
	pick, err := s.pick(req, body)
	if err != nil {
		fail(ctx, "%v", err)
		code := "script_ran_out"
		var nr *script.NoReadTool
		if errors.As(err, &nr) {
			code = "no_read_tool"
		}
		return pick, wire.Answer{}, &wire.Error{Status: http.StatusInternalServerError, Type: wire.TypeServer,
			Code: code, Message: err.Error()}
	}
	if pick.Warning != "" {
		s.logf("%s", pick.Warning)
	}
	a, notes := s.picker.Obey(req, pick, s.count)
	if len(notes) > 0 {
		note(ctx, "%s", strings.Join(notes, "; "))
	}
	return pick, a, nil
}

// completion counts an answer's tokens.
func (s *Server) completion(a wire.Answer) int {
	n := s.count(a.Text) + s.count(a.Reasoning)
	for _, c := range a.ToolCalls {
		n += s.count(c.Name) + s.count(c.Arguments)
	}
	return n
}

func (s *Server) account(prompt, cached, completion int) {
	s.metrics.tokens(prompt, cached, completion)
	s.tokensIn.Add(int64(prompt))
	s.tokensOut.Add(int64(completion))
}

// handleMessages answers POST /v1/messages (?beta=true too): a Message, or its event stream, with
// usage from Anthropic's cache rules.
func (s *Server) handleMessages(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	n := requestNumber(ctx)
	body, ok := s.readOr413(w, r, func(e *wire.Error) { s.anthropicError(w, e, n) })
	if !ok {
		return
	}
	req, e := wire.DecodeAnthropic(body)
	if e != nil {
		s.anthropicError(w, e, n)
		return
	}
	if !s.serves(req.Model) {
		s.anthropicError(w, &wire.Error{Status: http.StatusNotFound, Message: "model: " + req.Model}, n)
		return
	}
	pick, a, e := s.pickFor(ctx, req, body)
	if e != nil {
		s.anthropicError(w, e, n)
		return
	}
	rep, f := pick.Reply, pick.Reply.Fault
	if !s.delayOrFault(ctx, w, pick, req.Model, req.Stream, func(e *wire.Error) { s.anthropicError(w, e, n) }) {
		return
	}
	sv, err := s.providers.anthropic.Serve(body, r.Header, s.now())
	if err != nil {
		fail(ctx, "the cache simulator could not read the request (%v); usage counts its words instead", err)
		sv = cachesim.Served{PromptTokens: wire.CountWords(string(body))}
		sv.Input = sv.PromptTokens
	}
	u := wire.MessagesUsage{Input: sv.Input, CacheRead: sv.Read, CacheWrite5m: sv.Written5m, CacheWrite1h: sv.Written1h,
		Output:   s.completion(a),
		Thinking: s.count(a.Reasoning)}
	s.account(sv.PromptTokens, sv.Read, u.Output)
	m := wire.Meta{ID: fmt.Sprintf("fake%d", pick.N), Created: s.now().Unix(), Model: req.Model}
	w.Header().Set("request-id", anthropicRequestID(n))
	if !req.Stream {
		s.sendBody(w, r, wire.MessagesBody(m, a, u), f, pick)
		return
	}
	s.sendStream(w, r, wire.MessagesStream(m, a, u), rep, pick)
}

// handleCountTokens answers POST /v1/messages/count_tokens: the prompt's length, as the simulator
// counts it.
func (s *Server) handleCountTokens(w http.ResponseWriter, r *http.Request) {
	n := requestNumber(r.Context())
	body, ok := s.readOr413(w, r, func(e *wire.Error) { s.anthropicError(w, e, n) })
	if !ok {
		return
	}
	cr, err := chat.ParseAs(body, chat.Anthropic)
	if err != nil {
		s.anthropicError(w, &wire.Error{Status: http.StatusBadRequest,
			Message: "The request body is not a Messages request: " + err.Error()}, n)
		return
	}
	if !s.serves(cr.Model) {
		s.anthropicError(w, &wire.Error{Status: http.StatusNotFound, Message: "model: " + cr.Model}, n)
		return
	}
	writeJSON(w, http.StatusOK, wire.CountTokensBody(s.providers.tok.Of(cr).N))
}

// geminiError writes an error in Gemini's shape.
func geminiError(w http.ResponseWriter, e *wire.Error) { writeJSON(w, e.Status, e.GeminiBody()) }

func (s *Server) handleGeminiModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, wire.GeminiModelsBody(s.models))
}

// handleGemini answers POST /v1beta/models/{model}:generateContent, :streamGenerateContent
// (?alt=sse) and :countTokens, with cachedContentTokenCount from Gemini's implicit cache rules.
func (s *Server) handleGemini(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	body, ok := s.readOr413(w, r, func(e *wire.Error) { geminiError(w, e) })
	if !ok {
		return
	}
	switch method {
	case "generateContent", "streamGenerateContent", "countTokens":
	default:
		geminiError(w, &wire.Error{Status: http.StatusNotFound,
			Message: fmt.Sprintf("Method %q of models/%s is not served here: this fake serves generateContent, "+
				"streamGenerateContent and countTokens.", method, model)})
		return
	}
	if !s.serves(model) {
		geminiError(w, &wire.Error{Status: http.StatusNotFound,
			Message: fmt.Sprintf("models/%s is not found for API version v1beta, or is not supported for "+
				"generateContent. This server serves %s.", model, strings.Join(s.models, ", "))})
		return
	}
	if method == "countTokens" {
		cr, err := chat.ParseAs(body, chat.Gemini)
		if err != nil {
			// countTokens also takes {"generateContentRequest": {…}}
			if st, en, ok := chat.Member(body, "generateContentRequest"); ok {
				cr, err = chat.ParseAs(body[st:en], chat.Gemini)
			}
		}
		if err != nil {
			geminiError(w, &wire.Error{Status: http.StatusBadRequest,
				Message: "Invalid countTokens request: " + err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, wire.GeminiCountBody(s.providers.tok.Of(cr).N))
		return
	}
	stream := method == "streamGenerateContent"
	req, e := wire.DecodeGemini(body, model, stream)
	if e != nil {
		geminiError(w, e)
		return
	}
	pick, a, e := s.pickFor(ctx, req, body)
	if e != nil {
		geminiError(w, e)
		return
	}
	rep, f := pick.Reply, pick.Reply.Fault
	if !s.delayOrFault(ctx, w, pick, req.Model, stream, func(e *wire.Error) { geminiError(w, e) }) {
		return
	}
	sv, err := s.providers.gemini.Serve(r.URL.Path, body, s.now())
	if err != nil {
		fail(ctx, "the cache simulator could not read the request (%v); usage counts its words instead", err)
		sv = cachesim.Served{PromptTokens: wire.CountWords(string(body))}
	}
	u := wire.GeminiUsage{Prompt: sv.PromptTokens, Cached: sv.Read, Thoughts: s.count(a.Reasoning)}
	u.Candidates = s.completion(a) - u.Thoughts
	s.account(sv.PromptTokens, sv.Read, u.Candidates+u.Thoughts)
	m := wire.Meta{ID: fmt.Sprintf("fake%d", pick.N), Created: s.now().Unix(), Model: req.Model}
	if !stream {
		s.sendBody(w, r, wire.GeminiBody(m, a, u), f, pick)
		return
	}
	s.sendStream(w, r, wire.GeminiStream(m, a, u), rep, pick)
}

// streamError is an error as each API sends one in the middle of a stream: Anthropic's
// `event: error`, Gemini's and chat completions' error object as a data event, the Responses API's
// `error` event.
func streamError(r *http.Request, e *wire.Error) []byte {
	switch chat.APIOf(r.URL.Path) {
	case chat.Anthropic:
		return e.AnthropicErrorEvent()
	case chat.Gemini:
		return wire.GeminiEvent(e.GeminiBody())
	case chat.Responses:
		b, _ := jsonx.Marshal(map[string]any{"type": "error", "code": e.Code, "message": e.Message, "param": nil})
		return wire.Event("error", b)
	}
	return wire.Event("", e.Body())
}
