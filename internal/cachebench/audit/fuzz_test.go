package audit

import (
	"context"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

// FuzzAudit: any sequence of request bodies is audited without a panic; every prompt that parses
// is accounted for once, and the totals add up.
func FuzzAudit(f *testing.F) {
	f.Add([]byte(`{"model":"m","messages":[{"role":"system","content":"S 2026-11-05"},{"role":"user","content":"u"}],"tools":[{"function":{"name":"a"}}]}`),
		[]byte(`{"model":"m","messages":[{"role":"system","content":"S 2026-11-06"},{"role":"user","content":"u"},{"role":"tool","content":"x"}],"tools":[]}`),
		[]byte(`{"model":"n","messages":[{"role":"user","content":"Summarise the conversation below so it can be carried forward after the earlier turns are dropped from your context."}]}`))
	f.Add([]byte(`{"input":"x"}`), []byte(`{"instructions":"i","input":[{"role":"user","content":"x"}]}`), []byte(`{"system":"s","messages":[]}`))
	a0, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	tok := a0.tok
	f.Fuzz(func(t *testing.T, b1, b2, b3 []byte) {
		a, _ := New(Options{Tokenizer: tok})
		ok := 0
		for i, b := range [][]byte{b1, b2, b3, b1, b2} {
			q, err := a.Add(context.Background(), replay.Entry{Exchange: replay.Exchange{Seq: i + 1, Method: "POST", Path: "/v1/chat/completions"}, Body: b, Line: i + 1})
			if err == nil && q != nil {
				ok++
				if q.ReusableTokens > q.PromptTokens || q.LostTokens < 0 || q.Fails && !q.Break {
					t.Fatalf("request %d: %+v", i+1, q)
				}
			}
		}
		r := a.Report()
		if r.Totals.Requests != ok || ok+len(r.Unreadable) != 5 {
			t.Fatalf("%d audited, %d unreadable, of 5", r.Totals.Requests, len(r.Unreadable))
		}
	})
}
