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
	"go.yaml.in/yaml/v3"
)

// shape is one kind of secret and the pattern that finds it.
type shape struct {
	Kind string
	re   *regexp.Regexp
}

// builtin are the key shapes of the common providers, most specific first (sk-ant- before sk-);
// compiled on first use, so that a command that records nothing pays nothing at start.
var builtin = sync.OnceValue(func() []shape {
	return []shape{
		{"anthropic-key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
		{"openai-key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`)},
		{"google-key", regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}`)},
		{"aws-access-key", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
		{"aws-secret-key", regexp.MustCompile(`(?i)(aws_?secret_?(?:access_?)?key["'\s:=\\]+)[A-Za-z0-9/+]{40}`)},
		{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`)},
	}
})

// credentialField finds a JSON member whose name says it holds a credential, and its string
// value; the value is scrubbed when it looks random (entropy), not when it is a word.
var credentialField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)("(?:api_?key|apikey|access_?token|auth_?token|secret|client_?secret|password|token)"\s*:\s*")([^"\\]{16,})"`)
})

// Rules are what is scrubbed: the built-in shapes, then a rules file's patterns and paths.
type Rules struct {
	shapes []shape
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
func Builtin() *Rules { return &Rules{shapes: slices.Clone(builtin())} }

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
		r.shapes = append(r.shapes, shape{fmt.Sprintf("pattern-%d", i+1), re})
	}
	for i, p := range f.Paths {
		rest, ok := strings.CutPrefix(p, "$.")
		if !ok || rest == "" {
			return nil, fmt.Errorf("--redact %s: paths[%d] %q: want a member path such as $.metadata.user_id", path, i,
				p)
		}
		r.paths = append(r.paths, strings.Split(rest, "."))
	}
	return r, nil
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
func (r *Rules) find(s string) []span {
	var out []span
	taken := func(a, b int) bool {
		for _, x := range out {
			if a < x.end && x.start < b {
				return true
			}
		}
		return false
	}
	for _, sh := range r.shapes {
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
	for _, m := range credentialField().FindAllStringSubmatchIndex(s, -1) {
		if v := s[m[4]:m[5]]; entropy(v) >= 3.5 && !taken(m[4], m[5]) {
			out = append(out, span{m[4], m[5], "credential-field"})
		}
	}
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
var deltaMember = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(?:content|text|delta|partial_json|thinking|arguments|reasoning_content|reasoning)":"((?:[^"\\]|\\.)*)"`)
})

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
		for _, m := range deltaMember().FindAllStringSubmatchIndex(c, -1) {
			var s string
			if json.Unmarshal([]byte(`"`+c[m[2]:m[3]]+`"`), &s) == nil {
				ps = append(ps, piece{i, m[2], m[3], s})
			}
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
