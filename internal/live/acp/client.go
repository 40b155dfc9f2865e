// Package acp is lembas-check's client of the Agent Client Protocol: JSON-RPC 2.0 over an agent's
// stdio, one message a line. It plays the editor for a live session: initialize (declaring that
// it reads and writes files, and, to a LLeMbas agent, _meta.lembas.protocol), session/new in the
// scenario's directory, session/prompt, the agent's session/update notifications, its
// session/request_permission answered by a policy, fs/read_text_file and fs/write_text_file served
// inside the session directory only, the mode change, and the _lembas/* methods of acp.md where
// the agent advertises them. Every call has a timeout; an agent that dies, hangs, sends a line
// that is not a JSON-RPC message or asks for a file outside its directory ends the session with a
// Fault that says which. The wire and its types are github.com/coder/acp-go-sdk's (docs/design.md).
package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/syncbuf"
)

// Options tune a client.
type Options struct {
	// Dir is the session directory: the only place the agent's file requests are served.
	Dir string
	// Timeout bounds every call but a prompt (default 60 s); PromptTimeout a prompt (default 5 min).
	Timeout, PromptTimeout time.Duration
	// After is the clock those bounds are kept by: a channel that delivers once d has passed
	// (nil: time.After). A test gives one that fires on its cue, so that no verdict depends on
	// how fast the machine is.
	After func(d time.Duration) <-chan time.Time
	// Reject answers every permission request with its reject option instead of allowing once.
	Reject bool
	// Lembas says _meta.lembas {protocol: 3} in initialize, as a LLeMbas client does; with Show,
	// also show: true (the client has a screen, so `display` can be met: acp.md, initialize).
	Lembas, Show bool
	// Transcript, when set, gets every line each way: "> " sent, "< " received.
	Transcript io.Writer
}

// Client is a connection to one agent.
type Client struct {
	o    Options
	conn *sdk.ClientSideConnection
	in   *guard
	out  *tee

	faultOnce sync.Once
	fault     error
	faulted   chan struct{}

	mu          sync.Mutex
	info        Info
	text        map[string]*strings.Builder
	modes       map[string]string
	shown       map[string][]Shown // each session's tool-call texts, as the client would show them
	permissions []Permission
	files       []FileRequest
	plans       map[string]PlanAnswer // how each session's plans are answered (AnswerPlans)
	asked       []Asked               // the _lembas/plan and _lembas/question requests (ext.go)
}

// Info is what the agent said of itself in initialize.
type Info struct {
	Name, Version string
	// Lembas: the agent answered with _meta.lembas (a LLeMbas agent); Protocol and
	// Capabilities are what it said there.
	Lembas       bool
	Protocol     int
	Capabilities []string
	LoadSession  bool
	// CloseSession: the agent can close a session (sessionCapabilities.close).
	CloseSession bool
}

// Session is a session the agent opened.
type Session struct {
	ID string
	// Modes are the modes the agent offers (session/set_mode), CurrentMode the one it is in;
	// ModeOption is the config option of category "mode" where the agent offers modes that way
	// (opencode) instead.
	Modes       []string
	CurrentMode string
	ModeOption  string
	// Models are the models it offers (unstable session/set_model), or a "model" config option.
	Models      []string
	ModelOption string
	// Selects are the values of each select config option it offers, by the option's id (a
	// serve's workspace-root picker among them).
	Selects map[string][]string
}

// Permission is one permission request the agent made, and how it was answered.
type Permission struct {
	Title, Kind, Answer string
}

// Shown is one text block of a tool call's content (session/update tool_call or
// tool_call_update): what a client showing the transcript shows of the call.
type Shown struct {
	ToolCallID, Text string
}

// FileRequest is one fs/* request the agent made.
type FileRequest struct {
	Method, Path string
	Refused      string
}

