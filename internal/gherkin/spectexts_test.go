package gherkin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// A feature quotes the spec's exact words in its Thens. These tests check every text a feature
// expects against the vendored spec data, read here on its own (not through the reference
// packages): each line of an expected text must be spec text — one template line of the area's
// texts, or two joined by a space, its holes filled — or data the scenario's case holds, or the
// area's format around that data (a numbered line, a diff line). So a feature that mistypes a
// spec text fails here even if a reference someday mistypes it the same way.

// holes are how a template's {{name}} holes match, by name; any other hole matches any text.
var holes = map[string]string{
	"n": `-?\d+`, "from": `\d+`, "to": `\d+`, "of": `\d+`, "offset": `\d+`, "exit": `-?\d+`,
	"steps": `\d+`, "tools": `\d+`, "start": `\d+`, "end": `\d+`,
	"sha": `[0-9a-f]{8}`, "date": `\d{4}-\d{2}-\d{2}`,
	"id": `[#0-9A-Za-z]+`, "earlier": `#[0-9a-f]+`, "target": `#[0-9A-Za-z]+`,
	"duration": `\d+[smh](?: \d{2}[sm])?`,
	"reason":   `[a-z_]+`, "path": `[^"]+?`,
}

var holeRx = regexp.MustCompile(`\{\{([a-z_]+)\}\}|\{(path)\}`)

// templateRegex is one template line as a regexp (unanchored): its literal text quoted, its holes
// by holes (a {path} of filesystem.md an absolute path).
func templateRegex(line string) string {
	var b strings.Builder
	last := 0
	for _, m := range holeRx.FindAllStringSubmatchIndex(line, -1) {
		b.WriteString(regexp.QuoteMeta(line[last:m[0]]))
		switch {
		case m[4] >= 0:
			b.WriteString(`/\S*`)
		case holes[line[m[2]:m[3]]] != "":
			b.WriteString(holes[line[m[2]:m[3]]])
		default:
			b.WriteString(`.*?`)
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(line[last:]))
	return b.String()
}

// specLines is a set of template lines, matched as one line or two joined by a space.
type specLines struct {
	lines []string
	re    *regexp.Regexp
}

func newSpecLines(templates []string) *specLines {
	s := &specLines{}
	seen := map[string]bool{}
	var alts []string
	for _, t := range templates {
		for _, l := range strings.Split(t, "\n") {
			// A line that is a hole alone says nothing of the spec's words.
			if strings.TrimSpace(holeRx.ReplaceAllString(l, "")) == "" || seen[l] {
				continue
			}
			seen[l] = true
			s.lines = append(s.lines, l)
			alts = append(alts, templateRegex(l))
		}
	}
	sort.Strings(alts)
	one := "(?:" + strings.Join(alts, "|") + ")"
	s.re = regexp.MustCompile("^" + one + "(?: ?" + one + ")?$")
	return s
}

// areaTexts is what one area's expected texts are checked against.
type areaTexts struct {
	spec *specLines
	// format is the area's own shape of a line around case data: $DATA stands for a line of it.
	format []string
	// skip names keys whose strings are not texts (tool names, hashes, paths).
	skip map[string]bool
	// whole checks a string under a key as a whole (an error text, a listing entry, a code).
	whole map[string]func(string) bool
}

func loopStrings(t *testing.T, keys ...string) []string {
	t.Helper()
	b, err := spec.ReadFile("loop.partial.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range keys {
		var v any = m
		for _, p := range strings.Split(k, ".") {
			v = v.(map[string]any)[p]
		}
		var walk func(key string, v any)
		walk = func(key string, v any) {
			switch x := v.(type) {
			case string:
				if key != "about" {
					out = append(out, x)
				}
			case map[string]any:
				for k, y := range x {
					walk(k, y)
				}
			}
		}
		walk("", v)
	}
	return out
}

// expand makes one template of each alternative for a hole (a note's {{how}} is one of the exit
// texts): a hole the spec fills from a closed list is checked against that list.
func expand(templates []string, hole string, alts ...string) []string {
	var out []string
	for _, t := range templates {
		if !strings.Contains(t, "{{"+hole+"}}") {
			out = append(out, t)
			continue
		}
		for _, a := range alts {
			out = append(out, strings.ReplaceAll(t, "{{"+hole+"}}", a))
		}
	}
	return out
}

func extraTexts(prefix string) []string {
	var out []string
	for k, v := range spec.Extras().Texts {
		if strings.HasPrefix(k, prefix) {
			out = append(out, v.Text)
		}
	}
	return out
}

// fsErrors are filesystem.md's error texts, the backticked text of each row of its Errors table.
func fsErrors(t *testing.T) []string {
	t.Helper()
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		t.Fatal(err)
	}
	sec := string(md)[strings.Index(string(md), "## Errors"):]
	sec = sec[:strings.Index(sec[3:], "\n## ")+3]
	var out []string
	for _, m := range regexp.MustCompile("(?m)^\\|[^|]*\\| `([^`]*\\{path\\}[^`]*)` \\|$").FindAllStringSubmatch(sec, -1) {
		out = append(out, m[1])
	}
	if len(out) < 8 {
		t.Fatalf("filesystem.md's Errors table gave %d texts: %q", len(out), out)
	}
	return out
}

