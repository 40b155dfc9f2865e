// Package refagent is lembas-check's reference agent (`lembas-check agent`): the harness spec's
// rules as an ACP agent on stdio, built on harness/* — the system prompt made once from the spec's
// prompts and numbered (harness/prefix), the tool list fixed for the session, the session note
// after the person's words, every tool result with its id, stubs, caps and diffs
// (harness/results), the one-level view over its directory with the spec's error texts
// (harness/fsaccess), the instruction chain from the project root (harness/instructions) — with
// any OpenAI-compatible chat completions endpoint as its model. It is what the live target
// (`run --live`) is proved on, and what a harness can be held against request by request.
// Break makes it wrong on purpose, so that a test can see the live target catch it.
package refagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/harness/workspace"
)

// Name is what the agent says it is in initialize.
const Name = "lembas-check agent"

// The faults Break may name: each breaks one rule of the spec, for the live target's tests.
const (
	// BreakDateInSystem puts today's date into the system prompt (against context.md §10 rules 1
	// and 2): the prompt changes when the date does.
	BreakDateInSystem = "date-in-system"
	// BreakNoStub never answers an unchanged re-read or a repeated listing with a stub (against
	// §2 and §6): every read is in full.
	BreakNoStub = "no-stub"
	// BreakNoteFirst puts the note before the person's words (against §10 rule 3).
	BreakNoteFirst = "note-first"
	// BreakNoContainment lets a serve's session read and write where a path really leads, outside
	// its root too (against seeds/002: local_fs "is sandboxed to it").
	BreakNoContainment = "no-containment"
	// BreakApprovalKeepsPlan leaves the session in plan mode when the person approves its plan
	// (against the approval setting the mode, prefix.json's `mode` from plan_submit's approval):
	// plan_submit then runs again where it is to answer its unavailable text.
	BreakApprovalKeepsPlan = "approval-keeps-plan"
	// BreakOwnMemoryNoted notes the model's own memory change as if the person had made it
	// (against §10 rule 3: a change the model made itself needs no note).
	BreakOwnMemoryNoted = "own-memory-noted"
	// BreakAboveRoot refuses a serve's read or write whose path climbs above / as an escape
	// (against filesystem.md, Paths: "`..` above `/` stays at `/`").
	BreakAboveRoot = "above-root"
	// BreakIDsHidden shows the client a tool result without its id bracket, its first line
	// (against context.md, Over the link: a client shows the ids as they are).
	BreakIDsHidden = "ids-hidden"
)

// Breaks are the faults Break may name.
var Breaks = []string{BreakDateInSystem, BreakNoStub, BreakNoteFirst, BreakNoContainment, BreakApprovalKeepsPlan,
	BreakOwnMemoryNoted, BreakAboveRoot, BreakIDsHidden}

// Options say what the agent talks to.
type Options struct {
	// BaseURL is the OpenAI-compatible base URL (…/v1), Key its API key, Model the model a session
	// starts on.
	BaseURL, Key, Model string
	// Version is said in initialize.
	Version string
	// Clock is the agent's clock; nil: EnvClock.
	Clock *Clock
	// Break names faults to make on purpose (Breaks).
	Break []string
	// HTTP is the client for the model; nil: one with a 10-minute timeout.
	HTTP *http.Client
}

// Agent is the ACP agent.
type Agent struct {
	o     Options
	conn  *sdk.AgentSideConnection
	model *model
	clock *Clock
	brk   map[string]bool
	ws    *workspace.Config // a serve's workspace roots (seeds/002), nil when it is not started as one

	mu     sync.Mutex
	show   bool // the client said _meta.lembas.show: it has a screen
	lembas bool
	// clientProtocol is the link protocol the client said (_meta.lembas.protocol; 1 when absent, or
	// once it answered _lembas/plan or _lembas/question with method-not-found).
	clientProtocol int
	sessions       map[string]*session
	next           int
}

// Serve speaks ACP on r and w until the client closes its end (or ctx ends).
func Serve(ctx context.Context, r io.Reader, w io.Writer, o Options) error {
	a, err := New(o)
	if err != nil {
		return err
	}
	// The connection reads as soon as it is made: a handler waits for it to be set (connection).
	a.mu.Lock()
	conn := sdk.NewAgentSideConnection(a, w, r)
	conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.conn = conn
	a.mu.Unlock()
	select {
	case <-conn.Done():
	case <-ctx.Done():
	}
	return nil
}

