package refagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// The model's memory call changes what is remembered, and its result says so: the next message
// notes nothing, and the prompt stays as it was; broken, the change is noted as the person's.
func TestMemoryTool(t *testing.T) {
	for _, brk := range []string{"", refagent.BreakOwnMemoryNoted} {
		o := refagent.Options{}
		if brk != "" {
			o.Break = []string{brk}
		}
		clock, _ := fixed(t, "2026-11-04 12:00:00")
		o.Clock = clock
		c, s, got := start(t, t.TempDir(), o, call("c1", "memory", `{"content":"Prefers tabs.\n§\nUses fish."}`),
			script.Reply{Text: "ok"})
		ctx := context.Background()
		for _, w := range []string{"remember it", "next"} {
			if _, _, err := c.Prompt(ctx, s.ID, w); err != nil {
				t.Fatal(err)
			}
		}
		reqs := got.all()
		if r := lastResult(reqs); !strings.HasSuffix(r, "Remembered. The memory is now:\nPrefers tabs.\n§\nUses fish.") {
			t.Errorf("%q: the result %q", brk, r)
		}
		last := reqs[len(reqs)-1].Messages
		noted := strings.Contains(last[len(last)-1].Content, "remembered")
		if noted != (brk != "") || last[0].Content != reqs[0].Messages[0].Content {
			t.Errorf("%q: the next message is %q (noted %v), the prompt kept: %v", brk, last[len(last)-1].Content, noted,
				last[0].Content == reqs[0].Messages[0].Content)
		}
	}
}
