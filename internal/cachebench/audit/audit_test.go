package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens/tokenstest"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/google/go-cmp/cmp"
)

const recordings = "../../../testdata/recordings/"

func auditFile(t *testing.T, path string, o Options) (*Report, error) {
	t.Helper()
	r, f, err := replay.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Run(context.Background(), r, o, nil)
}

type brk struct {
	Seq   int
	Cause Cause
	Path  string
	Fails bool
}

// Every break of every testdata recording: the right request, cause and JSON path; none in the
// clean one, nor in the one that interleaves a title request and a subagent with the session.
func TestBreaksInTheTestdataRecordings(t *testing.T) {
	for name, c := range map[string]struct {
		want          []brk
		conversations int
		detail, clock string
	}{
		"clean":          {conversations: 1},
		"interleaved":    {conversations: 3},
		"date-in-system": {want: []brk{{4, SystemChanged, "$.messages[0].content", true}}, conversations: 1, clock: "2026-11-05 → 2026-11-06"},
		"prune-results":  {want: []brk{{5, MessageRewritten, "$.messages[3].content", true}}, conversations: 1, detail: "an old tool result pruned in place"},
		"tool-churn":     {want: []brk{{4, ToolsChanged, "$.tools[3]", true}}, conversations: 1, detail: "added mcp__tickets__search"},
		"model-change":   {want: []brk{{4, ModelChanged, "$.model", false}}, conversations: 1, detail: "from qwen3-coder to qwen3-coder-large"},
		"compaction":     {want: []brk{{8, Compaction, "$.messages[1].content", false}}, conversations: 1, detail: "summary asked for in request 7"},
	} {
		files := []string{name + ".jsonl"}
		if _, err := os.Stat(recordings + name + ".requests.jsonl"); err == nil {
			files = append(files, name+".requests.jsonl") // the same session as a plain request log
		}
		for _, file := range files {
			t.Run(file, func(t *testing.T) {
				rep, err := auditFile(t, recordings+file, Options{})
				if err != nil {
					t.Fatal(err)
				}
				var got []brk
				for _, q := range rep.Requests {
					if q.Break {
						got = append(got, brk{q.Seq, q.Cause, q.Path, q.Fails})
						if c.detail != "" && !strings.Contains(q.Detail, c.detail) {
							t.Errorf("request %d: detail %q does not say %q", q.Seq, q.Detail, c.detail)
						}
						if q.Clock != c.clock {
							t.Errorf("request %d: clock %q, want %q", q.Seq, q.Clock, c.clock)
						}
						if q.LostTokens <= 0 {
							t.Errorf("request %d: a break that lost no tokens", q.Seq)
						}
					} else if q.Fails || q.LostTokens != 0 {
						t.Errorf("request %d (%s): fails %v, lost %d", q.Seq, q.Cause, q.Fails, q.LostTokens)
					}
				}
				if d := cmp.Diff(c.want, got); d != "" {
					t.Errorf("breaks (-want +got):\n%s", d)
				}
				if rep.Totals.Conversations != c.conversations {
					t.Errorf("%d conversations, want %d", rep.Totals.Conversations, c.conversations)
				}
				wantFail := false
				for _, b := range c.want {
					wantFail = wantFail || b.Fails
				}
				if rep.Failed() != wantFail {
					t.Errorf("Failed() = %v, want %v", rep.Failed(), wantFail)
				}
			})
		}
	}
}

// flat tokenizes a body from scratch, part by part with no cache, and flattens it: the
// independent computation the simulator's answer is checked against.
func flat(t *testing.T, tk *tokens.Tiktoken, body []byte) []uint32 {
	t.Helper()
	r, err := chat.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	var out []uint32
	for _, p := range r.Parts() {
		out = append(out, tk.Encode(p)...)
	}
	return out
}

