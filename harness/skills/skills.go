// Package skills is the reference of lembas-check's area skills (harness spec filesystem.md,
// *Skills*): where a session finds its skills, in order of precedence, which of them it offers,
// how skill_view looks a name up and where skill_manage makes a new one, all over a session's
// view (harness/fsaccess), so a skill the session cannot read is never offered. Pure: no I/O.
package skills

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// File is the file that makes a directory a skill.
const File = "SKILL.md"

// ChatPlaces are a chat's places, the most specific first: the skills directory of every directory
// from the start directory up to the boundary, nearest first, the root's excluded; then the
// person's own; then the organisation's. A place named twice counts where it comes first.
func ChatPlaces(boundary, start, user string) []string {
	t := SpecTexts()
	boundary = fsaccess.Resolve("/", boundary)
	start = fsaccess.Resolve(boundary, start)
	var out []string
	for _, d := range append([]string{start}, fsaccess.Ancestors(start)...) {
		if !fsaccess.Within(boundary, d) {
			break
		}
		if d != "/" {
			out = append(out, fsaccess.Resolve(d, t.Chat[0]))
		}
	}
	out = append(out, fsaccess.Resolve("/", strings.ReplaceAll(t.Chat[1], "<user>", user)),
		fsaccess.Resolve("/", t.Chat[2]))
	return dedupe(out)
}

// DevicePlaces are a device's: the project's own (a trusted project's only), then the user's
// own skills directory, then the directories the configuration adds, in its order.
func DevicePlaces(project string, trusted bool, user string, config []string) []string {
	var out []string
	if trusted {
		out = append(out, fsaccess.Resolve(fsaccess.Resolve("/", project), SpecTexts().Device[0]))
	}
	if user != "" {
		out = append(out, fsaccess.Resolve("/", user))
	}
	for _, c := range config {
		out = append(out, fsaccess.Resolve("/", c))
	}
	return dedupe(out)
}

func dedupe(ps []string) []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Skill is one skill offered: its name, as its frontmatter says it, and its SKILL.md.
type Skill struct {
	Name, Path string
}

// Found is the skills a session offers, in order of precedence: in each place, each directory
// holding a SKILL.md the session can read, by path; a skill whose name is offered at all
// (Offered) and whose Key no earlier one has. name is a SKILL.md's frontmatter name.
func Found(v *fsaccess.View, tree, places []string, name func(skillFile string) string) []Skill {
	var files []string
	for _, p := range tree {
		if p = fsaccess.Resolve("/", p); fsaccess.Base(p) == File && !strings.HasSuffix(p, "/") {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	var out []Skill
	seen := map[string]bool{}
	for _, place := range places {
		for _, f := range files {
			if fsaccess.Parent(fsaccess.Parent(f)) != place || !v.ReadableFile(f) {
				continue
			}
			n := name(f)
			if !Offered(n) || seen[Key(n)] {
				continue
			}
			seen[Key(n)] = true
			out = append(out, Skill{Name: n, Path: f})
		}
	}
	return out
}

// Offered is whether a name made elsewhere is offered: one line of at most MaxOffered characters,
// not empty. A name skill_manage would make (Valid) always is.
func Offered(name string) bool {
	return name != "" && !strings.ContainsAny(name, "\r\n") && utf8.RuneCountInString(name) <= SpecTexts().MaxOffered
}

// Valid is skill_manage's check of a name it makes or renames a skill to.
func Valid(name string) bool { return SpecTexts().Name.MatchString(name) }

// Key is how a name is looked up: ignoring case, with `_` and spaces read as `-`.
func Key(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == ' ' {
			return '-'
		}
		return r
	}, strings.ToLower(name))
}

// Lookup is the skill skill_view loads for a name: the offered one whose Key is the name's.
func Lookup(found []Skill, name string) (Skill, bool) {
	for _, s := range found {
		if Key(s.Name) == Key(name) {
			return s, true
		}
	}
	return Skill{}, false
}

// NewFile is where skill_manage makes a new skill: its SKILL.md in the person's own place.
func NewFile(personal, name string) string {
	return fsaccess.Join(fsaccess.Join(fsaccess.Resolve("/", personal), name), File)
}
