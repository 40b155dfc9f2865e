package modules

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Glob is one `paths` entry: a Project-relative POSIX glob. The dialect is the seed's: "*, **
// and ? are supported" — `*` any run of characters within one path segment, `?` one character
// (a code point) but `/`, `**` as a whole segment zero or more segments; every other character
// stands for itself (no classes, no braces, no escapes), names beginning with `.` included, and
// case counts. `**` inside a segment is two `*`.
type Glob struct {
	pattern string
	segs    []segment
	// prefix is the literal head every matching path begins with, so a sorted path list is
	// searched from there instead of from its start.
	prefix string
}

type segment struct {
	text     string
	globstar bool // the segment is exactly **
	wild     bool // the segment holds * or ?
}

// GlobError is a `paths` entry the seed refuses.
type GlobError struct {
	Pattern string
	Msg     string
}

func (e *GlobError) Error() string { return fmt.Sprintf("glob %q: %s", e.Pattern, e.Msg) }

// CompileGlob checks a pattern and prepares it: empty, a leading `/`, a backslash or a `..`
// segment is refused ("a leading /, a backslash or a .. segment is refused").
func CompileGlob(pattern string) (Glob, error) {
	switch {
	case pattern == "":
		return Glob{}, &GlobError{pattern, "empty: a glob is a non-empty string"}
	case strings.HasPrefix(pattern, "/"):
		return Glob{}, &GlobError{pattern, "begins with /: a glob is Project-relative"}
	case strings.ContainsRune(pattern, '\\'):
		return Glob{}, &GlobError{pattern, "holds a backslash: a glob is a POSIX path"}
	}
	g := Glob{pattern: pattern}
	var head []string
	literal := true
	for _, s := range strings.Split(pattern, "/") {
		if s == ".." {
			return Glob{}, &GlobError{pattern, "has a .. segment"}
		}
		seg := segment{text: s, globstar: s == "**", wild: strings.ContainsAny(s, "*?")}
		g.segs = append(g.segs, seg)
		literal = literal && !seg.wild
		if literal {
			head = append(head, s)
		}
	}
	// No trailing /: "src/**" also matches "src" itself, ** being zero segments there.
	g.prefix = strings.Join(head, "/")
	return g, nil
}

// String is the pattern as written.
func (g Glob) String() string { return g.pattern }

// Match says the Project-relative path rel (`/`-separated, resolved) matches.
func (g Glob) Match(rel string) bool {
	if !strings.HasPrefix(rel, g.prefix) {
		return false
	}
	// Discovery matches every rule file's path: its segments go in a buffer on the stack (a
	// deeper path than the buffer holds moves to the heap), not a slice made per match.
	var buf [16]string
	return matchSegs(g.segs, splitSegs(buf[:0], rel))
}

// splitSegs appends rel's `/`-separated segments to dst, as strings.Split(rel, "/") has them.
func splitSegs(dst []string, rel string) []string {
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return append(dst, rel)
		}
		dst, rel = append(dst, rel[:i]), rel[i+1:]
	}
}

// matchSegs is fsaccess.MatchStarred with `**` the star: any other segment matches exactly one
// path segment.
func matchSegs(ps []segment, ss []string) bool {
	return fsaccess.MatchStarred(ps, ss, func(s segment) bool { return s.globstar }, segment.match)
}

func (s segment) match(name string) bool {
	if !s.wild {
		return s.text == name
	}
	return matchName(s.text, name)
}

// matchName matches one segment's pattern against one name: `*` any run, `?` one code point.
// Both advance by whole code points, so `?` never counts a byte of a longer character.
func matchName(p, name string) bool {
	px, nx := 0, 0
	nextPx, nextNx := 0, -1
	for px < len(p) || nx < len(name) {
		if px < len(p) {
			switch c := p[px]; c {
			case '?':
				if nx < len(name) {
					_, w := utf8.DecodeRuneInString(name[nx:])
					px++
					nx += w
					continue
				}
			case '*':
				nextPx, nextNx = px, nx
				if nx < len(name) {
					_, w := utf8.DecodeRuneInString(name[nx:])
					nextNx += w
				} else {
					nextNx = len(name) + 1
				}
				px++
				continue
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if nextNx >= 0 && nextNx <= len(name) {
			px, nx = nextPx, nextNx
			continue
		}
		return false
	}
	return true
}

// Paths are touched Project-relative paths, sorted and split once, for matching many globs.
type Paths struct {
	sorted []string
	segs   [][]string
}

// NewPaths sorts and dedupes rels.
func NewPaths(rels []string) *Paths {
	s := append([]string(nil), rels...)
	sort.Strings(s)
	out := &Paths{}
	for i, p := range s {
		if i > 0 && p == s[i-1] {
			continue
		}
		out.sorted = append(out.sorted, p)
		out.segs = append(out.segs, strings.Split(p, "/"))
	}
	return out
}

// Len is how many distinct paths there are.
func (ps *Paths) Len() int { return len(ps.sorted) }

// MatchAny says at least one of the paths matches g; only those beginning with g's literal
// head are tried.
func (g Glob) MatchAny(ps *Paths) bool {
	i := sort.SearchStrings(ps.sorted, g.prefix)
	for ; i < len(ps.sorted) && strings.HasPrefix(ps.sorted[i], g.prefix); i++ {
		if matchSegs(g.segs, ps.segs[i]) {
			return true
		}
	}
	return false
}