// New makes an agent, not yet connected (Serve connects it).
func New(o Options) (*Agent, error) {
	if o.BaseURL == "" {
		return nil, errors.New("no model: give the OpenAI-compatible base URL (OPENAI_BASE_URL, or --base-url)")
	}
	if o.Model == "" {
		o.Model = "fake-model"
	}
	a := &Agent{o: o, clock: o.Clock, brk: map[string]bool{}, sessions: map[string]*session{}, ws: serveRoots()}
	for _, b := range o.Break {
		known := false
		for _, k := range Breaks {
			known = known || k == b
		}
		if !known {
			return nil, fmt.Errorf("--break %q: no such fault (known: %v)", b, Breaks)
		}
		a.brk[b] = true
	}
	if a.clock == nil {
		a.clock = EnvClock()
	}
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Minute}
	}
	a.model = &model{base: o.BaseURL, key: o.Key, http: hc}
	return a, nil
}

func (a *Agent) broken(fault string) bool { return a.brk[fault] }

// connection is the client the agent serves.
func (a *Agent) connection() *sdk.AgentSideConnection {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.conn
}

// date is today in the person's zone, as the note says it.
func (a *Agent) date() string { return a.clock.Now().Format("2006-01-02") }

func (a *Agent) session(id sdk.SessionId) (*session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[string(id)]
	if !ok {
		return nil, sdk.NewInvalidParams(map[string]any{"sessionId": id, "error": "no such session"})
	}
	return s, nil
}

// Initialize says who the agent is; to a LLeMbas client (_meta.lembas), the link protocol and
// the capabilities it has (acp.md, Versions and discovery).
func (a *Agent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	resp := sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AuthMethods: []sdk.AuthMethod{},
		AgentInfo: &sdk.Implementation{Name: Name, Version: a.o.Version},
		AgentCapabilities: sdk.AgentCapabilities{LoadSession: a.ws != nil,
			SessionCapabilities: sdk.SessionCapabilities{Close: &sdk.SessionCloseCapabilities{}}}}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch l := p.ClientCapabilities.Meta["lembas"].(type) {
	case map[string]any:
		a.lembas = true
		a.show, _ = l["show"].(bool)
		n, _ := l["protocol"].(float64)
		a.clientProtocol = max(int(n), 1)
	case bool:
		a.lembas, a.clientProtocol = l, 1
	}
	if a.lembas {
		n, _ := strconv.Atoi(spec.Text("acp.protocol"))
		resp.Meta = map[string]any{"lembas": map[string]any{"protocol": n,
			"capabilities": []string{spec.Text("acp.capability.configure"),
				spec.Text("acp.capability.plan_state"), spec.Text("acp.capability.rewind")}}}
	}
	return resp, nil
}

// Authenticate needs nothing: the model's key comes from the environment.
func (a *Agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// NewSession opens a session in cwd, its boundary the project root above it.
func (a *Agent) NewSession(_ context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	if a.ws == nil && !filepath.IsAbs(p.Cwd) {
		return sdk.NewSessionResponse{}, sdk.NewInvalidParams(map[string]any{"cwd": p.Cwd,
			"error": "not an absolute path"})
	}
	a.mu.Lock()
	show := a.show
	a.mu.Unlock()
	var srv *workspace.Server
	if a.ws != nil {
		var root string
		var err error
		if srv, root, err = a.newServe(p.Cwd); err != nil {
			return sdk.NewSessionResponse{}, err
		}
		p.Cwd = filepath.FromSlash(root)
	}
	s := a.open("", filepath.Clean(p.Cwd), show)
	if srv != nil {
		s.ws, s.disk.root = srv, s.disk.cwd
	}
	modes := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(s.mode)}
	for _, m := range Modes {
		modes.AvailableModes = append(modes.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m), Name: m})
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(s.id), Modes: modes,
		ConfigOptions: rootPicker(srv, filepath.ToSlash(s.disk.cwd))}, nil
}

