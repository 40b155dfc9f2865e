package search

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Match is one line grep finds: its file and line number, from 1.
type Match struct {
	Path string
	Line int
}

// String is the match as path:line.
func (m Match) String() string { return m.Path + ":" + strconv.Itoa(m.Line) }

// Grep is search's exact counterpart, over the same view (filesystem.md, A search: "`grep` is the
// exact counterpart (text or a pattern), over the same view"): every line of the passages the view
// allows under root ("" is everything) that holds text — or, with pattern, matches it as a
// regular expression (RE2) — once each (passages overlap), by path, then line. A root where a
// listing is refused is refused with the listing's error.
func Grep(v *fsaccess.View, ps []Passage, root, text string, pattern bool) ([]Match, error) {
	match := func(line string) bool { return strings.Contains(line, text) }
	if pattern {
		re, err := regexp.Compile(text)
		if err != nil {
			return nil, fmt.Errorf("grep: %q is not a pattern: %v", text, err)
		}
		match = re.MatchString
	}
	kept, err := viewed(v, ps, root)
	if err != nil {
		return nil, err
	}
	seen := map[Match]bool{}
	var out []Match
	for _, k := range kept {
		p := ps[k]
		for i, line := range strings.Split(p.Text, "\n") {
			m := Match{p.Path, p.Start + i}
			if m.Line <= p.End && match(line) && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}
