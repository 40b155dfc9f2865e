// Package selection chooses which cases a command works on: globs of case ids (`--run`) and the
// areas named by `--area`.
package selection

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
)

// Glob matches case ids: `*` is any run of characters but `/`, `**` any run at all, `?` one
// character but `/`. `context/*` is the context area; `**/1a2b*` a case by its hash's start.
type Glob struct {
	pattern string
	re      *regexp.Regexp
}

// CompileGlob compiles a pattern. Several patterns may be given separated by `,`.
func CompileGlob(pattern string) (*Glob, error) {
	var alts []string
	for _, p := range strings.Split(pattern, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		var b strings.Builder
		for i := 0; i < len(p); i++ {
			switch c := p[i]; {
			case c == '*' && i+1 < len(p) && p[i+1] == '*':
				b.WriteString(".*")
				i++
			case c == '*':
				b.WriteString("[^/]*")
			case c == '?':
				b.WriteString("[^/]")
			default:
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		alts = append(alts, b.String())
	}
	if len(alts) == 0 {
		return nil, fmt.Errorf("empty pattern")
	}
	re, err := regexp.Compile("^(?:" + strings.Join(alts, "|") + ")$")
	if err != nil {
		return nil, err
	}
	return &Glob{pattern: pattern, re: re}, nil
}

// Match says whether an id matches.
func (g *Glob) Match(id string) bool { return g == nil || g.re.MatchString(id) }

func (g *Glob) String() string { return g.pattern }

// Select keeps the cases of the named areas (all when empty) whose ids match run (all when nil).
// An area name that no loaded case has is an error: a typo must not pass as "nothing failed".
func Select(cases []conformance.Case, areas []string, run *Glob) ([]conformance.Case, error) {
	want := map[string]bool{}
	for _, a := range areas {
		if a = strings.TrimSpace(a); a != "" {
			want[a] = true
		}
	}
	have := map[string]bool{}
	var out []conformance.Case
	for _, c := range cases {
		have[c.Area] = true
		if len(want) > 0 && !want[c.Area] {
			continue
		}
		if run.Match(c.ID) {
			out = append(out, c)
		}
	}
	var unknown []string
	for a := range want {
		if !have[a] {
			unknown = append(unknown, a)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var known []string
		for a := range have {
			known = append(known, a)
		}
		sort.Strings(known)
		return nil, fmt.Errorf("--area %s: no such area among the loaded cases (%s)", strings.Join(unknown, ","), strings.Join(known, ", "))
	}
	return out, nil
}