func matcher(re string) func(string) bool {
	r := regexp.MustCompile("^(?:" + re + ")$")
	return r.MatchString
}

func specAreas(t *testing.T) map[string]*areaTexts {
	t.Helper()
	errs := fsErrors(t)
	var errRes []string
	for _, e := range errs {
		errRes = append(errRes, templateRegex(e))
	}
	isError := matcher(strings.Join(errRes, "|"))
	md, _ := spec.ReadFile("filesystem.md")
	marks := regexp.MustCompile("marked `( \\[[a-z-]+\\])`").FindAllStringSubmatch(string(md), -1)
	if len(marks) != 2 {
		t.Fatalf("filesystem.md's listing gave marks %q", marks)
	}
	entry := matcher(`[^/ ]+/?(?:` + regexp.QuoteMeta(marks[0][1]) + `)?(?:` + regexp.QuoteMeta(marks[1][1]) + `)?`)
	loop := spec.LoopJSON()
	table := strings.NewReplacer("{{heading}}", loop.Context.Compaction.Heading, "{{line}}", loop.Context.Compaction.Line, "{{rows}}", "").Replace(spec.Text("context.compaction.table"))
	var unavailable []string
	for _, tool := range spec.Tools() {
		if tool.Unavailable != "" {
			unavailable = append(unavailable, tool.Unavailable)
		}
	}
	codes := map[string]bool{}
	for k, v := range spec.Extras().Texts {
		if strings.HasPrefix(k, "modules.code.") {
			codes[v.Text] = true
		}
	}
	envelope := strings.Split(spec.Text("modules.envelope"), "\n")
	marked := strings.Replace(envelope[0], ">", " "+spec.Text("modules.supersedes")+">", 1)
	return map[string]*areaTexts{
		"context": {
			spec: newSpecLines(append(append(loopStrings(t, "context"), extraTexts("context.")...), table,
				"{{line}}"+spec.Text("context.cut"))),
			// The unified diff of an edit: hunk headers and its lines of the case's contents.
			format: []string{`@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@`, `[ +-]$DATA`},
		},
		"prefix": {
			spec: newSpecLines(append(append(append(loopStrings(t, "context.note"), extraTexts("mode.")...),
				spec.Text("note.mcp_server"), spec.Text("tasks.compact.ask")), unavailable...)),
			skip: map[string]bool{"tools": true},
		},
		"jobs": {spec: newSpecLines(jobsTemplates(t))},
		"fs_access": {
			whole: map[string]func(string) bool{"error": isError, "entries": entry},
			skip:  map[string]bool{"level": true},
		},
		"search": {
			// The result form of filesystem.md's example: `/Notes/setup.md:12-30`, then the passage;
			// a grep's match is the line's path and number (lembas-check's own reading).
			format: []string{`/.+:\d+-\d+`, `/.+:\d+`},
			whole:  map[string]func(string) bool{"error": isError},
		},
		"modules": {
			spec: newSpecLines([]string{envelope[0], marked, envelope[len(envelope)-1]}),
			skip: map[string]bool{"relPath": true, "sha256": true, "supersedes": true, "path": true},
			whole: map[string]func(string) bool{
				"code": func(s string) bool { return codes[s] },
				"root": func(s string) bool { return slices.Contains(strings.Split(spec.Text("modules.names"), ", "), s) },
			},
		},
	}
}

