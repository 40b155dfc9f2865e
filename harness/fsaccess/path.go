package fsaccess

import (
	"path"
	"strings"
)

// Resolve gives p's absolute, resolved form as filesystem.md *Paths* reads it: a relative path
// is joined to cwd; `.` and `..` are resolved by their text before anything is looked up, `..`
// above `/` staying at `/`; repeated `/` count as one and a trailing `/` changes nothing. cwd is
// itself resolved against `/` first, so a relative or unclean cwd still gives an absolute answer.
func Resolve(cwd, p string) string {
	if !strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(cwd, "/") {
			cwd = "/" + cwd
		}
		p = cwd + "/" + p
	}
	// Fast paths: a path already in resolved form (the common case for lookups) is kept as is, and
	// so is one but for a trailing `/` (a directory in a tree).
	if isClean(p) {
		return p
	}
	if n := len(p); n > 2 && p[n-1] == '/' && p[n-2] != '/' && isClean(p[:n-1]) {
		return p[:n-1]
	}
	parts, _ := push(make([]string, 0, strings.Count(p, "/")), p)
	return "/" + strings.Join(parts, "/")
}

// AboveRoot says whether resolving p from cwd (as Resolve does) takes a `..` above `/`, where
// Resolve keeps it at `/`. cwd is resolved first: a `..` of its own does not count.
func AboveRoot(cwd, p string) bool {
	var parts []string
	if !strings.HasPrefix(p, "/") {
		parts, _ = push(nil, cwd)
	}
	_, above := push(parts, p)
	return above
}

// push resolves p's `/`-separated names onto parts, a resolved path's names: an empty name and
// `.` add nothing, `..` takes the last name off, or at `/` stays there and says so (above).
func push(parts []string, p string) (_ []string, above bool) {
	for _, name := range strings.Split(p, "/") {
		switch name {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				above = true
				continue
			}
			parts = parts[:len(parts)-1]
		default:
			parts = append(parts, name)
		}
	}
	return parts, above
}

// isClean says p is absolute and resolved: `/`, or `/`-separated names none of which is empty,
// `.` or `..`, with no trailing `/`.
func isClean(p string) bool {
	if p == "/" {
		return true
	}
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' {
		return false
	}
	from := 1
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if name := p[from:i]; name == "" || name == "." || name == ".." {
			return false
		}
		from = i + 1
	}
	return true
}

// Parent is the directory a resolved path is in; the parent of `/` is `/`.
func Parent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

// Base is a resolved path's last name; `/` has none.
func Base(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// Within says resolved path p is dir or below it.
func Within(dir, p string) bool {
	if dir == "/" || p == dir {
		return true
	}
	return len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir)
}

// Join is dir/name for a resolved dir and a single name.
func Join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// Ancestors are p's strict ancestors, nearest first, ending with `/` (none for `/` itself).
func Ancestors(p string) []string {
	var out []string
	for p != "/" {
		p = Parent(p)
		out = append(out, p)
	}
	return out
}

// MatchGlob matches a slash-separated path against a pattern name by name: a segment that is "**"
// alone matches any number of names, none included ("**/foo" anywhere, "a/**/b" a/b and
// a/x/y/b); any other segment matches one name by path.Match (so "**" within a name is two "*"s).
func MatchGlob(pattern, name string) bool {
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegments(pat, names []string) bool {
	return MatchStarred(pat, names, func(p string) bool { return p == "**" }, func(p, name string) bool {
		ok, _ := path.Match(p, name)
		return ok
	})
}

// MatchStarred is wildcard matching one level up: each segment of pat that is a star (a "**")
// matches any run of names, none included, and any other one name by match. Remembering only the
// last star passed is enough, as for `*` in a name; trying every split of the names among the
// stars instead took time exponential in their number (30 on a deep path never ended). Both
// kinds of glob match by it: MatchGlob's and the rule modules' compiled ones.
func MatchStarred[P any](pat []P, names []string, star func(P) bool, match func(P, string) bool) bool {
	pi, ni := 0, 0
	starP, starN := -1, 0
	for ni < len(names) {
		if pi < len(pat) && star(pat[pi]) {
			starP, starN = pi, ni
			pi++
			continue
		}
		if pi < len(pat) && match(pat[pi], names[ni]) {
			pi++
			ni++
			continue
		}
		if starP >= 0 {
			starN++
			pi, ni = starP+1, starN
			continue
		}
		return false
	}
	for pi < len(pat) && star(pat[pi]) {
		pi++
	}
	return pi == len(pat)
}
