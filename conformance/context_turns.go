package conformance

import (
	"fmt"
	"slices"
	"strings"
)

// The steps of turns and compaction's summary reply, lembas-check's own (issue 28): `turn` (the
// person's next message: the request still carries every earlier result), `undo` and `rewind`
// (the newest turn, or `turns` of them, taken back), and a `compact` step's `summary`, what the
// model's reply to the summary request holds.

// summaryKinds are a compaction's `summary` values: a summary (the default); a summary, then a
// tool call, which is not run; a call with no text before it; no text at all. The last two fail
// the compaction (context.md §7: "A tool call in the summary's reply is not run; its text before
// the call is the summary, and a reply with none fails the compaction as an empty one does").
var summaryKinds = []string{"text", "text_and_call", "call", "empty"}

// summarised says whether a compaction with that summary reply succeeds (nil: a summary).
func summarised(kind *string) bool { return kind == nil || *kind == "text" || *kind == "text_and_call" }

// validateTurns checks each rewind against the turns there are to take back, and each summary's
// kind. The session's first turn begins with it; `turn` and `reply` begin another; a compaction
// that succeeds leaves one (the turn after the summary), since the turns before it are in the
// summary; an undo or a rewind leaves a new turn after what it took back.
func validateTurns(steps []ContextStep) error {
	turns := 1
	for i, s := range steps {
		at := func(f string) string { return fmt.Sprintf("steps[%d].%s", i, f) }
		switch s.Op {
		case "turn", "reply":
			turns++
		case "compact":
			if s.Summary != nil && !slices.Contains(summaryKinds, *s.Summary) {
				return Fieldf(at("summary"), "%q: the summary reply is %s", *s.Summary,
					strings.Join(summaryKinds, ", "))
			}
			if summarised(s.Summary) {
				turns = 1
			}
		case "undo", "rewind":
			n := 1
			if s.Turns != nil {
				n = *s.Turns
			}
			if n < 1 {
				return Fieldf(at("turns"), "is %d; a rewind takes back at least one turn", n)
			}
			if n > turns {
				return Fieldf(at(map[bool]string{true: "turns", false: "op"}[s.Turns != nil]),
					"takes back %d turns, and the session has %d since its start or its last compaction (whose "+
						"summary holds the turns before it): the spec gives no answer for more", n, turns)
			}
			turns = turns - n + 1
		}
	}
	return nil
}
