package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Scripted Anthropic sessions whose bytes hold the prefix but whose cache does not: each gets its
// cause beyond bytes, with its tokens and, with a price table, its money.

var t0 = time.Date(2026, 11, 30, 23, 40, 0, 0, time.UTC)

type msg struct {
	role, text string
	mark       bool
}

// messages builds an Anthropic body: a long marked system prompt (over Sonnet's 1,024 tokens),
// the messages, and extra top-level members.
func messages(t *testing.T, sysMark bool, msgs []msg, extra map[string]any) []byte {
	t.Helper()
	sys := map[string]any{"type": "text", "text": strings.Repeat("You are a careful coding agent. ", 300)}
	if sysMark {
		sys["cache_control"] = map[string]string{"type": "ephemeral"}
	}
	var ms []any
	for _, m := range msgs {
		b := map[string]any{"type": "text", "text": m.text}
		if m.mark {
			b["cache_control"] = map[string]string{"type": "ephemeral"}
		}
		ms = append(ms, map[string]any{"role": m.role, "content": []any{b}})
	}
	v := map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 100, "system": []any{sys}, "messages": ms}
	for k, x := range extra {
		v[k] = x
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func turns(n int, markLast bool) []msg {
	var out []msg
	for i := 0; i < n; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		out = append(out, msg{role: role, text: strings.Repeat("turn text ", 20) + string(rune('a'+i)), mark: markLast && i == n-1})
	}
	return out
}

func auditTimed(t *testing.T, o Options, at []time.Time, bodies ...[]byte) *Report {
	t.Helper()
	return auditHeaders(t, o, at, nil, bodies...)
}

// auditHeaders audits Messages requests sent at these times with these headers (nil: none).
func auditHeaders(t *testing.T, o Options, at []time.Time, headers []map[string][]string, bodies ...[]byte) *Report {
	t.Helper()
	a, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bodies {
		x := replay.Exchange{Seq: i + 1, Method: "POST", Path: "/v1/messages", Started: at[i]}
		if i < len(headers) {
			x.Request.Headers = headers[i]
		}
		if _, err := a.Add(context.Background(), replay.Entry{Exchange: x, Body: b, Line: i + 2}); err != nil {
			t.Fatal(err)
		}
	}
	return a.Report()
}

func TestCausesBeyondBytes(t *testing.T) {
	minute := func(m float64) time.Time { return t0.Add(time.Duration(m * float64(time.Minute))) }
	effort := func(e string) map[string]any { return map[string]any{"output_config": map[string]string{"effort": e}} }
	haiku := map[string]any{"model": "claude-haiku-4-5"}
	// Each case is two requests: turns[i] turns, the system entry marked or not, extra[i] merged in.
	for name, c := range map[string]struct {
		marked bool
		turns  [2]int
		extra  [2]map[string]any
		at     []time.Time
		beta   [2]string // the requests' anthropic-beta headers
		want   Cause
		path   string
		detail string
		small  bool // only the messages are lost, the system entry is read
	}{
		"idle past the TTL": {marked: true, turns: [2]int{1, 3},
			at: []time.Time{minute(0), minute(7)}, want: IdlePastTTL, detail: "7m0s since the cached prefix was last used; it lives 5m0s",
		},
		"an effort change": {marked: true, turns: [2]int{1, 3}, extra: [2]map[string]any{effort("high"), effort("low")},
			at: []time.Time{minute(0), minute(1)}, want: KeyChanged, path: "$.output_config.effort", detail: `"high" → "low"`, small: true,
		},
		"an anthropic-beta change": {marked: true, turns: [2]int{1, 3}, beta: [2]string{"", "context-1m-2025-08-07"},
			at: []time.Time{minute(0), minute(1)}, want: KeyChanged, path: cachesim.HeaderBeta, detail: "(none) → context-1m-2025-08-07", small: true,
		},
		"a breakpoint moved past the lookback": {marked: false, turns: [2]int{1, 25},
			at: []time.Time{minute(0), minute(1)}, want: BreakpointsMoved, detail: "no breakpoint of this one is at them or within 20 blocks",
		},
		"under the minimum": {marked: true, turns: [2]int{1, 3}, extra: [2]map[string]any{haiku, haiku},
			at: []time.Time{minute(0), minute(1)}, want: UnderMinimum, detail: "under the model's minimum cacheable length of 4096",
		},
	} {
		t.Run(name, func(t *testing.T) {
			var bs [][]byte
			for i, n := range c.turns {
				bs = append(bs, messages(t, c.marked, turns(n, true), c.extra[i]))
			}
			var hs []map[string][]string
			for _, b := range c.beta {
				h := map[string][]string{}
				if b != "" {
					h["Anthropic-Beta"] = []string{b}
				}
				hs = append(hs, h)
			}
			r := auditHeaders(t, Options{Prices: prices.Builtin()}, c.at, hs, bs...)
			q := r.Requests[1]
			if q.Cause != c.want || q.Path != c.path || !strings.Contains(q.Detail, c.detail) || q.Fails || !q.Break || q.Provider != "anthropic" {
				t.Fatalf("%+v, want %s at %q saying %q", q, c.want, c.path, c.detail)
			}
			if c.small && (q.LostTokens == 0 || q.ReusableTokens < 1000) {
				t.Errorf("lost %d reusable %d: the system entry is read, the messages' lost", q.LostTokens, q.ReusableTokens)
			} else if !c.small && (q.LostTokens < 1000 || q.ReusableTokens >= q.LostTokens) {
				t.Errorf("lost %d reusable %d: the system prompt's tokens are lost", q.LostTokens, q.ReusableTokens)
			}
			if r.Failed() {
				t.Error("a cause beyond bytes fails the audit")
			}
			if q.LostCost == nil || *q.LostCost <= 0 || r.Totals.LostCost != *q.LostCost || r.Totals.Kept >= r.Totals.Cost {
				t.Errorf("money: request %v, totals %+v", q.LostCost, r.Totals)
			}
			for _, f := range []string{"table", "json", "markdown"} {
				var b bytes.Buffer
				if err := Formats.Write(&b, f, r, true); err != nil {
					t.Fatal(err)
				}
				money := "$"
				if f == "json" {
					money = `"lost_cost":`
				}
				if !strings.Contains(b.String(), string(c.want)) || !strings.Contains(b.String(), money) {
					t.Errorf("%s names no %s or no money:\n%s", f, c.want, b.String())
				}
			}
		})
	}
}

