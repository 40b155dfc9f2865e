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

// Selection is which cases a command works on, from --area and --run: built once from the flags
// (New is the one place --run is compiled) and applied alike to JSON cases, Gherkin scenarios and a
// saved report's results (Apply). The zero value selects everything.
type Selection struct {
	areas []string // sorted, each once
	run   *Glob
}

// New makes a selection of the named areas (all when none) and of the ids matching the glob run
// (all when ""). A run that is not a glob is an error naming --run.
func New(areas []string, run string) (Selection, error) {
	var s Selection
	seen := map[string]bool{}
	for _, a := range areas {
		if a = strings.TrimSpace(a); a != "" && !seen[a] {
			seen[a] = true
			s.areas = append(s.areas, a)
		}
	}
	sort.Strings(s.areas)
	if run != "" {
		g, err := CompileGlob(run)
		if err != nil {
			return Selection{}, fmt.Errorf("--run %q: %v", run, err)
		}
		s.run = g
	}
	return s, nil
}

// Match says whether the selection holds a case.
func (s Selection) Match(c conformance.Case) bool {
	if len(s.areas) > 0 {
		i := sort.SearchStrings(s.areas, c.Area)
		if i == len(s.areas) || s.areas[i] != c.Area {
			return false
		}
	}
	return s.run.Match(c.ID)
}

// String is the selection as its flags say it: "--area jobs --run 'jobs/1*'", or "every case".
func (s Selection) String() string {
	var parts []string
	if len(s.areas) > 0 {
		parts = append(parts, "--area "+strings.Join(s.areas, ","))
	}
	if s.run != nil {
		parts = append(parts, "--run "+quote(s.run.String()))
	}
	if len(parts) == 0 {
		return "every case"
	}
	return strings.Join(parts, " ")
}

// quote writes a glob as a shell would take it back.
func quote(s string) string {
	if strings.ContainsAny(s, "*?, '\"") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// Apply keeps the xs whose case (caseOf) the selection holds, in their order. A selection that
// holds nothing is an error naming it, and so is an --area none of xs has even when another area
// matches: a typo must not pass as "nothing failed". So is an empty xs. When every x is kept the
// answer is xs itself, not a copy (an item holds a whole case: 86 kB for the embedded suite).
func Apply[T any](s Selection, xs []T, caseOf func(T) conformance.Case) ([]T, error) {
	// The kept are counted first and copied once: an item holds a whole case, and growing the
	// slice by appending copied the suite about twice over.
	have := map[string]int{}
	match := make([]bool, len(xs))
	n := 0
	for i, x := range xs {
		c := caseOf(x)
		have[c.Area]++
		if match[i] = s.Match(c); match[i] {
			n++
		}
	}
	out := xs
	if n < len(xs) {
		out = nil
		if n > 0 {
			out = make([]T, 0, n)
		}
		for i, x := range xs {
			if match[i] {
				out = append(out, x)
			}
		}
	}
	known := make([]string, 0, len(have))
	for a := range have {
		known = append(known, a)
	}
	sort.Strings(known)
	var unknown []string
	for _, a := range s.areas {
		if have[a] == 0 {
			unknown = append(unknown, a)
		}
	}
	switch {
	case len(xs) == 0:
		return nil, fmt.Errorf("no case to work on (%s selected)", s)
	case len(unknown) > 0:
		return nil, fmt.Errorf("--area %s: no case of that area (the areas are %s)", strings.Join(unknown, ","),
			strings.Join(known, ", "))
	case len(out) == 0:
		return nil, fmt.Errorf("%s matches none of the %d cases (of %s)", s, len(xs), strings.Join(known, ", "))
	}
	return out, nil
}

// Cases applies a selection to cases.
func Cases(s Selection, cases []conformance.Case) ([]conformance.Case, error) {
	return Apply(s, cases, func(c conformance.Case) conformance.Case { return c })
}

// Find is the case whose id is id, or else the one case whose id starts with it. None, or several,
// is an error saying so.
func Find(cases []conformance.Case, id string) (conformance.Case, error) {
	var found []conformance.Case
	for _, c := range cases {
		if c.ID == id {
			return c, nil
		}
		if strings.HasPrefix(c.ID, id) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return conformance.Case{}, fmt.Errorf("no case %q; `lembas-check list` lists them", id)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, c := range found {
		ids[i] = c.ID
	}
	return conformance.Case{}, fmt.Errorf("%q names %d cases: %s", id, len(found), strings.Join(ids, ", "))
}
