// Package coverage is the map of the vendored spec's normative statements to the cases that
// check them (issue 28): which statement a failing case holds an implementation to, and which
// statements no case reaches, each with the reason. The statements are found by one documented
// rule (Extract); the links and reasons are kept in one place, map.json beside this file,
// written by `go generate ./conformance/coverage` and checked fresh by its tests.
package coverage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// Statement is one normative statement of the spec: where it is, and what it says.
type Statement struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Heading string `json:"heading"`
	// Kind is "sentence", "row" (a table row), "template" (a fenced block, a prompt file, or a
	// text of a JSON file) or "value" (a number or list of a JSON file).
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Rule is the extraction rule, as docs/areas.md states it and `spec coverage` prints it.
const Rule = "the vendored spec's files (harness/spec/files) but VERSION and conformance/*.json (those are cases): " +
	"in Markdown, every table body row, every fenced block, and every sentence of a paragraph or list item that " +
	"states a rule (holds must, never, always, only, exactly, every, each, is, are, means, resolve(s), goes, " +
	"carries, count(s), " +
	"changes, default, nothing, same, first, last, refused, not, no, none, at most or at least); a prompt file " +
	"(prompts/**.md) whole, as one template; in JSON, every string and number (a list of strings as one value) under " +
	"loop.partial.json, and a tool's description, requires and unavailable and its parameters' descriptions"

var normative = lazyre.New(
	`(?i)\b(must|never|always|only|exactly|every|each|is|are|means|resolves?|goes|carries|counts?|changes|` +
		`default|nothing|same|first|last|refused|not|no|none|at most|at least)\b`)

// Extract is every normative statement of the spec tree, by file (in path order), then line.
func Extract(fsys fs.FS) ([]Statement, error) {
	var out []Statement
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "VERSION" || strings.HasPrefix(p, "conformance/") {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		var got []Statement
		switch {
		case strings.HasPrefix(p, "prompts/") && path.Ext(p) == ".md":
			got = []Statement{{File: p, Line: 1, Heading: p, Kind: "template", Text: strings.TrimSpace(string(b))}}
		case path.Ext(p) == ".md":
			got = markdown(p, b)
		case path.Ext(p) == ".json":
			if got, err = jsonStatements(p, b); err != nil {
				return fmt.Errorf("%s: %v", p, err)
			}
		}
		out = append(out, got...)
		return nil
	})
	return out, err
}

// markdown reads one Markdown file: table rows, fenced blocks and normative sentences, each under
// its nearest heading.
func markdown(file string, b []byte) []Statement {
	var out []Statement
	lines := strings.Split(string(b), "\n")
	heading := ""
	var para []string
	paraLine := 0
	flush := func() {
		if len(para) > 0 {
			out = append(out, sentences(file, heading, paraLine, para)...)
		}
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			flush()
			start := i + 1
			j := start
			for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				j++
			}
			out = append(out, Statement{File: file, Line: start + 1, Heading: heading, Kind: "template",
				Text: strings.Join(lines[start:min(j, len(lines))], "\n")})
			i = j
		case strings.HasPrefix(t, "#"):
			flush()
			heading = strings.TrimSpace(strings.TrimLeft(t, "#"))
		case strings.HasPrefix(t, "|"):
			flush()
			if !strings.Contains(t, "---") && i+1 < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i+1]),
				"|---") {
				out = append(out, Statement{File: file, Line: i + 1, Heading: heading, Kind: "row", Text: t})
			}
		case t == "" || strings.HasPrefix(t, "<!--"):
			flush()
		case strings.HasPrefix(t, "- ") || listNumber().MatchString(t):
			flush()
			para, paraLine = []string{listNumber().ReplaceAllString(strings.TrimPrefix(t, "- "), "")}, i+1
		default:
			if len(para) == 0 {
				paraLine = i + 1
			}
			para = append(para, t)
		}
	}
	flush()
	return out
}

var listNumber = lazyre.New(`^\d+\. `)

