// Package search is the reference of area search: `search` over a session's files (harness spec
// filesystem.md, *A search*): passages ranked by meaning and by words, the two rankings fused by
// rank, and only what the session's view allows kept — after scoring, so a hidden file changes
// neither the results nor how many there are. The scores are inputs, as an index would give them
// for a query; what is checked is the fusion, the view filter, the limit and the result's form.
// Pure: no clock, no randomness, no I/O.
package search

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Texts are what the spec fixes about a search: the form of a result, parsed from
// filesystem.md's example, and the limit's default and bounds, from tools/search.json.
type Texts struct {
	// Result holds {{path}}, {{start}}, {{end}} and {{passage}}.
	Result string
	// DefaultLimit is how many passages a search without limit gives; MinLimit and MaxLimit
	// bound the parameter.
	DefaultLimit, MinLimit, MaxLimit int
}

// SpecTexts are the vendored files' texts, parsed once; a text that changed shape panics.
var SpecTexts = spec.Parsed("harness/search", func() (Texts, error) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		return Texts{}, err
	}
	tool, err := spec.ReadFile("tools/search.json")
	if err != nil {
		return Texts{}, err
	}
	return ParseTexts(md, tool)
})

// ParseTexts reads the fenced example under filesystem.md's "## A search" (its first line the
// path and line range, its second the passage) and the limit parameter of tools/search.json.
func ParseTexts(md, tool []byte) (Texts, error) {
	var t Texts
	var block []string
	in, fenced := false, false
	sc := bufio.NewScanner(bytes.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## A search"
		case in && strings.HasPrefix(line, "```"):
			if fenced {
				in = false
			}
			fenced = !fenced
		case in && fenced:
			block = append(block, line)
		}
	}
	if len(block) != 2 {
		return t,
			fmt.Errorf("filesystem.md: the example under \"## A search\" has %d lines, want 2 (the head, the passage)",
				len(block))
	}
	// The example result's first line: a path, a colon, a line range.
	m := splitHead(block[0])
	if m == nil {
		return t, fmt.Errorf("filesystem.md: the example's head %q is not <path>:<start>-<end>", block[0])
	}
	t.Result = "{{path}}" + m[2] + "{{start}}" + m[4] + "{{end}}" + "\n" + "{{passage}}"
	if got := spec.MustRender(t.Result, map[string]string{"path": m[1], "start": m[3], "end": m[5],
		"passage": block[1]}); got != strings.Join(block, "\n") {
		return t, fmt.Errorf("filesystem.md: the result form %q does not give back its example", t.Result)
	}
	var schema struct {
		Parameters struct {
			Properties struct {
				Limit struct {
					Minimum     *int   `json:"minimum"`
					Maximum     *int   `json:"maximum"`
					Description string `json:"description"`
				} `json:"limit"`
			} `json:"properties"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(tool, &schema); err != nil {
		return t, fmt.Errorf("tools/search.json: %v", err)
	}
	l := schema.Parameters.Properties.Limit
	def, found := spec.FindNumber(l.Description, "(default {})")
	if l.Minimum == nil || l.Maximum == nil || !found {
		return t, fmt.Errorf("tools/search.json: limit has no minimum, maximum or \"(default N)\" in %q", l.Description)
	}
	t.MinLimit, t.MaxLimit = *l.Minimum, *l.Maximum
	t.DefaultLimit = def
	if t.DefaultLimit < t.MinLimit || t.DefaultLimit > t.MaxLimit {
		return t, fmt.Errorf("tools/search.json: the default limit %d is outside %d..%d", t.DefaultLimit, t.MinLimit,
			t.MaxLimit)
	}
	return t, nil
}

// splitHead splits the example's head, `<path>:<start>-<end>` (a path of no colon or space,
// two numbers), into the path, ":", start, "-" and end, as a regexp's submatches are (the whole
// first); nil when it is not that.
func splitHead(h string) []string {
	path, lines, ok := strings.Cut(h, ":")
	start, end, ok2 := strings.Cut(lines, "-")
	if !ok || !ok2 || len(path) < 2 || path[0] != '/' || strings.ContainsAny(path, " \t\n\r\f") ||
		!digits(start) || !digits(end) {
		return nil
	}
	return []string{h, path, ":", start, "-", end}
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