// jobsTemplates are the note's texts with each hole the note fills from a closed list expanded:
// how a command ended, how a subagent ended, its tail's words.
func jobsTemplates(t *testing.T) []string {
	x := func(k string) string { return spec.Text("jobs." + k) }
	var ended []string
	for _, r := range []string{"stop", "stopped", "steps", "budget", "error", "other"} {
		ended = append(ended, x("subagent.ended."+r))
	}
	lines := []string{x("command"), x("command.unread"), x("command.nothing_unread"), x("subagent"),
		x("subagent.no_report"), x("subagent.worktree"), x("subagent.tail"), x("message")}
	lines = expand(lines, "how", x("command.exit"), x("command.signal"))
	lines = expand(lines, "step_word", x("subagent.tail.step"), x("subagent.tail.steps"))
	lines = expand(lines, "tool_word", x("subagent.tail.tool"), x("subagent.tail.tools"))
	var out []string
	for _, l := range lines {
		if strings.Contains(l, " subagent · ") {
			out = append(out, expand([]string{l}, "ended", "", x("subagent.tail.ended"), x("subagent.tail.ended_error"))...)
		} else {
			out = append(out, expand([]string{l}, "ended", ended...)...)
		}
	}
	return append(out, loopStrings(t, "jobs.marks")...)
}

