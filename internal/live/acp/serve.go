package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// handler answers what the agent asks of the client.
type handler struct{ c *Client }

// SessionUpdate keeps what the person would see: the agent's text, its mode, and the text its
// tool calls show.
func (h handler) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c := h.c
	c.mu.Lock()
	defer c.mu.Unlock()
	id := string(n.SessionId)
	switch u := n.Update; {
	case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
		if b := c.text[id]; b != nil {
			b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	case u.CurrentModeUpdate != nil:
		c.modes[id] = string(u.CurrentModeUpdate.CurrentModeId)
	case u.ToolCall != nil:
		c.keepShown(id, string(u.ToolCall.ToolCallId), u.ToolCall.Content)
	case u.ToolCallUpdate != nil:
		c.keepShown(id, string(u.ToolCallUpdate.ToolCallId), u.ToolCallUpdate.Content)
	}
	return nil
}

// keepShown keeps each text block of a tool call's content. Called with mu held.
func (c *Client) keepShown(session, call string, content []sdk.ToolCallContent) {
	for _, b := range content {
		if b.Content != nil && b.Content.Content.Text != nil {
			c.shown[session] = append(c.shown[session], Shown{ToolCallID: call, Text: b.Content.Content.Text.Text})
		}
	}
}

// RequestPermission answers with the policy: allow once (else allow always, else the first
// option), or with Reject, reject once (else reject always).
func (h handler) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse,
	error) {
	want := []sdk.PermissionOptionKind{sdk.PermissionOptionKindAllowOnce, sdk.PermissionOptionKindAllowAlways}
	if h.c.o.Reject {
		want = []sdk.PermissionOptionKind{sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways}
	}
	var pick *sdk.PermissionOption
	for _, k := range want {
		for i := range p.Options {
			if pick == nil && p.Options[i].Kind == k {
				pick = &p.Options[i]
			}
		}
	}
	if pick == nil && len(p.Options) > 0 && !h.c.o.Reject {
		pick = &p.Options[0]
	}
	rec := Permission{}
	if p.ToolCall.Title != nil {
		rec.Title = *p.ToolCall.Title
	}
	if p.ToolCall.Kind != nil {
		rec.Kind = string(*p.ToolCall.Kind)
	}
	var resp sdk.RequestPermissionResponse
	if pick == nil {
		rec.Answer = "cancelled"
		resp.Outcome = sdk.RequestPermissionOutcome{
			Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"},
		}
	} else {
		rec.Answer = string(pick.Kind)
		resp.Outcome = sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{Outcome: "selected",
			OptionId: pick.OptionId}}
	}
	h.c.mu.Lock()
	h.c.permissions = append(h.c.permissions, rec)
	h.c.mu.Unlock()
	return resp, nil
}

// inside resolves an agent's path and says whether it is inside the session directory. ACP paths
// are absolute; links are followed as far as they exist, so a link out of the directory is out.
func (c *Client) inside(p string) (string, bool) {
	if !filepath.IsAbs(p) || c.o.Dir == "" {
		return p, false
	}
	root, err := filepath.EvalSymlinks(c.o.Dir)
	if err != nil {
		return p, false
	}
	clean := filepath.Clean(p)
	real := clean
	// The deepest part that exists, resolved, with the rest put back.
	for probe, rest := clean, ""; ; {
		if r, err := filepath.EvalSymlinks(probe); err == nil {
			real = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		rest = filepath.Join(filepath.Base(probe), rest)
		probe = parent
	}
	rel, err := filepath.Rel(root, real)
	return real, err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// refuse records a request for a file outside the session directory as the agent's fault: the
// agent is answered with an error, and the session ends.
func (c *Client) refuse(method, path string) error {
	why := fmt.Sprintf("%s asked for %s, outside the session directory %s", method, path, c.o.Dir)
	c.mu.Lock()
	c.files = append(c.files, FileRequest{Method: method, Path: path, Refused: why})
	c.mu.Unlock()
	c.setFault(&Fault{Kind: Outside, Detail: why})
	return sdk.NewInvalidParams(map[string]any{"path": path, "error": "outside the session directory"})
}

// admit is the file a request names, inside the session directory, recorded; a path outside it
// is refused.
func (c *Client) admit(method, path string) (string, error) {
	real, ok := c.inside(path)
	if !ok {
		return "", c.refuse(method, path)
	}
	c.mu.Lock()
	c.files = append(c.files, FileRequest{Method: method, Path: path})
	c.mu.Unlock()
	return real, nil
}

// ReadTextFile serves a file inside the session directory, from line (1-based) for limit lines.
func (h handler) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	real, err := h.c.admit("fs/read_text_file", p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"path": p.Path, "error": err.Error()})
	}
	text := string(b)
	if p.Line != nil || p.Limit != nil {
		lines := strings.SplitAfter(text, "\n")
		from := 0
		if p.Line != nil && *p.Line > 1 {
			from = min(*p.Line-1, len(lines))
		}
		to := len(lines)
		if p.Limit != nil && *p.Limit >= 0 {
			to = min(from+*p.Limit, len(lines))
		}
		text = strings.Join(lines[from:to], "")
	}
	return sdk.ReadTextFileResponse{Content: text}, nil
}

