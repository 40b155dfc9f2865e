package refagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// pipes runs the reference agent against a fake whose every request turn answers, and gives the
// client's ends of its stdio.
func pipes(t *testing.T, turn func(n int, body []byte) script.Reply) (w io.Writer, r io.Reader) {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Turn: func(q *wire.Request, body []byte) (*script.Reply, error) {
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		r := turn(i, body)
		return &r, nil
	}})
	toAgent, fromClient := io.Pipe()
	fromAgent, toClient := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		refagent.Serve(ctx, toAgent, toClient, refagent.Options{BaseURL: srv.BaseURL()})
	}()
	t.Cleanup(func() { cancel(); fromClient.Close(); toClient.Close(); <-done })
	return fromClient, fromAgent
}

// replies answers the requests with rs in order, then "done".
func replies(rs ...script.Reply) func(int, []byte) script.Reply {
	return func(n int, _ []byte) script.Reply {
		if n <= len(rs) {
			return rs[n-1]
		}
		return script.Reply{Text: "done"}
	}
}

func never(time.Duration) <-chan time.Time { return nil }

// lembasClient is the live target's ACP client (a LLeMbas one, protocol 3) on a new session.
func lembasClient(t *testing.T, turn func(int, []byte) script.Reply) (*acp.Client, acp.Session) {
	t.Helper()
	w, r := pipes(t, turn)
	c := acp.New(w, r, acp.Options{Dir: t.TempDir(), Lembas: true, After: never})
	if _, err := c.Initialize(context.Background(), "test"); err != nil {
		t.Fatal(err)
	}
	s, err := c.NewSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// lastResult is the content of the last tool result the agent sent the model.
func lastResult(bodies []chatBody) string {
	for i := len(bodies) - 1; i >= 0; i-- {
		ms := bodies[i].Messages
		for j := len(ms) - 1; j >= 0; j-- {
			if ms[j].Role == "tool" {
				return ms[j].Content
			}
		}
	}
	return ""
}

// recorded keeps the bodies the fake was sent while turn answers them.
func recorded(got *requests, turn func(int, []byte) script.Reply) func(int, []byte) script.Reply {
	return func(n int, body []byte) script.Reply {
		got.add(body)
		return turn(n, body)
	}
}

// A LLeMbas client of protocol 3 is put the plan by _lembas/plan, the plan in its params: not
// approved, the session keeps planning and the model is told why; approved, the session moves to
// the mode the answer names, and the client hears of it.
func TestPlanByLembasPlan(t *testing.T) {
	got := &requests{}
	c, s := lembasClient(t, recorded(got, replies(
		call("c1", "plan_write", `{"plan":"# Fix\n## p1 P (pending)\n[t1] [ ] a"}`), call("c2", "plan_submit", `{}`),
		script.Reply{Text: "planning"}, call("c3", "plan_submit", `{}`))))
	ctx := context.Background()
	if err := c.SetMode(ctx, s, "plan"); err != nil {
		t.Fatal(err)
	}
	c.AnswerPlans(s.ID, acp.PlanAnswer{Feedback: "Name the files."})
	if _, _, err := c.Prompt(ctx, s.ID, "plan it"); err != nil {
		t.Fatal(err)
	}
	if r := lastResult(got.all()); !strings.Contains(r, "did not approve the plan") || !strings.Contains(r, "Name the files.") {
		t.Errorf("the refused plan's result: %q", r)
	}
	if m := c.Mode(s.ID); m != "plan" {
		t.Errorf("a refused plan left the mode %q", m)
	}
	c.AnswerPlans(s.ID, acp.PlanAnswer{Approved: true, Mode: "auto"})
	if _, _, err := c.Prompt(ctx, s.ID, "go on"); err != nil {
		t.Fatal(err)
	}
	if r := lastResult(got.all()); !strings.Contains(r, "the permission mode is now auto") {
		t.Errorf("the approved plan's result: %q", r)
	}
	if m := c.Mode(s.ID); m != "auto" {
		t.Errorf("the approval to auto left the mode %q", m)
	}
	asked := c.Asked()
	if len(asked) != 2 || asked[0].Method != "_lembas/plan" || !strings.HasPrefix(asked[0].Plan, "# Fix") ||
		asked[0].SessionID != s.ID || asked[0].ToolCallID == "" {
		t.Errorf("asked: %+v", asked)
	}
	if p := c.Permissions(); len(p) != 0 {
		t.Errorf("a LLeMbas client was also sent approval cards: %+v", p)
	}
}

// rawClient is an ACP client with no _lembas/* methods of its own: it says _meta.lembas with
// protocol, approves every card, and counts the extension requests it refuses.
type rawClient struct {
	mu       sync.Mutex
	cards    int
	refused  []string
	protocol any
}

func (r *rawClient) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errors.New("no files")
}
func (r *rawClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errors.New("no files")
}
func (r *rawClient) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	r.mu.Lock()
	r.cards++
	r.mu.Unlock()
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
		Selected: &sdk.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: p.Options[0].OptionId}}}, nil
}
func (r *rawClient) SessionUpdate(context.Context, sdk.SessionNotification) error { return nil }
func (r *rawClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errors.New("no terminals")
}
func (r *rawClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errors.New("no terminals")
}
func (r *rawClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errors.New("no terminals")
}
func (r *rawClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errors.New("no terminals")
}
func (r *rawClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errors.New("no terminals")
}
func (r *rawClient) HandleExtensionMethod(_ context.Context, method string, _ json.RawMessage) (any, error) {
	r.mu.Lock()
	r.refused = append(r.refused, method)
	r.mu.Unlock()
	return nil, sdk.NewMethodNotFound(method)
}

