// Package redact keeps secrets out of recordings: it finds the common providers' key shapes,
// high-entropy values of fields that hold credentials, and a rules file's own patterns and JSON
// paths, and replaces each with a marker naming its kind. Counts are kept, never values.
package redact

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"go.yaml.in/yaml/v3"
)

// shape is one kind of secret and the pattern that finds it.
type shape struct {
	Kind string
	re   *regexp.Regexp
	// need are literals one of which is in every text re matches (ASCII case aside when fold),
	// so a text holding none is not searched: a body is mostly prose and code, and the seven
	// patterns over every body were most of what recording costs. None: always searched.
	need []string
	fold bool
}

// builtin are the key shapes of the common providers, most specific first (sk-ant- before sk-);
// compiled on first use, so that a command that records nothing pays nothing at start.
var builtin = sync.OnceValue(func() []shape {
	return []shape{
		{"anthropic-key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), []string{"sk-ant-"}, false},
		{"openai-key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), []string{"sk-"}, false},
		{"google-key", regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}`), []string{"AIza"}, false},
		{"aws-access-key", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), []string{"AKIA", "ASIA"}, false},
		{"aws-secret-key", regexp.MustCompile(`(?i)(aws_?secret_?(?:access_?)?key["'\s:=\\]+)[A-Za-z0-9/+]{40}`),
			[]string{"aws"}, true},
		{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`),
			[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, false},
	}
})

// credentialField finds a JSON member whose name says it holds a credential, and its string
// value; the value is scrubbed when it looks random (entropy), not when it is a word.
var credentialField = lazyre.New(
	`(?i)("(?:api_?key|apikey|access_?token|auth_?token|secret|client_?secret|password|token)"` +
		`\s*:\s*")([^"\\]{16,})"`)

// credentialNeed are credentialField's literals: every name it matches ends in one of them.
var credentialNeed = []string{`key"`, `token"`, `secret"`, `password"`}

// anchor is one literal of a pattern's need, and the pattern's bit.
type anchor struct {
	lit  string
	fold bool
	bit  uint64
}

// filter finds, in one pass over a text, which patterns' literals it holds: each position's byte
// picks the few literals that begin with it. Searching for each literal on its own was a scan of
// the text per literal, thirteen of them.
type filter struct {
	first  [256][]anchor
	always uint64 // the patterns with no literal: always searched
	folds  uint64 // the patterns whose literals ignore case
	many   bool   // more patterns than bits: every one is searched
}

// credentialBit is credentialField's bit.
const credentialBit = 1 << 63

func newFilter(shapes []shape) *filter {
	f := &filter{}
	add := func(need []string, fold bool, bit uint64) {
		if len(need) == 0 {
			f.always |= bit
		}
		if fold {
			f.folds |= bit
		}
		for _, n := range need {
			c := n[0]
			f.first[c] = append(f.first[c], anchor{n, fold, bit})
			if u := c - ('a' - 'A'); fold && c >= 'a' && c <= 'z' {
				f.first[u] = append(f.first[u], anchor{n, fold, bit})
			}
		}
	}
	f.many = len(shapes) > 63
	for i, sh := range shapes[:min(len(shapes), 63)] {
		add(sh.need, sh.fold, 1<<i)
	}
	add(credentialNeed, true, credentialBit)
	return f
}

// matches is the bits of the patterns that may match s.
func (f *filter) matches(s string) uint64 {
	if f.many {
		return ^uint64(0)
	}
	got := f.always
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 && (strings.HasPrefix(s[i:], "\u017f") || strings.HasPrefix(s[i:], "\u212a")) {
			// (?i) folds s with ſ and k with the Kelvin sign too: every pattern ignoring case is searched.
			got |= f.folds
			continue
		}
		for _, a := range f.first[c] {
			if got&a.bit != 0 || len(s)-i < len(a.lit) {
				continue
			}
			// The second byte first (every literal has two): most places fail there.
			if d := s[i+1]; d != a.lit[1] && (!a.fold || d|0x20 != a.lit[1]) {
				continue
			}
			if w := s[i : i+len(a.lit)]; w == a.lit || a.fold && strings.EqualFold(w, a.lit) {
				got |= a.bit
			}
		}
	}
	return got
}

// Rules are what is scrubbed: the built-in shapes, then a rules file's patterns and paths.
type Rules struct {
	shapes []shape
	filter *filter
	// paths are JSON member paths ($.a.b) whose values are replaced wholesale, in bodies.
	paths [][]string
}

// Counts is how many values of each kind were scrubbed.
type Counts map[string]int

// Add adds c's counts to n.
func (n Counts) Add(c Counts) {
	for k, v := range c {
		n[k] += v
	}
}

// Builtin is the rules without a file.
func Builtin() *Rules {
	sh := builtin()
	return &Rules{shapes: slices.Clone(sh), filter: builtinFilter()}
}

var builtinFilter = sync.OnceValue(func() *filter { return newFilter(builtin()) })

// file is a rules file: regular expressions (RE2) and JSON paths.
type file struct {
	Patterns []string `yaml:"patterns"`
	Paths    []string `yaml:"paths"`
}

// Load reads a rules file (YAML or JSON: {patterns: [RE2...], paths: [$.a.b...]}) on top of
// the built-in shapes.
func Load(path string) (*Rules, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--redact: %v", err)
	}
	var f file
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("--redact %s: %v (want patterns: [regexp...] and paths: [$.a.b...])", path, err)
	}
	r := Builtin()
	for i, p := range f.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("--redact %s: patterns[%d] %q: %v", path, i, p, err)
		}
		r.shapes = append(r.shapes, shape{Kind: fmt.Sprintf("pattern-%d", i+1), re: re, need: literalNeed(re)})
	}
	for i, p := range f.Paths {
		rest, ok := strings.CutPrefix(p, "$.")
		if !ok || rest == "" {
			return nil, fmt.Errorf("--redact %s: paths[%d] %q: want a member path such as $.metadata.user_id", path, i,
				p)
		}
		r.paths = append(r.paths, strings.Split(rest, "."))
	}
	r.filter = newFilter(r.shapes)
	return r, nil
}

// literalNeed is a rules file pattern's literal start, when it has one (none: always searched).
// A pattern that ignores case has none: LiteralPrefix gives "" then.
func literalNeed(re *regexp.Regexp) []string {
	if p, _ := re.LiteralPrefix(); p != "" {
		return []string{p}
	}
	return nil
}

// Kinds names what the rules scrub, for a recording's header.
func (r *Rules) Kinds() []string {
	var out []string
	for _, s := range r.shapes {
		out = append(out, s.Kind)
	}
	out = append(out, "credential-field")
	for _, p := range r.paths {
		out = append(out, "$."+strings.Join(p, "."))
	}
	return out
}

func marker(kind string) string { return "[REDACTED:" + kind + "]" }

// span is a secret found in a text: [start, end) and its kind.
type span struct {
	start, end int
	kind       string
}

// find lists the secrets in s, in order, none overlapping.
func (r *Rules) find(s string) []span { return r.search(s, true) }

// search is find, skipping the patterns whose literals s does not hold when filter is set.
func (r *Rules) search(s string, filter bool) []span {
	var out []span
	may := ^uint64(0)
	if filter && r.filter != nil { // a Rules made by hand has no filter: every pattern runs
		may = r.filter.matches(s)
	}
	taken := func(a, b int) bool {
		for _, x := range out {
			if a < x.end && x.start < b {
				return true
			}
		}
		return false
	}
	for i, sh := range r.shapes {
		if i < 63 && may&(1<<i) == 0 {
			continue
		}
		for _, m := range sh.re.FindAllStringSubmatchIndex(s, -1) {
			a, b := m[0], m[1]
			if len(m) >= 4 && m[2] >= 0 { // a prefix group (aws_secret_key=) is kept
				a = m[3]
			}
			if !taken(a, b) {
				out = append(out, span{a, b, sh.Kind})
			}
		}
	}
	if may&credentialBit == 0 {
		return sortSpans(out)
	}
	for _, m := range credentialField().FindAllStringSubmatchIndex(s, -1) {
		if v := s[m[4]:m[5]]; entropy(v) >= 3.5 && !taken(m[4], m[5]) {
			out = append(out, span{m[4], m[5], "credential-field"})
		}
	}
	return sortSpans(out)
}

func sortSpans(out []span) []span {
	slices.SortFunc(out, func(a, b span) int { return a.start - b.start })
	return out
}

// entropy is the Shannon entropy of s in bits per character: a random token's is high, a word's
// or a placeholder's ("<your key here>") low.
func entropy(s string) float64 {
	freq := map[rune]float64{}
	n := 0.0
	for _, c := range s {
		freq[c]++
		n++
	}
	h := 0.0
	for _, f := range freq {
		p := f / n
		h -= p * math.Log2(p)
	}
	return h
}

// Text scrubs s, adding to counts.
func (r *Rules) Text(s string, counts Counts) string {
	spans := r.find(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.start])
		b.WriteString(marker(sp.kind))
		counts[sp.kind]++
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// Body scrubs a JSON (or any) body: the rules file's paths first, then the shapes.
func (r *Rules) Body(b []byte, counts Counts) []byte {
	for _, p := range r.paths {
		b = replacePath(b, p, counts)
	}
	return []byte(r.Text(string(b), counts))
}

// replacePath replaces the value at a member path of a JSON object with a marker string.
func replacePath(b []byte, path []string, counts Counts) []byte {
	off, end := 0, len(b)
	for _, k := range path {
		st, en, ok := chat.Member(b[off:end], k)
		if !ok {
			return b
		}
		off, end = off+st, off+en
	}
	kind := "$." + strings.Join(path, ".")
	counts[kind]++
	out := append([]byte{}, b[:off]...)
	out = append(out, '"')
	out = append(out, marker(kind)...)
	out = append(out, '"')
	return append(out, b[end:]...)
}

// Chunks scrubs a stream as one text, so a secret split across chunks is found, then splits it
// again at the chunks' own boundaries: a marker goes in the chunk where its secret began, and
// the rest of the secret is cut from the chunks after. Each chunk keeps its place (and timing).
func (r *Rules) Chunks(chunks []string, counts Counts) []string {
	joined := strings.Join(chunks, "")
	spans := r.find(joined)
	if len(spans) == 0 {
		return chunks
	}
	out := make([]string, len(chunks))
	start, si := 0, 0
	for i, c := range chunks {
		end := start + len(c)
		var b strings.Builder
		for pos := start; pos < end; {
			for si < len(spans) && spans[si].end <= pos {
				si++
			}
			if si == len(spans) || spans[si].start >= end {
				b.WriteString(joined[pos:end])
				break
			}
			sp := spans[si]
			if sp.start >= pos {
				b.WriteString(joined[pos:sp.start])
				b.WriteString(marker(sp.kind))
				counts[sp.kind]++
			}
			pos = min(sp.end, end)
		}
		out[i] = b.String()
		start = end
	}
	return out
}

// deltaMember finds the string members that carry a stream's text, in every API's events:
// chat completions' content and arguments, the Responses API's delta, Messages' text,
// thinking and partial_json, Gemini's text.
var deltaMember = lazyre.New(
	`"(?:content|text|delta|partial_json|thinking|arguments|reasoning_content|reasoning)":"((?:[^"\\]|\\.)*)"`)

// deltaNames are the members deltaMember finds.
var deltaNames = map[string]bool{"content": true, "text": true, "delta": true, "partial_json": true, "thinking": true,
	"arguments": true, "reasoning_content": true, "reasoning": true}

// nextDelta is deltaMember's next match in c from at, found without the regexp (which was a
// fifth of the fake's CPU with every exchange recorded): the value's bounds, where the match
// ends, ok false when there is none. FuzzNextDeltaIsTheRegexp holds the two to the same matches.
// A member's value is escapes (a backslash and any character but a newline) and any character
// but a quote or a backslash, up to its closing quote; the split is the same whichever way it is
// read, so the first bare quote ends it.
func nextDelta(c string, at int) (start, end, next int, ok bool) {
	for at < len(c) {
		q := strings.IndexByte(c[at:], '"')
		if q < 0 {
			return 0, 0, 0, false
		}
		p := at + q
		at = p + 1
		n := strings.IndexByte(c[p+1:], '"')
		if n < 0 {
			return 0, 0, 0, false
		}
		name := c[p+1 : p+1+n]
		value := p + 1 + n + len(`":"`)
		if !deltaNames[name] || !strings.HasPrefix(c[p+1+n:], `":"`) {
			continue
		}
		for k := value; k < len(c); k++ {
			if c[k] == '"' {
				return value, k, k + 1, true
			}
			if c[k] == '\\' {
				if k+1 >= len(c) || c[k+1] == '\n' {
					break
				}
				k++
			}
		}
	}
	return 0, 0, 0, false
}

// piece is one delta string of a stream: in which chunk, where its escaped value lies, its text.
type piece struct {
	chunk, start, end int
	text              string
}

// Stream scrubs a streamed answer: the text of its deltas joined across events and chunks (a
// key split across SSE events is found), each delta rewritten in place; then the raw chunks
// joined, for a secret outside the deltas. Chunks keep their number, and so their timing.
func (r *Rules) Stream(chunks []string, counts Counts) []string {
	var ps []piece
	for i, c := range chunks {
		for at := 0; ; {
			start, end, next, ok := nextDelta(c, at)
			if !ok {
				break
			}
			var s string
			if json.Unmarshal([]byte(`"`+c[start:end]+`"`), &s) == nil {
				ps = append(ps, piece{i, start, end, s})
			}
			at = next
		}
	}
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.text
	}
	out := slices.Clone(chunks)
	scrubbed := r.Chunks(texts, counts)
	for i := len(ps) - 1; i >= 0; i-- { // from the end, so earlier offsets stay right
		p := ps[i]
		if scrubbed[i] == p.text {
			continue
		}
		b, _ := jsonx.Marshal(scrubbed[i])
		c := out[p.chunk]
		out[p.chunk] = c[:p.start] + string(b[1:len(b)-1]) + c[p.end:]
	}
	return r.Chunks(out, counts)
}