// caseLines is every line of every string the case holds: what a text may repeat as data.
func caseLines(input json.RawMessage) map[string]bool {
	var v any
	json.Unmarshal(input, &v)
	out := map[string]bool{"": true}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out[x] = true
			for _, l := range strings.Split(strings.ReplaceAll(x, "\r\n", "\n"), "\n") {
				out[l] = true
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for k, y := range x {
				out[k] = true
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// problems checks the strings of one expected value; key is the object key the value is under.
func (a *areaTexts) problems(key string, want any, data map[string]bool) []string {
	var out []string
	switch x := want.(type) {
	case []any:
		for _, y := range x {
			out = append(out, a.problems(key, y, data)...)
		}
	case map[string]any:
		for k, y := range x {
			out = append(out, a.problems(k, y, data)...)
		}
	case string:
		if a.skip[key] {
			return nil
		}
		if f := a.whole[key]; f != nil {
			if !f(x) {
				out = append(out, fmt.Sprintf("%q is not a %s the spec writes", x, key))
			}
			return out
		}
		if a.spec == nil && a.format == nil {
			return nil
		}
		for _, l := range strings.Split(x, "\n") {
			if !a.lineOK(l, data) {
				out = append(out, fmt.Sprintf("line %q is neither spec text nor the case's data", l))
			}
		}
	}
	return out
}

func (a *areaTexts) lineOK(l string, data map[string]bool) bool {
	if data[l] || a.spec != nil && a.spec.re.MatchString(l) {
		return true
	}
	for _, f := range a.format {
		if !strings.Contains(f, "$DATA") {
			if matcher(f)(l) {
				return true
			}
			continue
		}
		pre := strings.TrimSuffix(f, "$DATA")
		if m := regexp.MustCompile("^" + pre).FindString(l); m != "" && data[l[len(m):]] {
			return true
		}
	}
	return false
}

// specProblems checks every Then of the scenarios against the spec's texts; checked counts the
// Thens looked at, by area.
func specProblems(t *testing.T, scs []Scenario) (problems []string, checked map[string]int) {
	areas := specAreas(t)
	checked = map[string]int{}
	for _, s := range scs {
		a := areas[s.Case.Area]
		if a == nil {
			continue
		}
		data := caseLines(s.Case.Input)
		for _, c := range s.Checks {
			for _, p := range a.problems(c.Part.Key(), c.Want, data) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: %s", strings.SplitN(s.Case.File, ":", 2)[0], c.Line, c.Step, p))
			}
			checked[s.Case.Area]++
		}
	}
	return problems, checked
}

// Every text the embedded features expect is the spec's, line by line, where the spec has texts
// for the area (workspace's refusal words, paths and pieces are data, not spec text).
func TestFeatureTextsAreTheSpecs(t *testing.T) {
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	problems, checked := specProblems(t, scs)
	for _, p := range problems {
		t.Error(p)
	}
	for _, area := range []string{"context", "prefix", "jobs", "fs_access", "search", "modules"} {
		if checked[area] == 0 {
			t.Errorf("no Then of area %s was checked", area)
		}
	}
	t.Logf("Thens checked against the spec's texts, by area: %v", checked)
}

// A feature that mistypes a spec text is caught, naming its file, line and Then.
func TestAMistypedFeatureIsCaught(t *testing.T) {
	src := `Feature: jobs
  Scenario: a typo
    Given a background command "sleep" with the id "job1"
    And it exited with 0
    And it ran for 5 seconds
    And it left no unread output
    Then the note is:
      """
      [A background job you started has finished:]
      job1 (sleep) exited with 0 after 5s. It printed nothing you hadn't read.
      """
`
	scs, err := Load(fstest.MapFS{"jobs.feature": {Data: []byte(src)}}, "dir")
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := specProblems(t, scs)
	if len(problems) != 1 || !strings.Contains(problems[0], "dir/jobs.feature:7: Then the note is:") || !strings.Contains(problems[0], "hadn't read") {
		t.Errorf("problems %q", problems)
	}
}

// The check catches a one-letter typo in a spec text of each area, and passes the text as the
// spec writes it.
func TestSpecTextCheckCatchesTypos(t *testing.T) {
	areas := specAreas(t)
	data := caseLines(json.RawMessage(`{"steps": [{"content": "x = 1\ny = 2\n"}], "text": "Uses fish.", "output": "1"}`))
	for _, c := range []struct {
		area, key, good, typo string
	}{
		{"context", "", "[#a002 src/a.ts lines 1-2 of 2 sha 583e86b4] Unchanged since #a001, which already shows lines 1-2.", "[#a002 src/a.ts lines 1-2 of 2 sha 583e86b4] Unchanged since #a001, which alredy shows lines 1-2."},
		{"context", "", "[#e001]\n1\n[6 lines elided, full output #e001]", "[#e001]\n1\n[6 lines elided, ful output #e001]"},
		{"context", "", "[#c002 a.py sha a6a8e52b]\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2", "[#c002 a.py sha a6a8e52b]\n@@ -1,2 +1,2 @@\n x = 1\n-y = 3"},
		{"context", "", "## Files read before this summary\n\n| a.md | 1-1 of 1 | b6a98d9c | #2001 |", "## Files read before the summary\n\n| a.md | 1-1 of 1 | b6a98d9c | #2001 |"},
		{"prefix", "note", "<session-note>\nThe person changed what is remembered; it is now:\nUses fish.\n</session-note>", "<session-note>\nThe person changed what is remembred; it is now:\nUses fish.\n</session-note>"},
		{"prefix", "", "No repository from a forge is open to this session, so there is nothing to commit here.", "No repository from a forge is open to this session, so there's nothing to commit here."},
		{"jobs", "text", "[A background job you started has finished:]\njob1 (sleep) exited with 0 after 1m 05s. It printed nothing you had not read.", "[A background job you started has finished:]\njob1 (sleep) exited with 0 after 1m 05s. It printed nothing you hadn't read."},
		{"jobs", "text", "[explore subagent · 1 step · 0 tool calls · ended: error — connection refused]", "[explore subagent · 1 step · 0 tool calls · ended: error - connection refused]"},
		{"fs_access", "error", "Read-only: /a.md can be read in this session but not changed.", "Read-only: /a.md can be read in this session, but not changed."},
		{"fs_access", "entries", "repo/ [mount] [read-only]", "repo/ [mounted]"},
		{"search", "error", "Access denied: /Dir1 is not open to this session.", "Access denied: /Dir1 is not open for this session."},
		{"modules", "", "<instruction_module path=\"/p/a.md\" supersedes=\"earlier version\">\nx = 1\n</instruction_module>", "<instruction_module path=\"/p/a.md\" supersedes=\"earlier\">\nx = 1\n</instruction_module>"},
		{"modules", "code", "brain.context_file_oversized", "brain.context_file_too_large"},
	} {
		a := areas[c.area]
		if p := a.problems(c.key, c.good, data); len(p) > 0 {
			t.Errorf("%s: the spec's own text is refused: %v", c.area, p)
		}
		if p := a.problems(c.key, c.typo, data); len(p) == 0 {
			t.Errorf("%s: the typo %q passes", c.area, c.typo)
		}
	}
}
