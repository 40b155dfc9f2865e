package recdiff

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

const recordings = "../../../testdata/recordings/"

func run(t *testing.T, a, b string) *Report {
	t.Helper()
	r, err := Settings{}.Run(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// change finds the grouped change of a kind at a path, or fails.
func change(t *testing.T, r *Report, kind, path string) Change {
	t.Helper()
	for _, c := range r.Changes {
		if c.Kind == kind && c.Path == path {
			return c
		}
	}
	t.Fatalf("no %s change at %s in %+v", kind, path, r.Changes)
	return Change{}
}

// A recording compared with itself: every pair the same, every token shared, exit 0.
func TestSameRecording(t *testing.T) {
	r := run(t, recordings+"clean.jsonl", recordings+"clean.jsonl")
	if Status(r) != format.OK || r.Totals.Same != 6 || r.Totals.Pairs != 6 || len(r.Changes) != 0 {
		t.Errorf("status %v, totals %+v, changes %+v", Status(r), r.Totals, r.Changes)
	}
	if r.Totals.SharedTokens != r.Totals.PromptTokens || r.Totals.LostTokens != 0 || r.Pairing != "by position" {
		t.Errorf("totals %+v, pairing %q", r.Totals, r.Pairing)
	}
}

// Two versions of one harness: the second moved the date from the first user message into the
// system prompt. Every pair breaks at the system prompt (the lost tokens are put there), the
// message the date left is named, the times themselves are not a difference, and each side's own
// audit says how much of its prefix it keeps.
func TestTwoVersionsDateMoved(t *testing.T) {
	r := run(t, recordings+"clean.jsonl", recordings+"date-in-system.jsonl")
	if Status(r) != format.Failed || r.Totals.Breaks != 6 {
		t.Fatalf("status %v, totals %+v", Status(r), r.Totals)
	}
	sys := change(t, r, KindSystem, "$.messages[0].content")
	if !sys.Prefix || len(sys.Pairs) != 6 || sys.LostTokens == 0 || sys.LostTokens != int(r.Totals.LostTokens) {
		t.Errorf("system change %+v, totals %+v", sys, r.Totals)
	}
	msg := change(t, r, KindMessages, "$.messages[1].content")
	if !strings.Contains(msg.Detail, "a user message") || !strings.Contains(msg.Detail, "rewritten") {
		t.Errorf("the message change says %q", msg.Detail)
	}
	first := r.Pairs[0].Differences[0]
	if !first.First || !strings.Contains(first.Change.New, "Today is <time>.") || first.TokensB <= first.TokensA {
		t.Errorf("the first difference %+v", first)
	}
	if r.A.Audit.ReusableShare <= r.B.Audit.ReusableShare || r.A.Requests != 6 || r.B.Requests != 6 {
		t.Errorf("the sides' own prefixes: a %+v, b %+v", r.A, r.B)
	}
}

// A version that adds a tool halfway through: the pairs before it are the same, those after it
// break at the tools, naming the tool added.
func TestTwoVersionsToolAdded(t *testing.T) {
	r := run(t, recordings+"clean.jsonl", recordings+"tool-churn.jsonl")
	if Status(r) != format.Failed || r.Totals.Same != 3 || r.Totals.Breaks != 3 {
		t.Fatalf("status %v, totals %+v", Status(r), r.Totals)
	}
	c := change(t, r, KindTools, "$.tools[3]")
	if !strings.Contains(c.Detail, "tools added mcp__tickets__search (3 → 4 tools)") || c.LostTokens == 0 {
		t.Errorf("the tools change %+v", c)
	}
}

// Another model keys another cache: nothing of the prompt is shared, whatever the bytes.
func TestModelChanged(t *testing.T) {
	r := run(t, recordings+"clean.jsonl", recordings+"model-change.jsonl")
	c := change(t, r, KindModel, "$.model")
	if !c.Prefix || c.LostTokens == 0 || Status(r) != format.Failed {
		t.Errorf("the model change %+v", c)
	}
}

// A recording and the request log of the same requests: no headers on one side, which key no
// cache: cosmetic, exit 0.
func TestRecordingAndItsRequestLog(t *testing.T) {
	r := run(t, recordings+"clean.jsonl", recordings+"clean.requests.jsonl")
	if Status(r) != format.OK || r.Totals.Cosmetic != 6 || r.Pairs[0].Cosmetic["headers"] == 0 {
		t.Errorf("status %v, totals %+v, first pair %+v", Status(r), r.Totals, r.Pairs[0])
	}
}

// writeLog writes a request log: one body a line.
func writeLog(t *testing.T, name string, bodies ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(bodies, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	sysA = `{"role":"system","content":"You are an agent. Today is 2026-11-05."}`
	sysB = `{"role": "system",  "content": "You are an agent. Today is 2026-12-01."}`
	tool = `{"type":"function","function":{"name":"read","parameters":{"type":"object"}}}`
)

func body(sys, callID, extra string) string {
	return `{"model":"gpt-4.1","messages":[` + sys + `,{"role":"user","content":"fix it"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"` + callID + `","type":"function",` +
		`"function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"` + callID +
		`","content":"ok"}],"tools":[` + tool + `]` + extra + `}`
}

// What two runs of one harness differ in is cosmetic: another tool call id, another date, JSON
// white space. A parameter no cache keys on differs but passes; one a cache keys on breaks.
func TestCosmeticAndParameters(t *testing.T) {
	a := writeLog(t, "a.jsonl", body(sysA, "call_abc123XYZ", ""))
	cases := []struct {
		name, b, verdict string
		status           format.Status
	}{
		{"ids times whitespace", body(sysB, "call_Q9z8y7x6w5", ""), Cosmetic, format.OK},
		{"max_tokens", body(sysA, "call_abc123XYZ", `,"max_tokens":100`), Differs, format.OK},
		{"tool_choice", body(sysA, "call_abc123XYZ", `,"tool_choice":"required"`), Breaks, format.Failed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, a, writeLog(t, "b.jsonl", c.b))
			p := r.Pairs[0]
			if p.Verdict != c.verdict || Status(r) != c.status {
				t.Errorf("verdict %s, status %v, differences %+v", p.Verdict, Status(r), p.Differences)
			}
			if c.verdict == Cosmetic && (p.Cosmetic["ids"] == 0 || p.Cosmetic["times"] == 0 ||
				p.SharedTokens != p.PromptTokens) {
				t.Errorf("cosmetic %+v, %d of %d shared", p.Cosmetic, p.SharedTokens, p.PromptTokens)
			}
			if c.verdict == Breaks && (p.LostTokens == 0 || p.Differences[0].Path != "$.tool_choice") {
				t.Errorf("%+v", p)
			}
		})
	}
}

// When one side sends a request the other does not (a title request first), the rest still
// pair with the requests that answer the same message, and the extra one is said to be unpaired.
func TestPairingWhenCountsDiffer(t *testing.T) {
	title := `{"model":"gpt-4.1","messages":[{"role":"user","content":"Generate a title for this conversation:"},` +
		`{"role":"user","content":"\"fix it\""}]}`
	a := writeLog(t, "a.jsonl", body(sysA, "call_abc123XYZ", ""), body(sysA, "call_abc123XYZ", ""))
	b := writeLog(t, "b.jsonl", title, body(sysA, "call_abc123XYZ", ""), body(sysA, "call_abc123XYZ", ""))
	r := run(t, a, b)
	if len(r.Unpaired) != 1 || r.Unpaired[0].Side != "b" || r.Unpaired[0].Seq != 1 || r.Totals.Same != 2 {
		t.Fatalf("unpaired %+v, totals %+v", r.Unpaired, r.Totals)
	}
	if r.Pairs[0].B.Seq != 2 || !strings.HasPrefix(r.Pairing, "by the person's messages (2 and 3 requests)") ||
		Status(r) != format.OK {
		t.Errorf("pairs %+v, pairing %q", r.Pairs, r.Pairing)
	}
}

// Input the comparison cannot read is an error naming the file and the line.
func TestUnreadableInput(t *testing.T) {
	good := writeLog(t, "good.jsonl", body(sysA, "call_abc123XYZ", ""))
	bad := writeLog(t, "bad.jsonl", body(sysA, "call_abc123XYZ", ""), `{"model":"m","messages":[{"role":`)
	notRequest := writeLog(t, "other.jsonl", body(sysA, "call_abc123XYZ", ""), `{"model":"m","messages":7}`)
	for _, c := range []struct{ file, want string }{
		{bad, bad + ":line 2"},
		{notRequest, notRequest + ":line 2 (request 2)"},
		{filepath.Join(t.TempDir(), "missing.jsonl"), "missing.jsonl: no such file"},
	} {
		_, err := Settings{}.Run(context.Background(), good, c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to name %q", c.file, err, c.want)
		}
	}
}

// Every format writes, and the JSON lines end with the footer carrying the status.
func TestFormats(t *testing.T) {
	r := run(t, recordings+"clean.jsonl", recordings+"date-in-system.jsonl")
	for _, f := range Formats {
		var b strings.Builder
		if err := f.Write(&b, r, true); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		want := map[string]string{"table": "--- BREAKS: pair 1", "json": `"type":"footer","status":"FAIL","exit":1`,
			"markdown": "❌ **FAIL** 6 pairs", "html": `class="verdict fail"`}[f.Name]
		if !strings.Contains(out, want) || !strings.Contains(out, "$.messages[0].content") {
			t.Errorf("%s: no %q in\n%.600s", f.Name, want, out)
		}
	}
}

// Comparing two bodies never panics, and a body compared with itself is the same.
func FuzzCompare(f *testing.F) {
	tk, err := tokens.NewTiktoken()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(body(sysA, "call_abc123XYZ", ""), body(sysB, "call_Q9z8y7x6w5", `,"tool_choice":"auto"`))
	f.Add(`{"model":"m","system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral"}}],"messages":[]}`,
		`{"model":"m","input":"hi","instructions":"x"}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		ra, errA := newRequest(context.Background(), replay.Entry{Body: []byte(a)}, &audit.Request{}, tk)
		rb, errB := newRequest(context.Background(), replay.Entry{Body: []byte(b)}, &audit.Request{}, tk)
		if errA != nil || errB != nil {
			return
		}
		compareSides([]*request{ra}, []*request{rb}, tk, prices.Builtin())
		if r := compareSides([]*request{ra}, []*request{ra}, tk, prices.Builtin()); r.Totals.Same != 1 {
			t.Errorf("a body against itself: %+v", r.Pairs)
		}
	})
}

// Anthropic: a breakpoint moved from the system prompt to the last tool result shares every
// byte, yet caches another prefix: it breaks, named at the breakpoint that moved; the tool_use
// ids are cosmetic.
func TestBreakpointMoved(t *testing.T) {
	msgs := func(id, mark string) string {
		return `"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"` + id +
			`","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id +
			`","content":"ok"` + mark + `}]}]}`
	}
	const mark = `,"cache_control":{"type":"ephemeral"}`
	head := `{"model":"claude-sonnet-4-5","max_tokens":100,"tools":[{"name":"read","input_schema":{"type":"object"}}],`
	a := writeLog(t, "a.jsonl", head+`"system":[{"type":"text","text":"You are X."`+mark+`}],`+msgs("toolu_01ABCDEFGH", ""))
	b := writeLog(t, "b.jsonl", head+`"system":[{"type":"text","text":"You are X."}],`+msgs("toolu_01ZZZZZZZZ", mark))
	r := run(t, a, b)
	p := r.Pairs[0]
	if p.Verdict != Breaks || len(p.Differences) != 1 || p.Cosmetic["ids"] != 2 || p.SharedTokens != p.PromptTokens {
		t.Fatalf("%+v", p)
	}
	if d := p.Differences[0]; d.Kind != KindBreakpoints || d.Path != "$.system[0]" ||
		d.Detail != "breakpoints added $.messages[2].content[0] (5m); removed $.system[0] (5m)" {
		t.Errorf("%+v", d)
	}
}
