package bench

import (
	"bytes"
	"io"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// scanned is the one pass over a recording: its exchanges decoded (each body checked against
// its SHA-256 once), its prompt requests (the runs' totals) and the models its requests name
// (what the simulator serves). Every later stage — each run's prediction and replay, every
// session — reads the decoded exchanges from memory: the file was read and hashed once per
// stage, per run and per session, a third of `bench --sim`. Each body is held as what it adds to
// the one before it (held), so that a session which resends its history in every request costs
// memory for what it adds, not for its length squared; only a recording that adds more than
// keepBytes is read again by each stage, as before.
type scanned struct {
	once    sync.Once
	kept    bool
	entries []held
	prompts int
	models  []string
	err     error // the damage that stopped the pass, with what came before it kept
}

// scan is the recording's pass, made once when Recordings (or Bench) made the recording (else
// each time).
func (r Recording) scan() (prompts int, models []string, err error) {
	s := r.scanned
	if s == nil {
		s = &scanned{}
	}
	s.once.Do(func() { s.entries, s.kept, s.prompts, s.models, s.err = scanRecording(r.Open) })
	return s.prompts, s.models, s.err
}

// keepBytes bounds the bytes a recording's pass keeps for the later stages: what its bodies add
// to the ones before them (a variable for the test of a longer recording). The 2,000-request,
// 147 MB session the audit is timed on adds a few MB.
var keepBytes = 64 << 20

// held is an exchange as the pass keeps it: its body as the bytes between the prefix and the
// suffix it shares with the body before it (the history resent, then the tools after it).
type held struct {
	e              replay.Entry // without its Body, nor the stored body (a slice of its line)
	prefix, suffix int
	mid            []byte
}

// delta is body as held after prev.
func delta(e replay.Entry, prev []byte) held {
	body := e.Body
	p := chat.CommonPrefix(prev, body)
	sfx := min(chat.CommonSuffix(prev, body), min(len(prev), len(body))-p)
	e.Body, e.Exchange.Request.Body = nil, nil
	return held{e: e, prefix: p, suffix: sfx, mid: bytes.Clone(body[p : len(body)-sfx])}
}

// entry is h's exchange with its body put back after prev's.
func (h held) entry(prev []byte) replay.Entry {
	body := make([]byte, 0, h.prefix+len(h.mid)+h.suffix)
	body = append(append(append(body, prev[:h.prefix]...), h.mid...), prev[len(prev)-h.suffix:]...)
	e := h.e
	e.Body = body
	return e
}

// source is the recording for one stage: its exchanges as the one pass decoded them, or, for a
// recording too long to keep or a Recording made without that pass, the file opened again.
func (r Recording) source() (replay.Source, io.Closer, error) {
	if r.scanned == nil {
		return r.Open()
	}
	if r.scan(); !r.scanned.kept {
		return r.Open()
	}
	return &decoded{entries: r.scanned.entries, err: r.scanned.err}, io.NopCloser(nil), nil
}

func scanRecording(open Open) (entries []held, kept bool, prompts int, models []string, err error) {
	src, c, err := open()
	if err != nil {
		return nil, false, 0, nil, err
	}
	defer c.Close()
	seen := map[string]bool{}
	kept, size := true, 0
	var prev []byte
	for e, err := range replay.Entries(src) {
		if err != nil {
			return entries, kept, prompts, models, err
		}
		if kept {
			h := delta(e, prev)
			if size += len(h.mid) + len(e.Prompt); size > keepBytes {
				kept, entries = false, nil
			} else {
				entries = append(entries, h)
			}
		}
		prev = e.Body
		if replay.IsPrompt(e.Exchange) {
			prompts++
		}
		if r, err := chat.Parse(e.Body); err == nil && r.Model != "" && !seen[r.Model] {
			seen[r.Model] = true
			models = append(models, r.Model)
		}
	}
	return entries, kept, prompts, models, nil
}

// decoded gives a recording's decoded exchanges, then the error its pass ended with (io.EOF for
// a whole file). The entries are shared by every stage and never written: a stage that changes
// a body (a variant, a session's mark, --max-tokens) makes a new one.
type decoded struct {
	entries []held
	next    int
	prev    []byte // the body given last
	err     error
}

func (d *decoded) Next() (replay.Entry, error) {
	if d.next < len(d.entries) {
		d.next++
		e := d.entries[d.next-1].entry(d.prev)
		d.prev = e.Body
		return e, nil
	}
	if d.err != nil {
		return replay.Entry{}, d.err
	}
	return replay.Entry{}, io.EOF
}
