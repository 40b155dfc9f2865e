package fsaccess

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// A device's listing (filesystem.md, A listing): "A device leaves out ignored and build
// directories (`.git`, `node_modules`, …, and what `.gitignore` says) and shows only directories
// that hold a file it would list."

// DeviceSkipped are the build directories the sentence names, parsed from it at first use: the
// backticked names before its ellipsis. The ellipsis leaves more to each CLI; only these are
// checked.
var DeviceSkipped = spec.Parsed("harness/spec/files/filesystem.md, A listing", parseDeviceSkipped)

func parseDeviceSkipped() ([]string, error) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		return nil, err
	}
	listing := strings.Join(section(md, "## A listing"), " ")
	names, ok := deviceSentence(listing)
	if !ok {
		return nil, fmt.Errorf("## A listing: no sentence \"A device leaves out … (`.git`, …, and what `.gitignore` " +
			"says)\"")
	}
	// Each backticked name, as `([^`]+)` finds them: an empty pair names nothing.
	var out []string
	for {
		i := strings.IndexByte(names, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(names[i+1:], '`')
		if j < 0 {
			break
		}
		if j == 0 {
			names = names[i+1:]
			continue
		}
		out = append(out, names[i+1:i+1+j])
		names = names[i+1+j+1:]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("## A listing: the device's sentence names no directory")
	}
	return out, nil
}

// deviceSentence is what the device's sentence lists between its parenthesis and its ellipsis.
func deviceSentence(listing string) (string, bool) {
	const head, tail = "A device leaves out ignored and build directories (", "…, and what `.gitignore` says)"
	for from := 0; ; {
		i := strings.Index(listing[from:], head)
		if i < 0 {
			return "", false
		}
		names := listing[from+i+len(head):]
		if j := strings.Index(names, "…"); j >= 0 && strings.HasPrefix(names[j:], tail) {
			return names[:j], true
		}
		from += i + 1
	}
}

// GitignoreFile is the name of the file whose lines a device's listing leaves out.
const GitignoreFile = ".gitignore"

// ignoreRule is one line of a .gitignore: its pattern, relative to the file's directory.
type ignoreRule struct {
	dir      string // the .gitignore's directory
	pattern  string
	negate   bool // "!": a later match re-includes
	dirOnly  bool // a trailing "/": directories only
	anchored bool // a "/" before the end: matched against the path from dir, not the name
}

// CheckGitignoreLine says why a line is not one DeviceTree reads (nil: it is): a pattern that
// path.Match refuses (an unclosed "[", a lone backslash at the end).
func CheckGitignoreLine(line string) error {
	for _, seg := range strings.Split(strings.Trim(strings.TrimPrefix(line, "!"), "/"), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("%q: %v", line, err)
		}
	}
	return nil
}

func parseIgnore(dir string, lines []string) []ignoreRule {
	var out []ignoreRule
	for _, l := range lines {
		l = trimSpaces(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		r := ignoreRule{dir: dir}
		if r.negate = strings.HasPrefix(l, "!"); r.negate {
			l = l[1:]
		}
		if r.dirOnly = strings.HasSuffix(l, "/"); r.dirOnly {
			l = strings.TrimSuffix(l, "/")
		}
		r.anchored = strings.Contains(l, "/")
		r.pattern = strings.TrimPrefix(l, "/")
		out = append(out, r)
	}
	return out
}

// trimSpaces drops a line's trailing spaces but one a backslash escapes (gitignore(5)).
func trimSpaces(l string) string {
	for strings.HasSuffix(l, " ") && !strings.HasSuffix(l, "\\ ") {
		l = l[:len(l)-1]
	}
	return l
}

func (r ignoreRule) match(p string, isDir bool) bool {
	if !Within(r.dir, p) || p == r.dir || r.dirOnly && !isDir {
		return false
	}
	if !r.anchored {
		// A "**" within a name is two "*"s, as path.Match reads it: gitignore(5)'s "other
		// consecutive asterisks are considered regular asterisks".
		ok, _ := path.Match(r.pattern, Base(p))
		return ok
	}
	// A trailing "/**" is everything inside, not the directory itself: "*/**", one name and
	// then any number.
	pattern := r.pattern
	if pattern == "**" || strings.HasSuffix(pattern, "/**") {
		pattern = strings.TrimSuffix(pattern, "**") + "*/**"
	}
	return MatchGlob(pattern, strings.TrimPrefix(strings.TrimPrefix(p, r.dir), "/"))
}

// DeviceTree is the tree a device's listing of dir shows: tree's paths (a directory ending with
// /, parents implied) without the build directories of DeviceSkipped and what each .gitignore
// says (gitignore: a .gitignore's path → its lines; a deeper file's lines come after a shallower
// one's, the last match wins, and nothing below a left-out directory comes back), then without
// the directories below dir that hold no file left. dir and its ancestors stay: the listing is
// of it.
func DeviceTree(tree []string, gitignore map[string][]string, dir string) []string {
	rules := ignoreRules(gitignore)
	dirs, files := map[string]bool{}, map[string]bool{}
	for _, t := range tree {
		p := Resolve("/", t)
		if strings.HasSuffix(t, "/") {
			dirs[p] = true
		} else {
			files[p] = true
		}
		for _, a := range Ancestors(p) {
			dirs[a] = true
		}
	}
	left := func(p string, isDir bool) bool { return !leftOut(rules, p, isDir) }
	held := map[string]bool{} // directories holding a file that is left
	var out []string
	for f := range files {
		if left(f, false) {
			out = append(out, f)
			for _, a := range Ancestors(f) {
				held[a] = true
			}
		}
	}
	for d := range dirs {
		keep := d == dir || Within(d, dir) || held[d] && left(d, true)
		if keep && d != "/" {
			out = append(out, d+"/")
		}
	}
	slices.Sort(out)
	return out
}

// DeviceLeftOut says whether a device's listing leaves p out: p or a directory above it is a build
// directory or what a .gitignore says.
func DeviceLeftOut(gitignore map[string][]string, p string, isDir bool) bool {
	return leftOut(ignoreRules(gitignore), Resolve("/", p), isDir)
}

func leftOut(rules []ignoreRule, p string, isDir bool) bool {
	for q := p; q != "/"; q = Parent(q) {
		if ignoredHere(q, q != p || isDir, rules) {
			return true
		}
	}
	return false
}

// ignoreRules are the .gitignore files' lines, a shallower file's before a deeper one's.
func ignoreRules(gitignore map[string][]string) []ignoreRule {
	files := make([]string, 0, len(gitignore))
	byPath := map[string][]string{}
	for f, lines := range gitignore {
		p := Resolve("/", f)
		files = append(files, p)
		byPath[p] = append(byPath[p], lines...)
	}
	slices.SortFunc(files, func(a, b string) int {
		if d := strings.Count(a, "/") - strings.Count(b, "/"); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var rules []ignoreRule
	for _, f := range slices.Compact(files) {
		rules = append(rules, parseIgnore(Parent(f), byPath[f])...)
	}
	return rules
}

// ignoredHere: p itself (not through an ancestor) is a build directory or matched by the last
// .gitignore line that matches it.
func ignoredHere(p string, isDir bool, rules []ignoreRule) bool {
	if isDir && slices.Contains(DeviceSkipped(), Base(p)) {
		return true
	}
	ignored := false
	for _, r := range rules {
		if r.match(p, isDir) {
			ignored = !r.negate
		}
	}
	return ignored
}