func TestTooManyBreakpointsAndAcrossSessions(t *testing.T) {
	four := turns(4, false)
	for i := range four {
		four[i].mark = true
	}
	r := auditTimed(t, Options{}, []time.Time{t0, t0.Add(time.Minute)},
		messages(t, true, turns(1, true), nil), messages(t, true, append(four, msg{"user", "x", false}), nil))
	if q := r.Requests[1]; q.Cause != TooManyBreakpoints || !strings.Contains(q.Detail, "Found 5") {
		t.Fatalf("%+v", q)
	}
	// Two sessions of one agent: the same tools, an unmarked billing block that differs before the
	// first breakpoint. The bytes share the tools; the cache reads none of it.
	session := func(bill, prompt string) []byte {
		v := map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 10,
			"tools":    []any{map[string]any{"name": "Read", "description": strings.Repeat("Reads a file. ", 400), "input_schema": map[string]any{"type": "object"}}},
			"system":   []any{map[string]any{"type": "text", "text": "x-anthropic-billing-header: cc_version=2.1.332." + bill}, map[string]any{"type": "text", "text": "You are Claude Code.", "cache_control": map[string]string{"type": "ephemeral"}}},
			"messages": []any{map[string]any{"role": "user", "content": prompt}}}
		b, _ := json.Marshal(v)
		return b
	}
	r = auditTimed(t, Options{}, []time.Time{t0, t0.Add(time.Minute)}, session("a1b", "fix the build"), session("f00", "write the docs"))
	q := r.Requests[1]
	if r.Totals.Conversations != 2 {
		t.Errorf("%d conversations, want 2", r.Totals.Conversations)
	}
	if q.Cause != AcrossSessions || q.Path != "$.system[0].text" || q.LostTokens < 1000 || q.ReusableTokens != 0 || q.Change == nil || !strings.Contains(q.Change.New, "f00") {
		t.Fatalf("%+v %+v", q, q.Change)
	}
}

// Chat completions judged by OpenAI's rules (--provider openai): idle past its TTL is a cause, and
// --ttl sets the TTL; without a provider the same bytes are only bytes.
func TestOpenAIRulesIdle(t *testing.T) {
	sys := strings.Repeat("You are a careful coding agent. ", 300)
	b1, b2 := body(sys, "", user("fix it")), body(sys, "", user("fix it"), asst("ok"), user("more"))
	run := func(o Options) *Request {
		a, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range [][]byte{b1, b2} {
			x := replay.Exchange{Seq: i + 1, Method: "POST", Path: "/v1/chat/completions", Started: t0.Add(time.Duration(i) * 7 * time.Minute)}
			if _, err := a.Add(context.Background(), replay.Entry{Exchange: x, Body: b, Line: i + 2}); err != nil {
				t.Fatal(err)
			}
		}
		return &a.Report().Requests[1]
	}
	if q := run(Options{Provider: "openai"}); q.Cause != IdlePastTTL || q.Provider != "openai" || !strings.Contains(q.Detail, "7m0s since") {
		t.Errorf("openai, 5 min: %+v", q)
	}
	if q := run(Options{Provider: "openai", TTL: map[string]time.Duration{"openai": 10 * time.Minute}}); q.Cause != Extends || q.ReusableTokens < 1024 {
		t.Errorf("openai, 10 min: %+v", q)
	}
	if q := run(Options{}); q.Cause != Extends || q.Provider != "" {
		t.Errorf("no provider: %+v", q)
	}
	if _, err := New(Options{Provider: "mistral"}); err == nil || !strings.Contains(err.Error(), `no provider "mistral"`) {
		t.Errorf("unknown provider: %v", err)
	}
}

// The answer's length the audit prices is the reply's usage as the usage package reads it, in
// every dialect (the audit read completion_tokens, output_tokens and candidatesTokenCount itself).
func TestOutputTokens(t *testing.T) {
	for body, want := range map[string]int{
		`{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4}}`:                  4,
		`{"content":[],"usage":{"input_tokens":9,"output_tokens":5}}`:                       5,
		`{"output":[],"usage":{"input_tokens":9,"output_tokens":6}}`:                        6,
		`{"candidates":[],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":7}}`: 7,
		`{"choices":[]}`: 0,
		`not json`:       0,
	} {
		e := replay.Entry{Exchange: replay.Exchange{Response: &replay.Response{Status: 200, Body: []byte(body)}}}
		if got := outputTokens(e); got != want {
			t.Errorf("%s: %d, want %d", body, got, want)
		}
	}
	if got := outputTokens(replay.Entry{}); got != 0 {
		t.Errorf("no response: %d", got)
	}
}