// New speaks ACP to an agent through its standard input (w) and output (r).
func New(w io.Writer, r io.Reader, o Options) *Client {
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	if o.PromptTimeout == 0 {
		o.PromptTimeout = 5 * time.Minute
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Transcript != nil {
		// The reading and the writing side write it at once.
		o.Transcript = syncbuf.NewWriter(o.Transcript)
	}
	c := &Client{o: o, faulted: make(chan struct{}), text: map[string]*strings.Builder{}, modes: map[string]string{},
		shown: map[string][]Shown{}}
	c.in = &guard{r: r, transcript: o.Transcript, onFault: c.setFault, ready: make(chan struct{})}
	// What the client sends goes through tee: into the transcript, and a write that fails (the
	// agent exited, its input is closed) is the agent's death, not an error of the call.
	c.out = &tee{w: w, t: o.Transcript}
	c.conn = sdk.NewClientSideConnection(handler{c}, c.out, c.in)
	// The SDK's own diagnostics (a line it could not use) are the guard's to report.
	c.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	close(c.in.ready)
	return c
}

// Kind is what went wrong with an agent.
type Kind string

const (
	Malformed Kind = "malformed message"
	Died      Kind = "died"
	Hung      Kind = "timeout"
	Outside   Kind = "outside its directory"
)

// Fault is an agent that broke the session: it sent a line that is not a JSON-RPC message, closed
// its output, did not answer in time, or asked for a file outside its directory.
type Fault struct {
	Kind   Kind
	Detail string
}

func (f *Fault) Error() string { return fmt.Sprintf("%s: %s", f.Kind, f.Detail) }

// CallError is the agent's JSON-RPC error answer to a call.
type CallError struct {
	Method  string
	Code    int
	Message string
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s: the agent answered error %d: %s", e.Method, e.Code, e.Message)
}

func (c *Client) setFault(f *Fault) {
	c.faultOnce.Do(func() {
		c.fault = f
		close(c.faulted)
	})
}

// Fault is the first fault of the agent, or nil.
func (c *Client) Fault() error {
	select {
	case <-c.faulted:
		return c.fault
	default:
		return nil
	}
}

// Done is closed once the agent has closed its output.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }

// call runs one call within d, ended early by a fault, and says what went wrong in the words of
// this package: a Fault, a CallError, or the context's own end.
func (c *Client) call(ctx context.Context, method string, d time.Duration, f func(context.Context) error) error {
	if err := c.Fault(); err != nil {
		return err
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timeout := c.o.After(d)
	go func() {
		select {
		case <-timeout:
			cancel(errNoAnswer)
		case <-cctx.Done():
		}
	}()
	stop := context.AfterFunc(faultContext{c}, func() { cancel(nil) })
	defer stop()
	err := f(cctx)
	if err == nil {
		return nil
	}
	if ferr := c.Fault(); ferr != nil {
		return ferr
	}
	if werr := c.out.failed(); werr != nil {
		// Its input is closed: it is gone, or going. What it wrote before it went (a line that
		// is no message) is the better verdict, so its output is read to the end first.
		select {
		case <-c.conn.Done():
		case <-cctx.Done():
		}
		if ferr := c.Fault(); ferr != nil {
			return ferr
		}
		c.setFault(&Fault{Kind: Died, Detail: fmt.Sprintf("the agent's input is closed (it exited?): %v", werr)})
		return c.fault
	}
	select {
	case <-c.conn.Done():
		c.setFault(&Fault{Kind: Died, Detail: fmt.Sprintf("the agent closed its output before answering %s", method)})
		return c.fault
	default:
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(context.Cause(cctx), errNoAnswer) {
		c.setFault(&Fault{Kind: Hung, Detail: fmt.Sprintf("%s had no answer within %v", method, d)})
		return c.fault
	}
	var re *sdk.RequestError
	if errors.As(err, &re) {
		return &CallError{Method: method, Code: re.Code, Message: re.Message}
	}
	return fmt.Errorf("%s: %v", method, err)
}

// errNoAnswer ends a call its bound passed.
var errNoAnswer = errors.New("no answer in time")

// faultContext is a context done when the client faults, for context.AfterFunc.
type faultContext struct{ c *Client }

func (f faultContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (f faultContext) Done() <-chan struct{}       { return f.c.faulted }
func (f faultContext) Err() error {
	if f.c.Fault() != nil {
		return context.Canceled
	}
	return nil
}
func (f faultContext) Value(any) any { return nil }

// Initialize says who the client is and what it can do, and reads what the agent can.
func (c *Client) Initialize(ctx context.Context, version string) (Info, error) {
	req := sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientInfo:      &sdk.Implementation{Name: "lembas-check", Version: version},
		ClientCapabilities: sdk.ClientCapabilities{
			Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
		},
	}
	if c.o.Lembas {
		l := map[string]any{"protocol": Protocol()}
		if c.o.Show {
			l["show"] = true
		}
		req.ClientCapabilities.Meta = map[string]any{"lembas": l}
	}
	var resp sdk.InitializeResponse
	err := c.call(ctx, "initialize", c.o.Timeout, func(ctx context.Context) (err error) {
		resp, err = c.conn.Initialize(ctx, req)
		return err
	})
	if err != nil {
		return Info{}, err
	}
	info := Info{LoadSession: resp.AgentCapabilities.LoadSession,
		CloseSession: resp.AgentCapabilities.SessionCapabilities.Close != nil}
	if resp.AgentInfo != nil {
		info.Name, info.Version = resp.AgentInfo.Name, resp.AgentInfo.Version
	}
	if l, ok := resp.Meta["lembas"].(map[string]any); ok {
		info.Lembas = true
		if p, ok := l["protocol"].(float64); ok {
			info.Protocol = int(p)
		}
		if cs, ok := l["capabilities"].([]any); ok {
			for _, x := range cs {
				if s, ok := x.(string); ok {
					info.Capabilities = append(info.Capabilities, s)
				}
			}
		}
	}
	c.mu.Lock()
	c.info = info
	c.mu.Unlock()
	return info, nil
}

// Protocol is the LLeMbas link protocol a client says (acp.md, Versions).
func Protocol() int {
	n, err := strconv.Atoi(spec.Text("acp.protocol"))
	if err != nil {
		panic("harness/spec/extra/acp.json: acp.protocol is not a number")
	}
	return n
}

// NewSession opens a session in the client's directory.
func (c *Client) NewSession(ctx context.Context) (Session, error) {
	return c.NewSessionIn(ctx, c.o.Dir)
}

// NewSessionIn opens a session whose working directory is cwd, a directory inside the client's
// (where its file requests are served): the live target opens one per case on one agent.
func (c *Client) NewSessionIn(ctx context.Context, cwd string) (Session, error) {
	var resp sdk.NewSessionResponse
	err := c.call(ctx, "session/new", c.o.Timeout, func(ctx context.Context) (err error) {
		resp, err = c.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
		return err
	})
	if err != nil {
		return Session{}, err
	}
	s := Session{ID: string(resp.SessionId)}
	if resp.Modes != nil {
		s.CurrentMode = string(resp.Modes.CurrentModeId)
		for _, m := range resp.Modes.AvailableModes {
			s.Modes = append(s.Modes, string(m.Id))
		}
	}
	if resp.Models != nil {
		for _, m := range resp.Models.AvailableModels {
			s.Models = append(s.Models, string(m.ModelId))
		}
	}
	for _, o := range resp.ConfigOptions {
		sel := o.Select
		if sel == nil {
			continue
		}
		var values []string
		if u := sel.Options.Ungrouped; u != nil {
			for _, v := range *u {
				values = append(values, string(v.Value))
			}
		}
		if s.Selects == nil {
			s.Selects = map[string][]string{}
		}
		s.Selects[string(sel.Id)] = values
		if sel.Category == nil {
			continue
		}
		switch *sel.Category {
		case sdk.SessionConfigOptionCategoryMode:
			s.ModeOption = string(sel.Id)
			if len(s.Modes) == 0 {
				s.Modes, s.CurrentMode = values, string(sel.CurrentValue)
			}
		case sdk.SessionConfigOptionCategoryModel:
			s.ModelOption = string(sel.Id)
			if len(s.Models) == 0 {
				s.Models = values
			}
		}
	}
	c.mu.Lock()
	c.modes[s.ID] = s.CurrentMode
	c.mu.Unlock()
	return s, nil
}

// LoadSession loads a session the agent holds, in cwd (session/load), where it said it can.
func (c *Client) LoadSession(ctx context.Context, sessionID, cwd string) error {
	return c.call(ctx, "session/load", c.o.Timeout, func(ctx context.Context) error {
		_, err := c.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(sessionID), Cwd: cwd,
			McpServers: []sdk.McpServer{}})
		return err
	})
}

// SetOption sets a session's config option to a value (session/set_config_option).
func (c *Client) SetOption(ctx context.Context, sessionID, option, value string) error {
	return c.setOption(ctx, sessionID, option, value)
}

// CloseSession closes a session, where the agent said it can (Info.CloseSession): it frees what
// the session holds.
func (c *Client) CloseSession(ctx context.Context, sessionID string) error {
	return c.call(ctx, "session/close", c.o.Timeout, func(ctx context.Context) error {
		_, err := c.conn.CloseSession(ctx, sdk.CloseSessionRequest{SessionId: sdk.SessionId(sessionID)})
		return err
	})
}

// Prompt sends the person's words and waits for the turn to end; it returns why it ended and
// the text the agent wrote during it.
func (c *Client) Prompt(ctx context.Context, sessionID, text string) (stop, said string, err error) {
	c.mu.Lock()
	c.text[sessionID] = &strings.Builder{}
	c.mu.Unlock()
	var resp sdk.PromptResponse
	err = c.call(ctx, "session/prompt", c.o.PromptTimeout, func(ctx context.Context) (err error) {
		resp, err = c.conn.Prompt(ctx, sdk.PromptRequest{SessionId: sdk.SessionId(sessionID),
			Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
		return err
	})
	c.mu.Lock()
	said = c.text[sessionID].String()
	c.mu.Unlock()
	return string(resp.StopReason), said, err
}

// SetMode changes the session's mode: session/set_mode where the agent offers modes, else its
// mode config option.
func (c *Client) SetMode(ctx context.Context, s Session, mode string) error {
	if s.ModeOption != "" && len(s.Modes) > 0 {
		return c.setOption(ctx, s.ID, s.ModeOption, mode)
	}
	if len(s.Modes) == 0 {
		return &Unsupported{What: "a mode change", Why: "the agent offers no modes"}
	}
	err := c.call(ctx, "session/set_mode", c.o.Timeout, func(ctx context.Context) error {
		_, err := c.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sdk.SessionId(s.ID),
			ModeId: sdk.SessionModeId(mode)})
		return err
	})
	if err == nil {
		c.mu.Lock()
		c.modes[s.ID] = mode
		c.mu.Unlock()
	}
	return err
}

func (c *Client) setOption(ctx context.Context, sessionID, option, value string) error {
	return c.call(ctx, "session/set_config_option", c.o.Timeout, func(ctx context.Context) error {
		_, err := c.conn.SetSessionConfigOption(ctx,
			sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
				SessionId: sdk.SessionId(sessionID), ConfigId: sdk.SessionConfigId(option),
				Value: sdk.SessionConfigValueId(value)}})
		return err
	})
}

