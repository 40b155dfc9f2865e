package cachesim

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// long is a text of about n tokens.
func long(n int, word string) string { return strings.Repeat(word+" ", n) }

var cc = map[string]string{"type": "ephemeral"}

type block = map[string]any

// msgs builds n user/assistant text messages; marked lists the indices whose block is a breakpoint.
func msgs(n int, marked ...int) []any {
	var out []any
	for i := 0; i < n; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		b := block{"type": "text", "text": fmt.Sprintf("message %d", i)}
		for _, m := range marked {
			if m == i {
				b["cache_control"] = cc
			}
		}
		out = append(out, block{"role": role, "content": []any{b}})
	}
	return out
}

func mbody(t *testing.T, v map[string]any) []byte {
	t.Helper()
	if v["model"] == nil {
		v["model"] = "claude-sonnet-4-5"
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func system(text string, marked bool, ttl string) []any {
	b := block{"type": "text", "text": text}
	if marked {
		c := block{"type": "ephemeral"}
		if ttl != "" {
			c["ttl"] = ttl
		}
		b["cache_control"] = c
	}
	return []any{block{"type": "text", "text": "billing header"}, b}
}

func newBP(t *testing.T) *Breakpoints {
	t.Helper()
	b, err := NewBreakpoints(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var t0 = time.Date(2026, 11, 30, 23, 50, 0, 0, time.UTC)

func serve(t *testing.T, b *Breakpoints, v map[string]any, at time.Time) Served {
	t.Helper()
	s, err := b.Serve(mbody(t, v), nil, at)
	if err != nil {
		t.Fatal(err)
	}
	if s.Read+s.Written()+s.Input != s.PromptTokens {
		t.Fatalf("read %d + written %d + input %d != prompt %d", s.Read, s.Written(), s.Input, s.PromptTokens)
	}
	return s
}

func TestBreakpointsWriteThenRead(t *testing.T) {
	b := newBP(t)
	req := map[string]any{"system": system(long(1500, "rules"), true, ""), "messages": msgs(1)}
	first := serve(t, b, req, t0)
	if first.Read != 0 || first.Written5m == 0 || first.Input == 0 {
		t.Fatalf("first: %+v, want a write of the system prompt and the message as input", first)
	}
	second := serve(t, b, map[string]any{"system": system(long(1500, "rules"), true, ""), "messages": msgs(3)}, t0.Add(time.Minute))
	if second.Read != first.Written5m || second.Written() != 0 || second.Miss != nil {
		t.Fatalf("second: %+v, want the first's %d tokens read", second, first.Written5m)
	}
}

func TestBreakpointsTTL(t *testing.T) {
	for _, c := range []struct {
		name    string
		ttl     string
		gaps    []time.Duration
		wantHit []bool
	}{
		{"5m: refreshed on use", "", []time.Duration{4 * time.Minute, 4 * time.Minute, 4 * time.Minute}, []bool{true, true, true}},
		{"5m: idle past it", "", []time.Duration{5*time.Minute + time.Second}, []bool{false}},
		{"1h lives past five minutes", "1h", []time.Duration{50 * time.Minute}, []bool{true}},
		{"1h idle past it", "1h", []time.Duration{61 * time.Minute}, []bool{false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBP(t)
			req := map[string]any{"system": system(long(1500, "rules"), true, c.ttl), "messages": msgs(1)}
			first := serve(t, b, req, t0)
			if c.ttl == "1h" && (first.Written1h == 0 || first.Written5m != 0) {
				t.Fatalf("a 1h breakpoint wrote %+v", first)
			}
			at := t0
			for i, g := range c.gaps {
				at = at.Add(g)
				s := serve(t, b, req, at)
				if hit := s.Read > 0; hit != c.wantHit[i] {
					t.Fatalf("after %v: %+v, want hit %v", g, s, c.wantHit[i])
				}
				if !c.wantHit[i] && (s.Miss == nil || s.Miss.Reason != ReasonExpired || s.Miss.Idle != g) {
					t.Fatalf("miss %+v, want expired after %v", s.Miss, g)
				}
			}
		})
	}
}

func TestBreakpointsTooMany(t *testing.T) {
	b := newBP(t)
	_, err := b.Serve(mbody(t, map[string]any{"cache_control": cc, "system": system("s", true, ""), "messages": msgs(4, 0, 1, 2)}), nil, t0)
	var tm *chat.TooManyBreakpoints
	if !errors.As(err, &tm) || tm.N != 5 || err.Error() != "A maximum of 4 blocks with cache_control may be provided. Found 5." {
		t.Fatalf("err %v", err)
	}
	if _, err := b.Serve(mbody(t, map[string]any{"system": system("s", true, ""), "messages": msgs(4, 0, 1, 2)}), nil, t0); err != nil {
		t.Fatalf("four breakpoints: %v", err)
	}
}

func TestBreakpointsLookback(t *testing.T) {
	head := long(1500, "rules")
	for _, c := range []struct {
		moveTo int
		hit    bool
	}{{10, true}, {20, true}, {21, false}, {30, false}} {
		t.Run(fmt.Sprint(c.moveTo), func(t *testing.T) {
			b := newBP(t)
			// Written at the end of message 0 (boundary: the 2 system blocks + 1 = block 2).
			serve(t, b, map[string]any{"system": system(head, false, ""), "messages": msgs(1, 0)}, t0)
			// The only breakpoint now sits on message moveTo: the old one is moveTo blocks before.
			s := serve(t, b, map[string]any{"system": system(head, false, ""), "messages": msgs(c.moveTo+1, c.moveTo)}, t0.Add(time.Minute))
			if hit := s.Read > 0; hit != c.hit {
				t.Fatalf("%+v, want hit %v", s, c.hit)
			}
			if !c.hit && (s.Miss == nil || s.Miss.Reason != ReasonUnreachable) {
				t.Fatalf("miss %+v, want unreachable", s.Miss)
			}
		})
	}
}

func TestBreakpointsMovedMarkKeepsTheCache(t *testing.T) {
	// Claude Code moves its message breakpoint along: the marker is no part of the prompt.
	b := newBP(t)
	head := long(1500, "rules")
	serve(t, b, map[string]any{"system": system(head, true, ""), "messages": msgs(1, 0)}, t0)
	s := serve(t, b, map[string]any{"system": system(head, true, ""), "messages": msgs(3, 2)}, t0.Add(time.Second))
	first := serve(t, newBP(t), map[string]any{"system": system(head, true, ""), "messages": msgs(1, 0)}, t0)
	if s.Read != first.Read+first.Written() {
		t.Fatalf("%+v: want all %d tokens the first request wrote read", s, first.Written())
	}
}

func TestBreakpointsUnmarkedChangeBeforeTheFirst(t *testing.T) {
	// An unmarked block before the first breakpoint that changes (Claude Code's billing block)
	// breaks everything after it, though the tools before it are the same bytes.
	b := newBP(t)
	tools := []any{block{"name": "Read", "description": long(1500, "reads"), "input_schema": block{"type": "object"}}}
	mk := func(bill string) map[string]any {
		return map[string]any{"tools": tools, "system": []any{block{"type": "text", "text": bill}, block{"type": "text", "text": "S", "cache_control": cc}}, "messages": msgs(1)}
	}
	serve(t, b, mk("cc_version=2.1.332.a1b"), t0)
	s := serve(t, b, mk("cc_version=2.1.332.f00"), t0.Add(time.Second))
	if s.Read != 0 || s.Written() == 0 {
		t.Fatalf("%+v: want nothing read, the prefix written again", s)
	}
}

func TestBreakpointsUnderMinimum(t *testing.T) {
	for model, n := range map[string]int{"claude-sonnet-4-5": 1024, "claude-opus-4-6": 4096, "claude-3-haiku-20240307": 2048} {
		if got := AnthropicMinimum(model); got != n {
			t.Errorf("AnthropicMinimum(%s) = %d, want %d", model, got, n)
		}
	}
	b := newBP(t)
	req := map[string]any{"model": "claude-opus-4-6", "system": system(long(1500, "rules"), true, ""), "messages": msgs(1)}
	s := serve(t, b, req, t0)
	s = serve(t, b, req, t0.Add(time.Second))
	if s.Read != 0 || s.Written() != 0 || s.Miss == nil || s.Miss.Reason != ReasonUnderMinimum || s.Miss.Minimum != 4096 {
		t.Fatalf("%+v %+v: a 1500-token prefix is under Opus 4.6's 4096", s, s.Miss)
	}
	req["model"] = "claude-sonnet-4-5"
	serve(t, b, req, t0.Add(2*time.Second))
	if s := serve(t, b, req, t0.Add(3*time.Second)); s.Read == 0 {
		t.Fatalf("%+v: over Sonnet's 1024 it is cached", s)
	}
}

func TestBreakpointsKeys(t *testing.T) {
	// An effort change keeps the tools and system entries, loses the messages one.
	b := newBP(t)
	head := long(1500, "rules")
	mk := func(effort string) map[string]any {
		return map[string]any{"system": system(head, true, ""), "messages": msgs(3, 2), "output_config": block{"effort": effort}}
	}
	first := serve(t, b, mk("high"), t0)
	second := serve(t, b, mk("low"), t0.Add(time.Second))
	if second.Read == 0 || second.Read >= first.Written5m {
		t.Fatalf("first %+v second %+v: want the system read, the messages not", first, second)
	}
	if m := second.Miss; m == nil || m.Reason != ReasonKey || m.Path != "$.output_config.effort" || m.Old != `"high"` || m.New != `"low"` {
		t.Fatalf("miss %+v", second.Miss)
	}
}

func TestImplicit(t *testing.T) {
	c, err := NewImplicit(ProviderOpenAI, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := func(key, extra string) []byte {
		b, _ := json.Marshal(map[string]any{"model": "gpt-5", "prompt_cache_key": key, "messages": []any{
			block{"role": "system", "content": long(1500, "rules")}, block{"role": "user", "content": "q " + extra}}})
		return b
	}
	s1, _ := c.Serve("/v1/chat/completions", req("a", "1"), t0)
	s2, _ := c.Serve("/v1/chat/completions", req("a", "2"), t0.Add(time.Minute))
	if s1.Read != 0 || s2.Read < 1024 || (s2.Read-1024)%128 != 0 || s2.Miss != nil {
		t.Fatalf("%+v %+v: want the shared system prompt read in steps of 128 past 1024", s1, s2)
	}
	s3, _ := c.Serve("/v1/chat/completions", req("b", "3"), t0.Add(2*time.Minute))
	if s3.Read != 0 || s3.Miss == nil || s3.Miss.Reason != ReasonKey || s3.Miss.Path != "$.prompt_cache_key" {
		t.Fatalf("%+v %+v: another prompt_cache_key", s3, s3.Miss)
	}
	s4, _ := c.Serve("/v1/chat/completions", req("b", "4"), t0.Add(20*time.Minute))
	if s4.Read != 0 || s4.Miss == nil || s4.Miss.Reason != ReasonExpired || s4.Miss.Idle != 18*time.Minute {
		t.Fatalf("%+v %+v: idle past five minutes", s4, s4.Miss)
	}
	g, _ := NewImplicit(ProviderGemini, time.Hour, nil)
	if g.TTL != time.Hour || g.Minimum("gemini-2.5-pro") != 2048 || g.Minimum("gemini-3-pro-preview") != 4096 {
		t.Fatalf("gemini rules %v %d", g.TTL, g.Minimum("gemini-2.5-pro"))
	}
}
