package bench

import (
	"io"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// scanned is the one pass over a recording: its exchanges decoded (each body checked against
// its SHA-256 once), its prompt requests (the runs' totals) and the models its requests name
// (what the simulator serves). When its bodies fit in keepBytes, every later stage — each run's
// prediction and replay, every session — reads the decoded exchanges from memory: the file was
// read and hashed once per stage, per run and per session, a third of `bench --sim`. A longer
// recording is read again by each stage, as before: held whole, a session that resends its
// history each request costs several times its file in memory.
type scanned struct {
	once    sync.Once
	kept    bool
	entries []replay.Entry
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

// keepBytes bounds the bodies a recording's pass keeps for the later stages (a variable for
// the test of a longer recording).
var keepBytes = 8 << 20

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

func scanRecording(open Open) (entries []replay.Entry, kept bool, prompts int, models []string, err error) {
	src, c, err := open()
	if err != nil {
		return nil, false, 0, nil, err
	}
	defer c.Close()
	seen := map[string]bool{}
	kept, size := true, 0
	for e, err := range replay.Entries(src) {
		if err != nil {
			return entries, kept, prompts, models, err
		}
		if size += len(e.Body) + len(e.Prompt); kept && size > keepBytes {
			kept, entries = false, nil
		}
		if kept {
			entries = append(entries, e)
		}
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
	entries []replay.Entry
	next    int
	err     error
}

func (d *decoded) Next() (replay.Entry, error) {
	if d.next < len(d.entries) {
		d.next++
		return d.entries[d.next-1], nil
	}
	if d.err != nil {
		return replay.Entry{}, d.err
	}
	return replay.Entry{}, io.EOF
}
