package livetarget

import (
	"encoding/json"
	"strings"
	"testing"
)

// A note a later request no longer carries after the person's words is shown after the note; one
// carried as sent, or a history a compaction replaced, is not.
func TestNoteKept(t *testing.T) {
	slotOf := func(reset bool, users ...string) *slot {
		msgs := []map[string]string{{"role": "system", "content": "s"}}
		for _, u := range users {
			msgs = append(msgs, map[string]string{"role": "user", "content": u})
		}
		b, _ := json.Marshal(map[string]any{"model": "fake-model", "messages": msgs})
		q, err := parseRequest(b)
		if err != nil {
			t.Fatal(err)
		}
		return &slot{body: b, req: q, reset: reset}
	}
	note := "<session-note>\nToday is 2026-11-05.\n</session-note>"
	first := slotOf(false, "words 1\n\n"+note)
	kept := []*slot{first, slotOf(false, "words 1\n\n"+note, "words 2"), slotOf(true, "summary")}
	if got := noteKept(kept, first, "words 1", note); got != note {
		t.Errorf("a note kept: %v", got)
	}
	dropped := []*slot{first, slotOf(false, "words 1", "words 2")}
	if got, _ := noteKept(dropped, first, "words 1", note).(string); !strings.Contains(got, "in a later request") {
		t.Errorf("a note dropped later: %q", got)
	}
}

// A session that offers recall and leaves prompts/blocks/context.md out of its prompt is said so.
func TestWithRecallBlock(t *testing.T) {
	q := &request{system: "You are a harness."}
	if got := withRecallBlock(q, []string{"read"}, 1); got != 1 {
		t.Errorf("no recall: %v", got)
	}
	if got, _ := withRecallBlock(q, []string{"read", "recall"}, 1).(string); !strings.Contains(got, "lacks") {
		t.Errorf("recall without the block: %q", got)
	}
}
