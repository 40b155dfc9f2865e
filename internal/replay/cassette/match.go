package cassette

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Key is a request as it is compared: its method, its path and its body normalised.
type Key struct {
	Method, Path string
	// Body is the body as canonical JSON (members sorted, no spaces), every rule applied; a body
	// that is not JSON is kept as its bytes, the patterns applied.
	Body []byte
}

// Normalize is the key of a request under the rules.
func (r *Rules) Normalize(method, path string, body []byte) Key {
	return Key{Method: method, Path: r.text(path), Body: r.body(body)}
}

func (r *Rules) text(s string) string {
	for _, p := range r.Patterns {
		if p.RE.MatchString(s) {
			s = p.RE.ReplaceAllLiteralString(s, "<"+p.Name+">")
		}
	}
	return s
}

func (r *Rules) body(b []byte) []byte {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return []byte(r.text(string(b)))
	}
	for _, p := range r.Paths {
		v = omit(v, p)
	}
	// Not json.Marshal: it would write the normalised values' < and > as \u003c and \u003e.
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.walk(v)); err != nil {
		return []byte(r.text(string(b)))
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// omit replaces the value at a member path with "<omitted>".
func omit(v any, path []string) any {
	m, ok := v.(map[string]any)
	if !ok || len(path) == 0 {
		return v
	}
	child, ok := m[path[0]]
	if !ok {
		return v
	}
	if len(path) == 1 {
		m[path[0]] = "<omitted>"
	} else {
		m[path[0]] = omit(child, path[1:])
	}
	return m
}

// walk applies the patterns to every string of a decoded value (member names kept).
func (r *Rules) walk(v any) any {
	switch x := v.(type) {
	case string:
		return r.text(x)
	case []any:
		for i := range x {
			x[i] = r.walk(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = r.walk(e)
		}
	}
	return v
}

// Recorded is one exchange of a cassette: its key and its answer.
type Recorded struct {
	Seq  int
	Line int
	Key  Key
	// Response is the recorded answer; nil when the client had gone before it.
	Response *replay.Response
	// FirstByte is when its first byte was sent, from its start (the whole body's time).
	FirstByte time.Duration
}

// Match is the exchange a request's key plays: the first unused one with the same key, in the
// recording's order, so that two identical requests get the answers they got in turn; when
// every such exchange was used, the last of them again (repeat). ok is false when none has
// the key.
func Match(recs []Recorded, used []bool, k Key) (i int, repeat, ok bool) {
	last := -1
	for j := range recs {
		if !same(recs[j].Key, k) {
			continue
		}
		if !used[j] {
			return j, false, true
		}
		last = j
	}
	return last, last >= 0, last >= 0
}

func same(a, b Key) bool {
	return a.Method == b.Method && a.Path == b.Path && bytes.Equal(a.Body, b.Body)
}

// Nearest is the recorded exchange a request that matched none comes nearest to: of those with
// its method and path (else any), the one whose body shares the longest prefix with it — the
// conversation it continues —; on a tie the one nearest its length (as many turns), then the
// first unused one, then the first. -1: the cassette is empty.
func Nearest(recs []Recorded, used []bool, k Key) int {
	best := -1
	var bs nearness
	for j, rec := range recs {
		n := nearness{route: rec.Key.Method == k.Method && rec.Key.Path == k.Path,
			prefix: commonPrefix(rec.Key.Body, k.Body), diff: abs(len(rec.Key.Body) - len(k.Body)), unused: !used[j]}
		if best < 0 || n.nearer(bs) {
			best, bs = j, n
		}
	}
	return best
}

// nearness is how near a recorded request is to one sent, in the order Nearest weighs it.
type nearness struct {
	route        bool
	prefix, diff int
	unused       bool
}

func (a nearness) nearer(b nearness) bool {
	switch {
	case a.route != b.route:
		return a.route
	case a.prefix != b.prefix:
		return a.prefix > b.prefix
	case a.diff != b.diff:
		return a.diff < b.diff
	}
	return a.unused && !b.unused
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Miss is a request no recorded exchange matches, and where it parts from the nearest one.
type Miss struct {
	Key Key
	// Nearest is the nearest recorded exchange (nil: the cassette holds none).
	Nearest *Recorded
	// Path is the first JSON path where the bodies differ, as the audit names a break
	// ($.messages[0].content); "" when the method or path differs, or one body is empty.
	Path string
	// Change is how the body differs there: the recorded and the sent text around it.
	Change audit.Change
}

// Explain is the miss of key k against the nearest exchange.
func Explain(recs []Recorded, used []bool, k Key) *Miss {
	m := &Miss{Key: k}
	j := Nearest(recs, used, k)
	if j < 0 {
		return m
	}
	m.Nearest = &recs[j]
	if m.Nearest.Key.Method == k.Method && m.Nearest.Key.Path == k.Path {
		m.Path, m.Change = audit.FirstPath("$", m.Nearest.Key.Body, k.Body)
	}
	return m
}

func (m *Miss) Error() string {
	what := m.Key.Method + " " + m.Key.Path
	if m.Nearest == nil {
		return fmt.Sprintf("no recorded exchange matches %s: the cassette holds none", what)
	}
	n := m.Nearest
	where := fmt.Sprintf("exchange %d (line %d)", n.Seq, n.Line)
	if n.Key.Method != m.Key.Method || n.Key.Path != m.Key.Path {
		return fmt.Sprintf("no recorded exchange matches %s: the cassette has no %s; nearest is %s, %s %s", what,
			what, where, n.Key.Method, n.Key.Path)
	}
	if m.Path == "" {
		return fmt.Sprintf("no recorded exchange matches %s: nearest is %s, whose body differs", what, where)
	}
	return fmt.Sprintf("no recorded exchange matches %s: nearest is %s, first differing at %s: recorded %s, sent %s",
		what, where, m.Path, quote(m.Change.Old), quote(m.Change.New))
}

func quote(s string) string {
	if s == "" {
		return "nothing"
	}
	return "«" + strings.TrimSpace(s) + "»"
}