// sentences splits a paragraph (its lines, the first at line) into sentences, keeping those that
// state a rule. A sentence ends at ". ", "! " or "? " (after an optional closing ** or `) before
// a capital, a ** or a backtick.
func sentences(file, heading string, line int, para []string) []Statement {
	var out []Statement
	var cur strings.Builder
	curLine := line
	emit := func() {
		s := strings.TrimSpace(cur.String())
		if s != "" && normative().MatchString(s) {
			out = append(out, Statement{File: file, Line: curLine, Heading: heading, Kind: "sentence", Text: s})
		}
		cur.Reset()
	}
	for k, l := range para {
		words := strings.Fields(l)
		for w, word := range words {
			if cur.Len() == 0 {
				curLine = line + k
			} else {
				cur.WriteByte(' ')
			}
			cur.WriteString(word)
			next := ""
			if w+1 < len(words) {
				next = words[w+1]
			} else if k+1 < len(para) {
				next = strings.TrimSpace(para[k+1])
			}
			if endsSentence(word) && startsSentence(next) {
				emit()
			}
		}
	}
	emit()
	return out
}

func endsSentence(w string) bool {
	w = strings.TrimRight(w, "*`)\"")
	return strings.HasSuffix(w, ".") || strings.HasSuffix(w, "!") || strings.HasSuffix(w, "?")
}

func startsSentence(w string) bool {
	if w == "" || strings.HasPrefix(w, "- ") {
		return w == ""
	}
	c := strings.TrimLeft(w, "*`(")
	return c != "" && c[0] >= 'A' && c[0] <= 'Z'
}

// toolKeys are the keys of a tool's file that state what it does for every session.
var toolKeys = map[string]bool{"description": true, "requires": true, "unavailable": true}

// jsonStatements reads a JSON file's leaves: all of loop.partial.json's, a tool's toolKeys.
func jsonStatements(file string, b []byte) ([]Statement, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	var out []Statement
	var walk func(key string, v any, top bool)
	walk = func(key string, v any, top bool) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if strings.HasPrefix(file, "tools/") && !keepToolKey(key, k, top) {
					continue
				}
				walk(joinKey(key, k), x[k], false)
			}
		case string:
			out = append(out, Statement{File: file, Line: lineOf(b, key, x), Heading: key, Kind: "template", Text: x})
		case float64, bool:
			out = append(out, Statement{File: file, Line: lineOf(b, key, x), Heading: key, Kind: "value",
				Text: fmt.Sprint(x)})
		case []any:
			t, _ := json.Marshal(x)
			out = append(out, Statement{File: file, Line: lineOf(b, key, nil), Heading: key, Kind: "value",
				Text: string(t)})
		}
	}
	walk("", v, true)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}

// keepToolKey says whether a tool file's key k (under key) is read: the tool's description,
// requires and unavailable, and each parameter's description.
func keepToolKey(key, k string, top bool) bool {
	switch {
	case top:
		return toolKeys[k] || k == "parameters"
	case key == "parameters":
		return k == "properties"
	case key == "parameters.properties":
		return true
	}
	return strings.Count(key, ".") == 2 && strings.HasPrefix(key, "parameters.properties.") && k == "description"
}

func joinKey(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// lineOf is the line of the key (its last part) whose value is v: the first "key": followed by
// that value, else the first "key":, looked for inside the key's parents (each found in turn),
// so that `jobs.subagent_steps.default` is not taken for the `default` of another object.
func lineOf(b []byte, key string, v any) int {
	parts := strings.Split(key, ".")
	last := parts[len(parts)-1]
	needle := []byte(`"` + last + `":`)
	start := 0
	for _, p := range parts[:len(parts)-1] {
		i := bytes.Index(b[start:], []byte(`"`+p+`":`))
		if i < 0 {
			start = 0
			break
		}
		start += i + len(p) + 3
	}
	first := -1
	for off := start; ; {
		i := bytes.Index(b[off:], needle)
		if i < 0 {
			break
		}
		at := off + i
		if first < 0 {
			first = at
		}
		rest := bytes.TrimLeft(b[at+len(needle):], " ")
		if s, ok := v.(string); ok {
			enc, _ := json.Marshal(s)
			if bytes.HasPrefix(rest, enc) || bytes.HasPrefix(rest, []byte(strings.ReplaceAll(string(enc), `\u003c`,
				"<"))) {
				first = at
				break
			}
		} else if v != nil && bytes.HasPrefix(rest, []byte(fmt.Sprint(v))) {
			first = at
			break
		}
		off = at + len(needle)
	}
	if first < 0 {
		return 0
	}
	return 1 + bytes.Count(b[:first], []byte("\n"))
}