// WriteTextFile writes a file inside the session directory.
func (h handler) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	real, err := h.c.admit("fs/write_text_file", p.Path)
	if err != nil {
		return sdk.WriteTextFileResponse{}, err
	}
	if err = os.MkdirAll(filepath.Dir(real), 0o755); err == nil {
		err = os.WriteFile(real, []byte(p.Content), 0o644)
		if err == nil {
			return sdk.WriteTextFileResponse{}, nil
		}
	}
	return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"path": p.Path})
}

// The client offers no terminal (terminal: false in initialize): an agent that asks anyway is told so.
func (handler) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}
func (handler) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}
func (handler) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}
func (handler) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}
func (handler) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse,
	error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}

// guard reads the agent's output line by line for the SDK, and ends it at the first line that is
// not a JSON-RPC 2.0 message — the SDK would log and skip it, and the session would wait for an
// answer that never comes — with a Fault that names the line.
type guard struct {
	r          io.Reader
	transcript io.Writer
	onFault    func(*Fault)
	// ready is closed once the client has set the SDK's logger: the SDK's SetLogger is not safe
	// beside its reading goroutine, so nothing is read before it.
	ready chan struct{}

	once sync.Once
	rd   *bufio.Reader
	buf  bytes.Buffer
	n    int
	err  error
}

// maxLine is the longest line taken from an agent (the SDK's own bound).
const maxLine = 10 << 20

// Read gives the SDK the agent's lines, read as every JSON-lines protocol here is read
// (jsonx.ReadLine: a line is split on LF alone, a trailing CR dropped, a line over maxLine a
// malformed message naming its start).
func (g *guard) Read(p []byte) (int, error) {
	<-g.ready
	g.once.Do(func() { g.rd = bufio.NewReaderSize(g.r, 64<<10) })
	for g.buf.Len() == 0 {
		if g.err != nil {
			return 0, g.err
		}
		line, err := jsonx.ReadLine(g.rd, maxLine)
		var long *jsonx.LineTooLong
		switch {
		case errors.As(err, &long):
			g.onFault(&Fault{Kind: Malformed, Detail: fmt.Sprintf("line %d of its output is over %d MiB: %s…", g.n+1,
				maxLine>>20, format.Quote(long.Head))})
			g.err = io.EOF
			continue
		case errors.Is(err, io.EOF):
			g.err = io.EOF
			if len(line) == 0 {
				continue
			}
		case err != nil:
			g.onFault(&Fault{Kind: Malformed, Detail: fmt.Sprintf("line %d: %v", g.n+1, err)})
			g.err = io.EOF
			continue
		}
		g.n++
		line = bytes.TrimSuffix(line, []byte("\r"))
		if g.transcript != nil {
			fmt.Fprintf(g.transcript, "< %s\n", line)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if why := notJSONRPC(line); why != "" {
			g.onFault(&Fault{Kind: Malformed, Detail: fmt.Sprintf("line %d of its output %s: %s", g.n, why,
				format.Quote(line))})
			g.err = io.EOF
			continue
		}
		g.buf.Write(line)
		g.buf.WriteByte('\n')
	}
	return g.buf.Read(p)
}

// notJSONRPC says why a line is not a JSON-RPC 2.0 message, or "".
func notJSONRPC(line []byte) string {
	var m struct {
		JSONRPC *string          `json:"jsonrpc"`
		Method  *string          `json:"method"`
		ID      *json.RawMessage `json:"id"`
		Result  *json.RawMessage `json:"result"`
		Error   *json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return "is not JSON"
	}
	switch {
	case m.JSONRPC == nil || *m.JSONRPC != "2.0":
		return `is not JSON-RPC 2.0 (no "jsonrpc": "2.0")`
	case m.Method == nil && m.ID == nil:
		return "is neither a request, a notification nor an answer"
	case m.Method == nil && m.Result == nil && m.Error == nil:
		return "answers with neither a result nor an error"
	}
	return ""
}

// tee copies what the client sends into the transcript (when there is one), and remembers a
// write that failed: the agent's input is closed.
type tee struct {
	w, t   io.Writer
	mu     sync.Mutex
	broken error
}

func (t *tee) Write(p []byte) (int, error) {
	if t.t != nil {
		var b bytes.Buffer
		for _, l := range bytes.SplitAfter(p, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				b.WriteString("> ")
				b.Write(bytes.TrimRight(l, "\n"))
				b.WriteByte('\n')
			}
		}
		t.t.Write(b.Bytes())
	}
	n, err := t.w.Write(p)
	if err != nil {
		t.mu.Lock()
		t.broken = err
		t.mu.Unlock()
	}
	return n, err
}

func (t *tee) failed() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.broken
}
