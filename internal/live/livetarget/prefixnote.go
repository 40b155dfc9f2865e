package livetarget

import (
	"fmt"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/prompts"
)

// noteKept is a user step's note as the request after it carried it, checked against every later
// request of the session until a compaction replaces the history: context.md §10 rule 3, "A note
// is part of that message from then on, like anything sent". A later request whose message of
// those words ends otherwise is shown after the note.
func noteKept(seq []*slot, at *slot, words string, note any) any {
	want, _ := note.(string)
	k := slices.Index(seq, at)
	if k < 0 {
		return note
	}
	for _, s := range seq[k+1:] {
		if s.reset {
			break
		}
		if s.req == nil {
			continue
		}
		for _, m := range s.req.msgs {
			i := strings.Index(m.text, words)
			if m.role != "user" || i < 0 {
				continue
			}
			if got := strings.TrimSpace(m.text[i+len(words):]); got != want {
				return fmt.Sprintf("%v (in a later request the message reads: %s)", note, m.text)
			}
		}
	}
	return note
}

// withRecallBlock is a request's system number, or where the session offers recall and its
// system prompt lacks prompts/blocks/context.md (its text after the comment that says what it is
// for), that it lacks it: context.md §9, "`prompts/blocks/context.md`, in every session that has
// `recall`".
func withRecallBlock(q *request, offered []string, number int) any {
	if !slices.Contains(offered, "recall") {
		return number
	}
	block, err := prompts.Body("blocks/context.md")
	if err != nil {
		return number
	}
	if !strings.Contains(q.system, block) {
		return fmt.Sprintf("(system prompt %d lacks prompts/blocks/context.md, and the session offers recall)", number)
	}
	return number
}
