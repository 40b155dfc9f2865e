package refagent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/live/a2a"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
)

// The reference agent over A2A: its card offers streaming and the LLeMbas extension; a
// conversation is one session in the workspace its first message names (the second prompt's
// request holds the first), a mode set through _lembas/configure reaches the next prompt, and a
// method it has not is Unsupported.
func TestServeA2A(t *testing.T) {
	got := &requests{}
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Turn: func(q *wire.Request, body []byte) (*script.Reply, error) {
		got.add(body)
		return &script.Reply{Text: "done"}, nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	urls, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- refagent.ServeA2A(ctx, "127.0.0.1:0", refagent.Options{BaseURL: srv.BaseURL(), Version: "test"}, func(u string) { urls <- u })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeA2A: %v", err)
		}
	})
	dir := t.TempDir()
	never := func(time.Duration) <-chan time.Time { return nil }
	for _, stream := range []bool{false, true} {
		c, err := a2a.Open(ctx, <-urls, a2a.Options{Stream: stream, After: never, Metadata: map[string]any{"coderAgent": map[string]any{"workspacePath": dir}}})
		if err != nil {
			t.Fatal(err)
		}
		urls <- c.Card.URL
		if !c.Card.Capabilities.Streaming || !c.Lembas() {
			t.Errorf("card %+v: want streaming and the LLeMbas extension", c.Card)
		}
		before := len(got.all())
		for _, words := range []string{"first words", "second words"} {
			if said, err := c.Send(ctx, words); err != nil || said != "done" {
				t.Fatalf("stream %v, %q: said %q, %v", stream, words, said, err)
			}
			if words == "first words" {
				if err := c.Configure(ctx, "mode plan", map[string]any{"mode": "plan"}); err != nil {
					t.Fatal(err)
				}
			}
		}
		reqs := got.all()[before:]
		last := reqs[len(reqs)-1]
		var all []string
		for _, m := range last.Messages {
			all = append(all, m.Content)
		}
		text := strings.Join(all, "\n")
		if !strings.Contains(text, "first words") || !strings.Contains(text, "second words") {
			t.Errorf("stream %v: the second prompt's request does not hold the conversation:\n%s", stream, text)
		}
		firstUser := reqs[0].Messages[len(reqs[0].Messages)-1].Content
		lastUser := last.Messages[len(last.Messages)-1].Content
		if strings.Contains(firstUser, "plan") || !strings.Contains(lastUser, "plan") {
			t.Errorf("stream %v: the mode set through _lembas/configure did not reach the next prompt's words:\n%s\nthen\n%s", stream, firstUser, lastUser)
		}
		var u *acp.Unsupported
		if err := c.Call(ctx, "_lembas/no-such-thing", map[string]any{}, nil); !errors.As(err, &u) {
			t.Errorf("an unknown method: %v, want Unsupported", err)
		}
	}
}