// session opens a session with the raw client: initialize with its _meta.lembas, session/new in
// plan mode, then one prompt.
func (r *rawClient) prompt(t *testing.T, turn func(int, []byte) script.Reply, words ...string) {
	t.Helper()
	w, rd := pipes(t, turn)
	conn := sdk.NewClientSideConnection(r, w, rd)
	conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()
	req := sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}
	if r.protocol != nil {
		req.ClientCapabilities.Meta = map[string]any{"lembas": r.protocol}
	}
	if _, err := conn.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	for _, wd := range words {
		if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId,
			Prompt: []sdk.ContentBlock{sdk.TextBlock(wd)}}); err != nil {
			t.Fatal(err)
		}
	}
}

// A client of protocol 1 (`lembas: true`) gets no _lembas/plan nor _lembas/question: the plan is an
// approval card, and nobody can be asked. One of protocol 3 that answers _lembas/plan with
// method-not-found is protocol 1 for the rest of the link (acp.md, Versions): its plan then goes
// by a card, and no question is sent it.
func TestPlanAndQuestionFallBack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		protocol any
		refused  int
	}{{"protocol 1", true, 0}, {"no such method", map[string]any{"protocol": 3}, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			got := &requests{}
			r := &rawClient{protocol: tc.protocol}
			r.prompt(t, recorded(got, replies(call("c1", "plan_submit", `{}`), script.Reply{Text: "ok"},
				call("c2", "ask_user", `{"question":"Tabs?","options":["yes","no"]}`))), "one", "two")
			// The question after a refused _lembas/plan is not sent: the link is protocol 1 now.
			if r.cards != 1 || len(r.refused) != tc.refused {
				t.Errorf("%d cards and %v refused, want 1 card and %d refused", r.cards, r.refused, tc.refused)
			}
			bodies := got.all()
			var results []string
			for _, m := range bodies[len(bodies)-1].Messages {
				if m.Role == "tool" {
					results = append(results, m.Content)
				}
			}
			if len(results) != 2 || !strings.Contains(results[0], "now edit") ||
				!strings.Contains(results[1], "Nobody can be asked") {
				t.Errorf("the results: %q", results)
			}
		})
	}
}

// ask_user goes to a LLeMbas client as _lembas/question; its answer (the recommended option, as the
// live target answers) is the result the model is given.
func TestAskUserByLembasQuestion(t *testing.T) {
	got := &requests{}
	c, s := lembasClient(t, recorded(got, replies(
		call("c1", "ask_user", `{"question":"Which build?","options":["make","ninja"],"recommended":"ninja"}`))))
	if _, _, err := c.Prompt(context.Background(), s.ID, "build it"); err != nil {
		t.Fatal(err)
	}
	if r := lastResult(got.all()); !strings.HasSuffix(r, "ninja") {
		t.Errorf("the answer's result: %q", r)
	}
	asked := c.Asked()
	if len(asked) != 1 || asked[0].Method != "_lembas/question" || asked[0].Question != "Which build?" ||
		strings.Join(asked[0].Options, ",") != "make,ninja" || asked[0].Answer != "ninja" {
		t.Errorf("asked: %+v", asked)
	}
}

// The person's words sent by _lembas/steer while a turn runs are the next request's last user
// message, after the results of the step that ran; with no turn running, -32602.
func TestSteer(t *testing.T) {
	got := &requests{}
	var c *acp.Client
	var s acp.Session
	steered := make(chan error, 1)
	c, s = lembasClient(t, recorded(got, func(n int, _ []byte) script.Reply {
		if n == 1 {
			// While the model answers the turn's first request, the person steers.
			steered <- c.Steer(context.Background(), s, "m1", "Also look at b.md.")
			return call("c1", "read", `{"path":"a.md"}`)
		}
		return script.Reply{Text: "done"}
	}))
	ctx := context.Background()
	if _, _, err := c.Prompt(ctx, s.ID, "look at a.md"); err != nil {
		t.Fatal(err)
	}
	if err := <-steered; err != nil {
		t.Fatal(err)
	}
	bodies := got.all()
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	ms := bodies[1].Messages
	if last := ms[len(ms)-1]; last.Role != "user" || last.Content != "Also look at b.md." || ms[len(ms)-2].Role != "tool" {
		t.Errorf("the request after the steer ends %+v", ms[len(ms)-2:])
	}
	var ce *acp.CallError
	if err := c.Steer(ctx, s, "m2", "late"); !errors.As(err, &ce) || ce.Code != -32602 {
		t.Errorf("a steer with no turn running: %v", err)
	}
}
