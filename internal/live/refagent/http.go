package refagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/live/a2a"
)

// Run is `lembas-check agent`: over ACP on stdin and stdout, or, with addr, an A2A server on
// addr (HOST:PORT; port 0 picks one), its address said on stderr as it listens.
func Run(ctx context.Context, addr string, stdin io.Reader, stdout, stderr io.Writer, o Options) error {
	if addr == "" {
		return Serve(ctx, stdin, stdout, o)
	}
	return ServeA2A(ctx, addr, o, func(url string) { fmt.Fprintf(stderr, "lembas-check agent: A2A on %s\n", url) })
}

// permit asks the person through the client (ACP's session/request_permission). Over A2A a turn
// has no way to ask in the middle of message/send, and the plan is taken as approved, as the
// live target's ACP client approves it.
func (a *Agent) permit(ctx context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	if c := a.connection(); c != nil {
		return c.RequestPermission(ctx, r)
	}
	first := &sdk.RequestPermissionOutcomeSelected{OptionId: r.Options[0].OptionId}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: first}}, nil
}

// update tells the client of a change (ACP's session/update); over A2A the answer says it.
func (a *Agent) update(ctx context.Context, n sdk.SessionNotification) {
	if c := a.connection(); c != nil {
		c.SessionUpdate(ctx, n)
	}
}

// ServeA2A serves the agent over A2A on addr until ctx ends; ready gets its URL once it listens.
// A conversation (its contextId) is a session, in the workspace its first message's metadata
// names (coderAgent.workspacePath, as the Gemini CLI's A2A server takes it), else the agent's
// working directory; each message is a task that ends with the turn.
func ServeA2A(ctx context.Context, addr string, o Options, ready func(url string)) error {
	ag, err := New(o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--http %s: %v", addr, err)
	}
	url := "http://" + ln.Addr().String()
	h := &a2aServer{a: ag, url: url + "/", tasks: map[string]*a2a.Task{}}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Minute}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	ready(url)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

type a2aServer struct {
	a     *Agent
	url   string
	mu    sync.Mutex
	n     int
	tasks map[string]*a2a.Task
}

func (h *a2aServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == a2a.CardPath:
		writeJSON(w, h.card())
	case r.Method == http.MethodPost && r.URL.Path == "/":
		h.rpc(w, r)
	default:
		http.Error(w, "lembas-check agent serves A2A: GET "+a2a.CardPath+", POST / (JSON-RPC)", http.StatusNotFound)
	}
}

func (h *a2aServer) card() a2a.Card {
	return a2a.Card{Name: Name, Description: "lembas-check's reference agent: the harness spec's rules, over A2A",
		URL:     h.url,
		Version: h.a.o.Version, ProtocolVersion: "0.3.0", PreferredTransport: "JSONRPC",
		Capabilities: a2a.Capabilities{Streaming: true, Extensions: []a2a.Extension{{URI: a2a.ExtLembas,
			Description: "_lembas/configure (mode, model) and _lembas/session/compact, sessionId the contextId"}}},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.Skill{{ID: "code", Name: "code", Description: "works in the files of its workspace",
			Tags: []string{"coding"}}}}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	b, _ := jsonx.Marshal(v)
	w.Write(b)
}

// rpc answers one JSON-RPC request.
func (h *a2aServer) rpc(w http.ResponseWriter, r *http.Request) {
	var q a2a.Request
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<20)).Decode(&q); err != nil {
		writeJSON(w, a2a.Response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &a2a.Error{Code: -32700,
			Message: err.Error()}})
		return
	}
	answer := func(res any, err error) {
		resp := a2a.Response{JSONRPC: "2.0", ID: q.ID}
		if err != nil {
			resp.Error = rpcError(err)
		} else {
			resp.Result, _ = jsonx.Marshal(res)
		}
		writeJSON(w, resp)
	}
	switch q.Method {
	case a2a.MethodSend:
		t, err := h.send(r.Context(), q.Params, nil)
		answer(t, err)
	case a2a.MethodStream:
		h.stream(w, r, q)
	case a2a.MethodGet:
		answer(h.get(q.Params))
	case spec.Text("acp.method.configure"):
		answer(h.configure(r.Context(), q.Params))
	case spec.Text("acp.method.compact"), spec.Text("acp.method.rewind"):
		answer(h.a.HandleExtensionMethod(r.Context(), q.Method, q.Params))
	default:
		answer(nil, &a2a.Error{Code: -32601, Message: "no method " + strconv.Quote(q.Method)})
	}
}

// rpcError is err as JSON-RPC says it: the ACP errors keep their codes.
func rpcError(err error) *a2a.Error {
	var ae *a2a.Error
	if errors.As(err, &ae) {
		return ae
	}
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return &a2a.Error{Code: re.Code, Message: re.Message}
	}
	return &a2a.Error{Code: -32603, Message: err.Error()}
}

// send runs the message's turn as a task of its conversation; emit, when streaming, gets the
// task as it starts.
func (h *a2aServer) send(ctx context.Context, raw json.RawMessage, emit func(any)) (*a2a.Task, error) {
	var p a2a.SendParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, &a2a.Error{Code: -32602, Message: err.Error()}
	}
	s, err := h.session(p.Message)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.n++
	t := &a2a.Task{Kind: "task", ID: fmt.Sprintf("task-%d", h.n), ContextID: s.id, Status: a2a.Status{State: "working"}}
	h.tasks[t.ID] = t
	h.mu.Unlock()
	if emit != nil {
		emit(*t)
	}
	said, err := s.turn(ctx, a2a.Text(p.Message.Parts))
	if errors.Is(err, errBusy) {
		return nil, &a2a.Error{Code: -32602, Message: err.Error()}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	state, words := "completed", said
	if err != nil {
		state, words = "failed", err.Error()
	}
	msg := &a2a.Message{Kind: "message", MessageID: t.ID + "-answer", Role: "agent", Parts: []a2a.Part{{Kind: "text",
		Text: words}}, ContextID: s.id, TaskID: t.ID}
	t.Status = a2a.Status{State: state, Message: msg}
	if err == nil {
		t.Artifacts = []a2a.Artifact{{ArtifactID: "answer", Parts: []a2a.Part{{Kind: "text", Text: said}}}}
	}
	return t, nil
}