// open opens a session in cwd, its boundary the project root above it, under id ("": the next
// session-N): ACP's session/new and A2A's first message of a conversation.
func (a *Agent) open(id, cwd string, show bool) *session {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id == "" {
		a.next++
		id = fmt.Sprintf("session-%d", a.next)
	}
	s := &session{id: id, a: a, show: show, model: a.o.Model, mode: Modes[0], disk: disk{root: boundaryOf(cwd),
		cwd: cwd}}
	a.sessions[s.id] = s
	return s
}

// Prompt runs one turn.
func (a *Agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	var words string
	for _, b := range p.Prompt {
		if b.Text != nil {
			if words != "" {
				words += "\n"
			}
			words += b.Text.Text
		}
	}
	said, err := s.turn(ctx, words)
	if ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if errors.Is(err, errBusy) {
		return sdk.PromptResponse{}, sdk.NewInvalidParams(map[string]any{"sessionId": s.id, "error": err.Error()})
	}
	if err != nil {
		return sdk.PromptResponse{}, failed(err)
	}
	if said != "" {
		a.connection().SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId,
			Update: sdk.UpdateAgentMessageText(said)})
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// Cancel stops a session's running turn.
func (a *Agent) Cancel(_ context.Context, p sdk.CancelNotification) error {
	s, err := a.session(p.SessionId)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	return nil
}

// SetSessionMode is the person's mode change.
func (a *Agent) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	if err := s.setMode(string(p.ModeId)); err != nil {
		return sdk.SetSessionModeResponse{}, sdk.NewInvalidParams(map[string]any{"modeId": p.ModeId,
			"error": err.Error()})
	}
	return sdk.SetSessionModeResponse{}, nil
}

// CloseSession forgets a session.
func (a *Agent) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	a.mu.Lock()
	delete(a.sessions, string(p.SessionId))
	a.mu.Unlock()
	return sdk.CloseSessionResponse{}, nil
}

// ListSessions, ResumeSession and SetSessionConfigOption are not offered.
func (a *Agent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

func (a *Agent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

func (a *Agent) SetSessionConfigOption(_ context.Context,
	p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	if v := p.ValueId; v != nil && v.ConfigId == rootOption {
		s, err := a.session(v.SessionId)
		if err == nil && s.ws != nil {
			return sdk.SetSessionConfigOptionResponse{}, s.setRoot()
		}
	}
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// HandleExtensionMethod answers the _lembas/* methods of acp.md this agent has: configure (the
// model, and the person's settings the prompt is made from), session/compact, session/status,
// jobs, job/output and job/stop (the jobs that ended, as configure gave them), and steer.
func (a *Agent) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case spec.Text("acp.method.rewind"):
		return a.rewindMethod(params)
	case spec.Text("acp.method.steer"):
		return a.steer(params)
	case spec.Text("acp.method.configure"), spec.Text("acp.method.compact"), spec.Text("acp.method.status"):
	case spec.Text("acp.method.jobs"), spec.Text("acp.method.job_output"), spec.Text("acp.method.job_stop"):
		c, err := decodeConfigure(params)
		if err != nil {
			return nil, err
		}
		s, err := a.session(sdk.SessionId(c.SessionID))
		if err != nil {
			return nil, err
		}
		return s.jobMethod(method, params)
	default:
		return nil, sdk.NewMethodNotFound(method)
	}
	c, err := decodeConfigure(params)
	if err != nil {
		return nil, err
	}
	s, err := a.session(sdk.SessionId(c.SessionID))
	if err != nil {
		if method == spec.Text("acp.method.status") {
			return map[string]any{"sessionId": c.SessionID, "exists": false}, nil
		}
		return nil, err
	}
	switch method {
	case spec.Text("acp.method.configure"):
		return s.configure(c)
	case spec.Text("acp.method.compact"):
		summary, err := s.compact(ctx)
		if errors.Is(err, errBusy) {
			return nil, sdk.NewInvalidParams(map[string]any{"sessionId": s.id, "error": err.Error()})
		}
		if err != nil {
			return nil, failed(err)
		}
		return map[string]any{"summary": summary}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]any{"sessionId": s.id, "exists": true, "held": false, "busy": s.busy, "title": "",
		"queued": 0}, nil
}

// failed is an internal error that says what went wrong in its message, where a client shows it.
func failed(err error) error {
	return &sdk.RequestError{Code: -32603, Message: err.Error()}
}