// Unsupported is a step the agent offers no way to make.
type Unsupported struct{ What, Why string }

func (e *Unsupported) Error() string { return e.What + ": " + e.Why }

// has says whether a LLeMbas agent advertised a capability.
func (c *Client) has(capability string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range c.info.Capabilities {
		if x == capability {
			return true
		}
	}
	return false
}

func (c *Client) lembas() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info.Lembas
}

// SetModel moves the session to another model: _lembas/configure where the agent advertises
// it, else its model config option, else the (unstable) session/set_model.
func (c *Client) SetModel(ctx context.Context, s Session, model string) error {
	switch {
	case c.has(spec.Text("acp.capability.configure")):
		_, err := c.extension(ctx, spec.Text("acp.method.configure"), map[string]any{"sessionId": s.ID, "model": model})
		return err
	case s.ModelOption != "":
		return c.setOption(ctx, s.ID, s.ModelOption, model)
	case len(s.Models) > 0:
		return c.call(ctx, "session/set_model", c.o.Timeout, func(ctx context.Context) error {
			_, err := c.conn.UnstableSetSessionModel(ctx,
				sdk.UnstableSetSessionModelRequest{SessionId: sdk.SessionId(s.ID), ModelId: sdk.UnstableModelId(model)})
			return err
		})
	}
	return &Unsupported{What: "a model change", Why: "the agent offers no models and no _lembas/configure"}
}

