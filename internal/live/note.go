package live

import (
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// piece is a text the model reads: one block of one message.
type piece struct {
	at   string // the message's JSON path and the block: "$.messages[3] block 1"
	text string
}

// readOrder is what the person's side of a request says from message from on, in the order the
// model reads it: message by message, block by block (chat.MessageTexts), the assistant's
// messages and the tools' results left out (a file the agent read may hold anything).
func readOrder(r *chat.Request, from int) []piece {
	var out []piece
	for i := max(from, 0); i < len(r.Messages); i++ {
		m := r.Messages[i]
		switch m.Role {
		case "assistant", "model", "tool":
			continue
		}
		if chat.IsToolResult(m.Raw) {
			continue
		}
		for b, t := range chat.MessageTexts(m.Raw) {
			out = append(out, piece{at: fmt.Sprintf("%s block %d", m.Path(), b), text: t})
		}
	}
	return out
}

// placed is where a note stands against the person's words.
type placed struct {
	// words: the person's words were found, as sent; note: the note was found (its text).
	words bool
	note  string
	// after: the note comes after the last of the words; at is where the note is, wordsAt where
	// the words are.
	after       bool
	at, wordsAt string
}

// placeNote finds a note in the messages of r from index from, read as the model reads them,
// against the last of the person's words: after them (a note there is what context.md §10 rule
// 3 asks), else before them. find gives a note's offset in a text and the note as found, or -1.
// A note before the words and another after them is after: the model reads the later one last.
func placeNote(r *chat.Request, from int, words string, find func(string) (int, string)) placed {
	ps := readOrder(r, from)
	words = strings.TrimSpace(words)
	wi, ws, we := -1, 0, 0
	for i := len(ps) - 1; i >= 0 && words != ""; i-- {
		if k := strings.LastIndex(ps[i].text, words); k >= 0 {
			wi, ws, we = i, k, k+len(words)
			break
		}
	}
	var p placed
	look := func(at, text string) bool {
		if k, s := find(text); k >= 0 {
			p.note, p.at = s, at
			return true
		}
		return false
	}
	if wi < 0 {
		for _, x := range ps {
			if look(x.at, x.text) {
				break
			}
		}
		return p
	}
	p.words, p.wordsAt = true, ps[wi].at
	if look(ps[wi].at, ps[wi].text[we:]) {
		p.after = true
		return p
	}
	for _, x := range ps[wi+1:] {
		if look(x.at, x.text) {
			p.after = true
			return p
		}
	}
	for _, x := range ps[:wi] {
		if look(x.at, x.text) {
			return p
		}
	}
	look(ps[wi].at, ps[wi].text[:ws])
	return p
}

// dateFinder finds day d in a text, in any of the forms harnesses write it.
func dateFinder(d time.Time) func(string) (int, string) {
	return func(s string) (int, string) {
		for _, f := range dateForms {
			if t := d.Format(f); strings.Contains(s, t) {
				return strings.Index(s, t), t
			}
		}
		return -1, ""
	}
}

// modeFinder finds a mode's name in a text, in any case.
func modeFinder(mode string) func(string) (int, string) {
	return func(s string) (int, string) {
		if k := strings.Index(strings.ToLower(s), strings.ToLower(mode)); k >= 0 {
			return k, mode
		}
		return -1, ""
	}
}

// String says where the note is, for a verdict: "after the person's words ($.messages[1] block
// 0)", "before the person's words (…; the words at …)".
func (p placed) String() string {
	if p.after {
		return fmt.Sprintf("after the person's words (%s)", p.at)
	}
	if p.at == p.wordsAt {
		return fmt.Sprintf("before the person's words (both at %s, the note first)", p.at)
	}
	return fmt.Sprintf("before the person's words (the note at %s, the words at %s)", p.at, p.wordsAt)
}
