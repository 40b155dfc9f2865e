package cachesim

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

func body(system string, msgs ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"model":"m","messages":[{"role":"system","content":%q}`, system)
	for i, m := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		fmt.Fprintf(&b, `,{"role":%q,"content":%q}`, role, m)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

var sys = strings.Repeat("You are a careful coding agent; keep the prefix stable. ", 20)

func promptOf(t *testing.T, b []byte) tokens.Prompt {
	t.Helper()
	r, err := chat.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := tokens.NewTiktoken()
	return tk.Of(r)
}

func TestOneSlotKeepsAGrowingSession(t *testing.T) {
	c := New(1)
	msgs := []string{"read main.go", "ok, reading", "now fix the bug", "done", "thanks"}
	prev := tokens.Prompt{}
	for i := 1; i <= len(msgs); i++ {
		b := body(sys, msgs[:i]...)
		res, err := c.Serve(b)
		if err != nil {
			t.Fatal(err)
		}
		p := promptOf(t, b)
		if res.PromptTokens != p.N {
			t.Errorf("request %d: %d prompt tokens, want %d", i, res.PromptTokens, p.N)
		}
		if want := tokens.LCP(p, prev); res.CachedTokens != want {
			t.Errorf("request %d: %d cached, want the common prefix with the last one, %d", i, res.CachedTokens, want)
		}
		if i > 1 && res.CachedTokens != prev.N {
			t.Errorf("request %d: only appended, so all %d tokens of the last prompt are cached; got %d", i, prev.N, res.CachedTokens)
		}
		prev = p
	}
	// The date at the head of the system prompt: nearly nothing is reused.
	res, _ := c.Serve(body("Today is 2026-11-06. "+sys, msgs...))
	if res.CachedTokens > 5 {
		t.Errorf("a changed system prompt head kept %d tokens cached", res.CachedTokens)
	}
}

func TestSameRequestReadsItsLastTokenAgain(t *testing.T) {
	c := New(1)
	b := body(sys, "hi")
	first, _ := c.Serve(b)
	again, _ := c.Serve(b)
	if first.CachedTokens != 0 || again.CachedTokens != again.PromptTokens-1 {
		t.Errorf("first %+v, again %+v: want 0 cached, then all but one", first, again)
	}
}

// Two conversations on two slots keep a slot each; a third evicts the least recently used.
func TestSlotsAndLRU(t *testing.T) {
	// Prompts long enough that the few frame tokens they share are under the similarity threshold.
	other := strings.Repeat("Subagent: explore the tree and report what you find. ", 20)
	title := strings.Repeat("Name the conversation in five words or fewer. ", 20)
	c := New(2)
	a1, _ := c.Serve(body(sys, "task A"))
	b1, _ := c.Serve(body(other, "task B"))
	if a1.Slot == b1.Slot {
		t.Fatalf("both conversations on slot %d while one was empty", a1.Slot)
	}
	a2, _ := c.Serve(body(sys, "task A", "working", "go on"))
	b2, _ := c.Serve(body(other, "task B", "sure", "next"))
	if a2.Slot != a1.Slot || b2.Slot != b1.Slot || a2.CachedTokens != a1.PromptTokens || b2.CachedTokens != b1.PromptTokens {
		t.Errorf("each conversation should keep its slot and cache: %+v %+v %+v %+v", a1, a2, b1, b2)
	}
	// A third conversation shares nothing: it takes the least recently used slot (A's).
	c3, _ := c.Serve(body(title, "name this"))
	if c3.Slot != a2.Slot || c3.CachedTokens > 3 { // the frame "<|im_start|>system\n" is common to all
		t.Errorf("third conversation: %+v, want slot %d (least recently used) and nothing but the frame cached", c3, a2.Slot)
	}
	a3, _ := c.Serve(body(sys, "task A", "working", "go on", "x", "y"))
	if a3.CachedTokens >= a2.PromptTokens {
		t.Errorf("A's slot was evicted, yet %d tokens came from cache", a3.CachedTokens)
	}
	if c.Slots() != 2 || len(c.Info()) != 2 {
		t.Errorf("slots %d", c.Slots())
	}
}

func TestEraseMakesTheCacheCold(t *testing.T) {
	c := New(1)
	c.Serve(body(sys, "hi"))
	if !c.Erase(0) || c.Erase(5) {
		t.Fatal("erase")
	}
	res, _ := c.Serve(body(sys, "hi", "hello", "more"))
	if res.CachedTokens != 0 {
		t.Errorf("after erase, %d cached", res.CachedTokens)
	}
	c.EraseAll()
	if c.Info()[0].PromptTokens != 0 {
		t.Error("EraseAll left a prompt")
	}
}

func TestServeRejectsWhatIsNotARequest(t *testing.T) {
	_, err := New(1).Serve([]byte(`{"prompt":"x"}`))
	if err == nil || !strings.Contains(err.Error(), "messages") {
		t.Errorf("error %v", err)
	}
}

// Serve is safe for concurrent use (run with -race).
func TestConcurrentServe(t *testing.T) {
	c := New(4)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i < 20; i++ {
				msgs := make([]string, i)
				for j := range msgs {
					msgs[j] = fmt.Sprintf("conversation %d turn %d", g, j)
				}
				if _, err := c.Serve(body(sys, msgs...)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, s := range c.Info() {
		total += s.PromptTokens
	}
	if total == 0 {
		t.Error("no slot holds a prompt")
	}
}