// session is the message's conversation: the one its contextId names, or a new one (under the
// contextId the client chose, if any) in the workspace its metadata names.
func (h *a2aServer) session(m a2a.Message) (*session, error) {
	var meta struct {
		CoderAgent struct {
			WorkspacePath *string `json:"workspacePath"`
		} `json:"coderAgent"`
		Lembas struct {
			Show bool `json:"show"`
		} `json:"lembas"`
	}
	b, _ := json.Marshal(m.Metadata)
	json.Unmarshal(b, &meta)
	w := meta.CoderAgent.WorkspacePath
	if m.ContextID != "" {
		if s, err := h.a.session(sdk.SessionId(m.ContextID)); err == nil {
			return s, s.reopen(w)
		}
	}
	if h.a.ws != nil {
		return h.serveSession(m.ContextID, w, meta.Lembas.Show)
	}
	cwd, _ := os.Getwd()
	if w != nil && *w != "" {
		if !filepath.IsAbs(*w) {
			return nil, &a2a.Error{Code: -32602,
				Message: fmt.Sprintf("metadata.coderAgent.workspacePath %q: not an absolute path", *w)}
		}
		cwd = *w
	}
	return h.a.open(m.ContextID, filepath.Clean(cwd), meta.Lembas.Show), nil
}

// serveSession opens a conversation on a serve with workspace roots: its workspace, the
// session/new cwd of A2A, picked from the allowlist (none: the sentinel).
func (h *a2aServer) serveSession(id string, w *string, show bool) (*session, error) {
	cwd := ""
	if w != nil {
		cwd = *w
	}
	srv, root, err := h.a.newServe(cwd)
	if err != nil {
		return nil, a2aRefusal(err)
	}
	s := h.a.open(id, filepath.Clean(filepath.FromSlash(root)), show)
	s.ws, s.disk.root = srv, s.disk.cwd
	return s, nil
}

// reopen is a later message of a conversation on a serve that names a workspace: A2A's reload,
// held to the conversation's root as session/load is.
func (s *session) reopen(w *string) error {
	if s.ws == nil || w == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.ws.Load(w); err != nil {
		return a2aRefusal(refusal(err))
	}
	return nil
}

// a2aRefusal is a refusal as an A2A JSON-RPC error.
func a2aRefusal(err error) error {
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return &a2a.Error{Code: re.Code, Message: re.Message}
	}
	return err
}

func (h *a2aServer) get(raw json.RawMessage) (*a2a.Task, error) {
	var p struct {
		ID string `json:"id"`
	}
	json.Unmarshal(raw, &p)
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.tasks[p.ID]
	if !ok {
		return nil, &a2a.Error{Code: -32001, Message: "no task " + strconv.Quote(p.ID)}
	}
	c := *t
	return &c, nil
}

// stream is message/stream: the task as it starts, its answer as an artifact, then its final
// status, each an SSE event holding a JSON-RPC response.
func (h *a2aServer) stream(w http.ResponseWriter, r *http.Request, q a2a.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	event := func(res any, e *a2a.Error) {
		resp := a2a.Response{JSONRPC: "2.0", ID: q.ID, Error: e}
		if e == nil {
			resp.Result, _ = jsonx.Marshal(res)
		}
		b, _ := jsonx.Marshal(resp)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	t, err := h.send(r.Context(), q.Params, func(t any) { event(t, nil) })
	if err != nil {
		event(nil, rpcError(err))
		return
	}
	for _, a := range t.Artifacts {
		event(a2a.Event{Kind: "artifact-update", TaskID: t.ID, ContextID: t.ContextID, Artifact: &a}, nil)
	}
	event(a2a.Event{Kind: "status-update", TaskID: t.ID, ContextID: t.ContextID, Status: &t.Status, Final: true}, nil)
}

// configure is _lembas/configure over A2A: a mode (ACP's session/set_mode, which A2A has not),
// then the rest as the ACP side takes it.
func (h *a2aServer) configure(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		SessionID string         `json:"sessionId"`
		Mode      string         `json:"mode"`
		Metadata  map[string]any `json:"metadata"`
		Root      *string        `json:"root"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, &a2a.Error{Code: -32602, Message: err.Error()}
	}
	// A conversation configured before its first message is opened here, in the workspace its
	// metadata names, as that message would have opened it.
	s, err := h.session(a2a.Message{ContextID: p.SessionID, Metadata: p.Metadata})
	if err != nil {
		return nil, err
	}
	if p.Mode != "" {
		if err := s.setMode(p.Mode); err != nil {
			return nil, &a2a.Error{Code: -32602, Message: err.Error()}
		}
	}
	if p.Root != nil && s.ws != nil {
		// A2A has no config options: the workspace root's set_config_option is configure's root.
		return nil, a2aRefusal(s.setRoot())
	}
	out, err := h.a.HandleExtensionMethod(ctx, spec.Text("acp.method.configure"), raw)
	if m, ok := out.(map[string]any); ok && s.ws != nil {
		m["roots"] = s.ws.Options() // the workspace-root picker, null where none is offered
	}
	return out, err
}