// On the clean recording, the simulator's cached tokens, summed, equal the token-level common
// prefixes of each request with the one before, computed here on flat token lists; and the
// audit's reusable tokens are the same numbers.
func TestSimulatorMatchesCommonPrefixesOnTheCleanRecording(t *testing.T) {
	entries, _, err := replay.ReadAll(recordings + "clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tk, err := tokens.NewTiktoken()
	if err != nil {
		t.Fatal(err)
	}
	c := cachesim.New(1)
	var simSum, lcpSum int
	var prev []uint32
	for i, e := range entries {
		res, err := c.Serve(e.Body)
		if err != nil {
			t.Fatal(err)
		}
		cur := flat(t, tk, e.Body)
		n := 0
		for n < len(cur) && n < len(prev) && cur[n] == prev[n] {
			n++
		}
		if res.CachedTokens != n || res.PromptTokens != len(cur) {
			t.Errorf("request %d: simulator %d cached of %d, independent %d of %d", i+1, res.CachedTokens, res.PromptTokens, n, len(cur))
		}
		simSum += res.CachedTokens
		lcpSum += n
		prev = cur
	}
	if simSum != lcpSum || simSum == 0 {
		t.Fatalf("simulator reused %d tokens, the common prefixes sum to %d", simSum, lcpSum)
	}
	rep, err := auditFile(t, recordings+"clean.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.ReusableTokens != int64(lcpSum) {
		t.Errorf("audit: %d reusable tokens, common prefixes: %d", rep.Totals.ReusableTokens, lcpSum)
	}
}

// A recording cut mid-line, or damaged in the middle, is audited up to the damage, and the error
// names the file and the line.
func TestDamagedRecordingsAreReadUpToTheDamage(t *testing.T) {
	whole, err := os.ReadFile(recordings + "prune-results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(whole), "\n")
	dir := t.TempDir()
	// Cut in the middle of the last exchange's line: the writer was killed mid-write.
	cut := filepath.Join(dir, "cut.jsonl")
	last := len(lines) - 2
	os.WriteFile(cut, []byte(strings.Join(lines[:last], "")+lines[last][:len(lines[last])/2]), 0o644)
	// Garbage in the middle: a line that is not JSON.
	corrupt := filepath.Join(dir, "corrupt.jsonl")
	mid := len(lines) / 2
	os.WriteFile(corrupt, []byte(strings.Join(lines[:mid], "")+"{\"type\":\"exchange\",\"seq\":\n"+strings.Join(lines[mid+1:], "")), 0o644)
	for _, c := range []struct {
		file string
		line int
		cut  bool
	}{{cut, last + 1, true}, {corrupt, mid + 1, false}} {
		rep, err := auditFile(t, c.file, Options{})
		var le *replay.LineError
		if !errors.As(err, &le) || le.Line != c.line || le.Cut != c.cut {
			t.Fatalf("%s: error %v, want line %d (cut %v)", c.file, err, c.line, c.cut)
		}
		if !strings.Contains(err.Error(), c.file+":line "+fmt.Sprint(c.line)) {
			t.Errorf("error %q does not name the file and line", err)
		}
		if rep == nil || len(rep.Requests) == 0 || rep.Damage == "" {
			t.Fatalf("%s: nothing audited before the damage: %+v", c.file, rep)
		}
		for _, q := range rep.Requests {
			if q.Line >= c.line {
				t.Errorf("request on line %d audited past the damage at %d", q.Line, c.line)
			}
		}
	}
}

// requests builds bodies with one system prompt and tools, messages as given.
func body(system, tools string, msgs ...string) []byte {
	b := `{"model":"m","messages":[{"role":"system","content":` + fmt.Sprintf("%q", system) + `}`
	for _, m := range msgs {
		b += "," + m
	}
	b += "]"
	if tools != "" {
		b += `,"tools":` + tools
	}
	return []byte(b + "}")
}

func user(s string) string { return fmt.Sprintf(`{"role":"user","content":%q}`, s) }
func asst(s string) string { return fmt.Sprintf(`{"role":"assistant","content":%q}`, s) }

func auditBodies(t *testing.T, bodies ...[]byte) *Report {
	t.Helper()
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bodies {
		if _, err := a.Add(context.Background(), replay.Entry{Exchange: replay.Exchange{Seq: i + 1, Method: "POST", Path: "/v1/chat/completions"}, Body: b, Line: i + 2}); err != nil {
			t.Fatal(err)
		}
	}
	return a.Report()
}

func causes(r *Report) []string {
	var out []string
	for _, q := range r.Requests {
		out = append(out, fmt.Sprintf("%d:%s:%d", q.Seq, q.Cause, q.Continues))
	}
	return out
}

const sysText = "You are a careful agent. Keep the prefix stable; never rewrite what was sent."
const tools = `[{"type":"function","function":{"name":"read"}}]`

func TestRewindRewriteAndRelatedness(t *testing.T) {
	long := body(sysText, tools, user("u1"), asst("a1"), user("u2"), asst("a2"), user("u3"))
	r := auditBodies(t,
		body(sysText, tools, user("u1")),
		long,
		body(sysText, tools, user("u1"), asst("a1"), user("u2 edited")),     // an earlier message changed
		body(sysText, tools, user("u1"), asst("a1")),                        // cut back: rewound, all cached
		body("Write a title.", "", user("u1")),                              // another agent, same first words
		body("Today is 2026-11-06. "+sysText, tools, user("u1"), asst("x")), // the same agent, its prompt changed
	)
	want := []string{"1:new conversation:0", "2:extends:1", "3:earlier message rewritten:2", "4:rewound:3", "5:new conversation:0", "6:system prompt changed:1"}
	if d := cmp.Diff(want, causes(r)); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	q := r.Requests[2]
	if q.Path != "$.messages[3].content" || !strings.Contains(q.Detail, "a user message") {
		t.Errorf("rewrite: path %q detail %q", q.Path, q.Detail)
	}
	if r.Requests[3].LostTokens != 0 || r.Requests[3].ReusableTokens != r.Requests[3].PromptTokens {
		t.Errorf("rewound: %+v", r.Requests[3])
	}
	if r.Requests[5].Clock != "added 2026-11-06" {
		t.Errorf("clock %q", r.Requests[5].Clock)
	}
}

// A compaction with no reply recorded and no table is still recognised by its ask: the next
// history from the same agent that is shorter.
func TestCompactionFromARequestLog(t *testing.T) {
	ask := `{"role":"user","content":"Summarise the conversation below so it can be carried forward after the earlier turns are dropped from your context. This is a working record."}`
	r := auditBodies(t,
		body(sysText, tools, user("u1"), asst("a1"), user("u2")),
		body(sysText, tools, user("u1"), asst("a1"), user("u2"), asst("a2"), ask),
		body(sysText, tools, user("the summary"), user("u3")),
		body("another agent", "", user("elsewhere")),
	)
	want := []string{"1:new conversation:0", "2:extends:1", "3:compaction:2", "4:new conversation:0"}
	if d := cmp.Diff(want, causes(r)); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if r.Failed() {
		t.Error("a compaction failed the audit")
	}
}

func TestToolsChangedSaysWhich(t *testing.T) {
	t2 := `[{"type":"function","function":{"name":"read","description":"new words"}},{"type":"function","function":{"name":"grep"}}]`
	r := auditBodies(t,
		body(sysText, `[{"type":"function","function":{"name":"read"}},{"type":"function","function":{"name":"rm"}}]`, user("u1")),
		body(sysText, t2, user("u1"), asst("a1"), user("u2")),
	)
	q := r.Requests[1]
	if q.Cause != ToolsChanged || q.Path != "$.tools[0].function" || q.Detail != "tools added grep; removed rm; changed read" {
		t.Errorf("%s at %s: %q", q.Cause, q.Path, q.Detail)
	}
}

func TestResponsesInstructionsChange(t *testing.T) {
	a, _ := New(Options{})
	for i, b := range []string{
		`{"model":"gpt","instructions":"Be brief. Date: 2026-11-05.","input":[{"role":"user","content":"hi"}]}`,
		`{"model":"gpt","instructions":"Be brief. Date: 2026-11-06.","input":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"},{"role":"user","content":"more"}]}`,
	} {
		if _, err := a.Add(context.Background(), replay.Entry{Exchange: replay.Exchange{Seq: i + 1, Method: "POST", Path: "/v1/responses"}, Body: []byte(b), Line: i + 1}); err != nil {
			t.Fatal(err)
		}
	}
	q := a.Report().Requests[1]
	if q.Cause != SystemChanged || q.Path != "$.instructions" || q.Clock != "2026-11-05 → 2026-11-06" {
		t.Errorf("%+v", q)
	}
}

// Exchanges that are not prompts are counted apart; a body that cannot be read is listed and the
// audit goes on.
func TestOtherExchangesAndUnreadableBodies(t *testing.T) {
	a, _ := New(Options{})
	ctx := context.Background()
	if q, err := a.Add(ctx, replay.Entry{Exchange: replay.Exchange{Seq: 1, Method: "GET", Path: "/v1/models"}}); q != nil || err != nil {
		t.Fatalf("models: %v %v", q, err)
	}
	_, err := a.Add(ctx, replay.Entry{Exchange: replay.Exchange{Seq: 2, Method: "POST", Path: "/v1/chat/completions"}, Body: []byte(`{"prompt":"x"}`), Line: 7})
	var u *UnreadableError
	if !errors.As(err, &u) || u.Line != 7 || !strings.Contains(err.Error(), "line 7") {
		t.Fatalf("unreadable: %v", err)
	}
	if _, err := a.Add(ctx, replay.Entry{Exchange: replay.Exchange{Seq: 3, Method: "POST", Path: "/v1/chat/completions"}, Body: body(sysText, "", user("u")), Line: 8}); err != nil {
		t.Fatal(err)
	}
	r := a.Report()
	if r.Totals.Other != 1 || len(r.Unreadable) != 1 || r.Totals.Requests != 1 {
		t.Errorf("totals %+v, unreadable %v", r.Totals, r.Unreadable)
	}
}

// With a llama.cpp server's tokenizer (an httptest server answering /apply-template and
// /tokenize as llama-server does), the audit finds the same break, counted in its tokens.
func TestAuditWithAServerTokenizer(t *testing.T) {
	srv := tokenstest.LlamaServer(t)
	rep, err := auditFile(t, recordings+"date-in-system.jsonl", Options{Tokenizer: tokens.NewServer(srv.URL)})
	if err != nil {
		t.Fatal(err)
	}
	q := rep.Requests[3]
	if q.Cause != SystemChanged || q.Path != "$.messages[0].content" || q.ReusableTokens >= q.PromptTokens/2 {
		t.Errorf("%+v", q)
	}
	if !strings.HasPrefix(rep.Tokenizer, "llama.cpp server") || rep.Requests[4].ReusableTokens != rep.Requests[3].PromptTokens {
		t.Errorf("tokenizer %q, request 5 %+v", rep.Tokenizer, rep.Requests[4])
	}
}

// A rewritten message is named for a person by what it is; a tool's result in every API reads
// as one (an Anthropic result and codex's custom_tool_call_output read "a user message" and
// "a custom_tool_call_output item" before), and "an" goes before a vowel ("a assistant" before).
func TestMessageLabel(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"role":"tool","tool_call_id":"call_1","content":"x"}`, "the tool result for call_1"},
		{`{"role":"tool","content":"x"}`, "a tool result"},
		{`{"type":"function_call_output","call_id":"c2","output":"x"}`, "the tool result for c2"},
		{`{"type":"custom_tool_call_output","call_id":"c3","output":"x"}`, "the tool result for c3"},
		{`{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu","content":"x"}]}`, "a tool result"},
		{`{"role":"user","content":"tool_result"}`, "a user message"},
		{`{"role":"assistant","content":"a"}`, "an assistant message"},
		{`{"type":"input_image"}`, "an input_image item"},
		{`{"type":"reasoning"}`, "a reasoning item"},
		{`{}`, "a message"},
	} {
		if got := messageLabel(chat.Part{}, []byte(c.raw)); got != c.want {
			t.Errorf("%s: %q, want %q", c.raw, got, c.want)
		}
	}
}
