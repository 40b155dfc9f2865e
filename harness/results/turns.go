package results

import "fmt"

// Turns: a session's results are inserted turn by turn, and a turn can be taken back (an undo, a
// rewind). context.md §2: "after an undo, a rewind or a compaction they are gone — a read is
// answered in full"; §7: "A turn taken back (an undo, a rewind, a reply regenerated or deleted)
// takes its reads with it". Ids keep counting: a taken-back result stays stored under its id,
// which is never given again (§1: "Unique in the session and never reused").

// Turn begins the session's next turn (a person's next message): the request still carries every
// earlier result, so the dedupe table is kept. The session's first turn begins with it.
func (s *Session) Turn() {
	s.turn++
	s.turns = append(s.turns, s.turn)
}

// Turns is how many turns a rewind may take back now: those since the last compaction (or the
// session's start), the one running included.
func (s *Session) Turns() int { return len(s.turns) }

// Rewind takes back the newest n turns (an undo is 1): their results leave the request being
// built — the dedupe table no longer holds them, so a read after it is in full — and the history
// a compaction covers; they stay stored, and their ids are not given again. What follows is a new
// turn (the person's new prompt). A turn before the last compaction is in its summary and cannot
// be taken back.
func (s *Session) Rewind(n int) error {
	if n < 1 || n > len(s.turns) {
		return fmt.Errorf("a rewind of %d turns: the session has %d since its last compaction (or its start)", n,
			len(s.turns))
	}
	cut := s.turns[len(s.turns)-n] // the oldest turn taken back; turns count up, so every later one goes too
	s.turns = s.turns[:len(s.turns)-n]
	for k, rs := range s.reads {
		kept := rs[:0]
		for _, r := range rs {
			if r.turn < cut {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			delete(s.reads, k)
		} else {
			s.reads[k] = kept
		}
	}
	for k, c := range s.calls {
		if c.turn >= cut {
			delete(s.calls, k)
		}
	}
	covered := s.covered[:0]
	for _, r := range s.covered {
		if r.turn < cut {
			covered = append(covered, r)
		}
	}
	s.covered = covered
	s.Turn()
	return nil
}