// Configure sends a LLeMbas agent's _lembas/configure with the person's settings (`mode`,
// `plan`, `memory`, `personality`, `mcp`, as refagent reads them; docs/live.md, The LLeMbas
// extensions): Unsupported where the agent does not advertise the configure capability.
func (c *Client) Configure(ctx context.Context, s Session, settings map[string]any) error {
	if !c.has(spec.Text("acp.capability.configure")) {
		return &Unsupported{What: "a change of the session's settings",
			Why: "the agent does not advertise _lembas/configure (capability configure in its initialize answer's " +
				"_meta.lembas)"}
	}
	params := map[string]any{"sessionId": s.ID}
	for k, v := range settings {
		params[k] = v
	}
	_, err := c.extension(ctx, spec.Text("acp.method.configure"), params)
	return err
}

// Compact asks a LLeMbas agent to compact the session (_lembas/session/compact) and returns
// the summary.
func (c *Client) Compact(ctx context.Context, s Session) (string, error) {
	if !c.lembas() {
		return "", &Unsupported{What: "a compaction",
			Why: "the agent is not a LLeMbas agent (no _meta.lembas in its initialize answer), so it offers no " +
				"_lembas/session/compact"}
	}
	raw, err := c.extension(ctx, spec.Text("acp.method.compact"), map[string]any{"sessionId": s.ID})
	if err != nil {
		return "", err
	}
	var r struct {
		Summary string `json:"summary"`
	}
	json.Unmarshal(raw, &r)
	return r.Summary, nil
}

// Status is a LLeMbas agent's _lembas/session/status answer.
func (c *Client) Status(ctx context.Context, s Session) (json.RawMessage, error) {
	if !c.lembas() {
		return nil, &Unsupported{What: "the session's status", Why: "the agent is not a LLeMbas agent"}
	}
	return c.extension(ctx, spec.Text("acp.method.status"), map[string]any{"sessionId": s.ID})
}

func (c *Client) extension(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var raw json.RawMessage
	err := c.call(ctx, method, c.o.Timeout, func(ctx context.Context) (err error) {
		raw, err = c.conn.CallExtension(ctx, method, params)
		return err
	})
	return raw, err
}

// Mode is the session's mode as the agent last said it.
func (c *Client) Mode(sessionID string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.modes[sessionID]
}

// Permissions are the permission requests the agent made, in order.
func (c *Client) Permissions() []Permission {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Permission(nil), c.permissions...)
}

// Files are the fs/* requests the agent made, in order.
func (c *Client) Files() []FileRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]FileRequest(nil), c.files...)
}

// Shown are the text blocks of the session's tool calls, in the order the agent sent them.
func (c *Client) Shown(sessionID string) []Shown {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Shown(nil), c.shown[sessionID]...)
}
