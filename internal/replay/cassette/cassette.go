package cassette

import (
	"fmt"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/internal/replay/redact"
)

// Cassette is a recording loaded to be played: its exchanges, which of them were played, and
// the rules their requests are compared by. It is safe for concurrent use (an agent may send
// a title request beside its turn).
type Cassette struct {
	File  string
	Rules *Rules
	// Redact, when set, scrubs a request as its recording was scrubbed before it is compared, so
	// that a key the agent sends matches the marker recorded in its place.
	Redact *redact.Rules
	recs   []Recorded
	mu     sync.Mutex
	used   []bool
}

// Open loads a recording to be played by the rules (nil: Builtin).
func Open(path string, rules *Rules) (*Cassette, error) {
	entries, r, err := replay.ReadAll(path)
	if err != nil {
		return nil, fmt.Errorf("--cassette: %v", err)
	}
	if r.Kind != replay.KindRecording {
		return nil, fmt.Errorf("--cassette %s: a %s holds no answers; give a recording (docs/recording.md)", path,
			r.Kind)
	}
	c := New(entries, rules)
	c.File = path
	if len(c.recs) == 0 {
		return nil, fmt.Errorf("--cassette %s: no exchange with an answer to play", path)
	}
	return c, nil
}

// New is the cassette of recorded entries. An exchange with no answer (its client went away)
// and WebSocket turns (a connection's messages, not an HTTP answer) are left out.
func New(entries []replay.Entry, rules *Rules) *Cassette {
	if rules == nil {
		rules = Builtin()
	}
	c := &Cassette{Rules: rules}
	for _, e := range entries {
		x := e.Exchange
		if x.Response == nil || x.Transport != "" || x.Response.WebSocket || x.Response.Status == 101 {
			continue
		}
		c.recs = append(c.recs, Recorded{Seq: x.Seq, Line: e.Line, Key: rules.Normalize(x.Method, x.Path, e.Body),
			Response: x.Response, FirstByte: ms(x.Timing.FirstByteMS)})
	}
	c.used = make([]bool, len(c.recs))
	return c
}

// Len is how many exchanges the cassette can play.
func (c *Cassette) Len() int { return len(c.recs) }

// Play chooses the recorded exchange that answers a request and marks it played; a miss says
// why none does.
func (c *Cassette) Play(method, path string, body []byte) (rec *Recorded, repeat bool, miss *Miss) {
	if c.Redact != nil {
		path, body = c.Redact.Text(path, redact.Counts{}), c.Redact.Body(body, redact.Counts{})
	}
	k := c.Rules.Normalize(method, path, body)
	c.mu.Lock()
	defer c.mu.Unlock()
	i, repeat, ok := Match(c.recs, c.used, k)
	if !ok {
		return nil, false, Explain(c.recs, c.used, k)
	}
	c.used[i] = true
	return &c.recs[i], repeat, nil
}

// Unplayed are the seqs of the exchanges not played yet.
func (c *Cassette) Unplayed() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for i, u := range c.used {
		if !u {
			out = append(out, c.recs[i].Seq)
		}
	}
	return out
}

// Schedule is when each write of a recorded answer was made, from the exchange's start: each
// chunk's offset for a stream, the first byte's time for a whole body.
func (r *Recorded) Schedule() []time.Duration {
	if !r.Response.Stream {
		return []time.Duration{r.FirstByte}
	}
	out := make([]time.Duration, len(r.Response.Chunks))
	for i, ch := range r.Response.Chunks {
		out[i] = ms(ch.MS)
	}
	return out
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
