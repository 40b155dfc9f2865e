// Package cassette plays a recording back to the agent that made it: it matches each request
// an agent sends to its recorded exchange, with the values a harness legitimately varies from
// run to run (temporary directories, dates, ids) normalised by a documented, configurable list
// of rules, and names the nearest recorded request and the first differing JSON path when none
// matches. The functions here are pure; the fake provider serves what they choose
// (docs/recording.md, "Cassettes").
package cassette

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Rules say which values of a request are not compared: member paths whose whole value is
// left out, and patterns whose every match in a string (or the request's path) is replaced by
// its name.
type Rules struct {
	Patterns []Pattern
	// Paths are JSON member paths of a body ($.metadata.user_id), as words.
	Paths [][]string
}

// Pattern is one normalising regular expression and the name its matches become (<name>).
type Pattern struct {
	Name string
	RE   *regexp.Regexp
}

// builtin are the values a harness varies between two runs of one session: what the agent is
// handed (a fresh temporary directory as its HOME and working directory), the clock, and the
// ids it makes itself. Each is documented in docs/recording.md.
var builtin = []struct{ name, re string }{
	// A directory made in the temporary directory, with the numbered one Go's t.TempDir makes in it.
	{"tmpdir", `(?:/private)?/(?:tmp|var/folders/[^/\s"'\\]+/[^/\s"'\\]+/T)/[^/\s"'\\]+(?:/\d{3}\b)?`},
	{"uuid", `\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`},
	{"timestamp", `\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?`},
	{"date", `\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b|\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? )?` +
		`(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?,? \d{4}\b`},
	{"time", `\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?[AaPp][Mm])?\b`},
}

// builtinPaths are members that carry a per-session id, never the prompt.
var builtinPaths = []string{"$.prompt_cache_key", "$.user", "$.safety_identifier", "$.metadata.user_id",
	"$.metadata.session_id"}

// Builtin are the rules without a file.
func Builtin() *Rules {
	r := &Rules{}
	for _, b := range builtin {
		r.Patterns = append(r.Patterns, Pattern{b.name, regexp.MustCompile(b.re)})
	}
	for _, p := range builtinPaths {
		w, _ := memberPath(p)
		r.Paths = append(r.Paths, w)
	}
	return r
}

// file is a rules file.
type file struct {
	// Builtin false drops the built-in rules; absent or true keeps them.
	Builtin  *bool    `yaml:"builtin"`
	Patterns []string `yaml:"patterns"`
	Paths    []string `yaml:"paths"`
}

// Load reads a rules file (--cassette-match).
func Load(path string) (*Rules, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--cassette-match: %v", err)
	}
	r, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("--cassette-match %s: %v", path, err)
	}
	return r, nil
}

// Parse reads rules (YAML or JSON: {builtin: bool, patterns: [RE2...], paths: [$.a.b...]}):
// the built-in ones and the file's, or the file's alone with builtin: false.
func Parse(b []byte) (*Rules, error) {
	var f file
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%v (want builtin: true|false, patterns: [regexp...], paths: [$.a.b...])", err)
	}
	r := &Rules{}
	if f.Builtin == nil || *f.Builtin {
		r = Builtin()
	}
	for i, p := range f.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("patterns[%d] %q: %v", i, p, err)
		}
		r.Patterns = append(r.Patterns, Pattern{fmt.Sprintf("pattern-%d", i+1), re})
	}
	for i, p := range f.Paths {
		w, ok := memberPath(p)
		if !ok {
			return nil, fmt.Errorf("paths[%d] %q: want a member path such as $.metadata.user_id", i, p)
		}
		r.Paths = append(r.Paths, w)
	}
	return r, nil
}

// memberPath splits $.a.b into its member names.
func memberPath(p string) ([]string, bool) {
	rest, ok := strings.CutPrefix(p, "$.")
	if !ok || rest == "" {
		return nil, false
	}
	w := strings.Split(rest, ".")
	for _, k := range w {
		if k == "" {
			return nil, false
		}
	}
	return w, true
}

// Describe lists the rules, for a log line: `tmpdir, uuid, …, $.user`.
func (r *Rules) Describe() string {
	var out []string
	for _, p := range r.Patterns {
		out = append(out, p.Name)
	}
	for _, p := range r.Paths {
		out = append(out, "$."+strings.Join(p, "."))
	}
	return strings.Join(out, ", ")
}
