package coverage

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

var update = flag.Bool("update", false, "write map.json")

// map.json is what Build makes of the vendored spec, the cases and reasons.json: a spec file, a
// case or a reason changed means `go generate ./conformance/coverage`.
func TestMapFresh(t *testing.T) {
	m, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("map.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(b, mapJSON) {
		t.Fatal("conformance/coverage/map.json is stale: run go generate ./conformance/coverage")
	}
}

// Every statement of the map has a case or a reason, every case it names exists, and the map is
// pinned to the spec files as vendored.
func TestMapComplete(t *testing.T) {
	m := Load()
	ids := map[string]bool{}
	for _, c := range conformance.Embedded() {
		ids[c.ID] = true
	}
	sums := map[string]string{}
	for _, e := range spec.Manifest() {
		sums[e.Path] = e.SHA256
	}
	for f, sum := range m.Files {
		if sums[f] != sum {
			t.Errorf("map.json pins %s at %s, the vendored spec has %s", f, sum, sums[f])
		}
	}
	for _, e := range m.Statements {
		if len(e.Cases) == 0 && strings.TrimSpace(e.Reason) == "" {
			t.Errorf("%s:%d (%s): no case and no reason: %.80s", e.File, e.Line, e.Heading, e.Text)
		}
		for _, id := range e.Cases {
			if !ids[id] {
				t.Errorf("%s:%d claims case %s, which no suite holds", e.File, e.Line, id)
			}
		}
	}
	if len(m.Statements) == 0 {
		t.Fatal("an empty map")
	}
}

// A case that quotes the vendored spec (filesystem.md, context.md) quotes a statement in the
// map: a quote found nowhere in the map is a claim on a rule the map does not hold.
func TestCaseClaimsAreInTheMap(t *testing.T) {
	var all []string
	for _, e := range Load().Statements {
		all = append(all, norm(e.Text))
	}
	text := strings.Join(all, " ")
	for _, c := range conformance.Embedded() {
		if !strings.Contains(c.About, "filesystem.md") && !strings.Contains(c.About, "context.md") {
			continue
		}
		if strings.Contains(c.About, "seeds/") {
			continue // quotes of the designs beside the spec, not of it
		}
		for _, q := range attributed(c.About) {
			if !strings.Contains(text, q) {
				t.Errorf("%s (%s) quotes %q, which no statement of the map holds", c.ID, c.Where(), q)
			}
		}
	}
}

var specQuote = regexp.MustCompile(`(?:filesystem|context)\.md,[^"“]{0,80}?: "([^"]{10,})"`)

// attributed are the quotes a case's about gives as the vendored spec's own words ("filesystem.md,
// Heading: \"…\""), each split at its ellipses.
func attributed(about string) []string {
	var out []string
	for _, m := range specQuote.FindAllStringSubmatch(about, -1) {
		for _, part := range strings.Split(m[1], "…") {
			if p := norm(part); len(p) >= minQuote {
				out = append(out, p)
			}
		}
	}
	return out
}

// `spec coverage --format json` is one object per statement, then the standard footer whose
// counts add up to the statements.
func TestJSONLines(t *testing.T) {
	var b bytes.Buffer
	if code := Command(&b, &b, "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, b.String())
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != len(Load().Statements)+1 {
		t.Fatalf("%d lines for %d statements", len(lines), len(Load().Statements))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"file", "line", "heading", "text", "cases"} {
		if _, ok := first[k]; !ok {
			t.Errorf("a statement's line has no %q: %s", k, lines[0])
		}
	}
	var foot struct {
		Type   string         `json:"type"`
		Counts map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &foot); err != nil || foot.Type != "footer" {
		t.Fatalf("no footer: %s", lines[len(lines)-1])
	}
	c := foot.Counts
	if c["covered"]+c["reasoned"]+c["todo"]+c["informative"] != c["statements"] ||
		c["statements"] != len(Load().Statements) {
		t.Errorf("the footer's counts do not add up: %v", c)
	}
}

// An informative sentence is listed but left out of the share; a reason of any other words is a rule
// no target can show and stays in it.
func TestInformativeIsLeftOutOfTheShare(t *testing.T) {
	m := &Map{Statements: []Entry{
		{Cases: []string{"a/1"}},
		{Cases: []string{}, Reason: "informative: says where the texts are"},
		{Cases: []string{}, Reason: "no target can show it"},
		{Cases: []string{}, Reason: "todo: a case could"},
	}}
	s := m.Summarize()
	if s.Covered != 1 || s.Informative != 1 || s.Reasoned != 1 || s.Todo != 1 || s.Rules() != 3 {
		t.Fatalf("summary %+v", s)
	}
	if s.Percent() != 33.3 {
		t.Errorf("share %.1f %%, want 33.3 (1 of 3 rules)", s.Percent())
	}
	if !strings.Contains(s.Line(), "1 of 3 normative statements") || !strings.Contains(s.Line(), "1 sentences more") {
		t.Errorf("line %q", s.Line())
	}
}

// A map with a statement that has neither a case nor a reason fails.
func TestStatusFailsOnASilentStatement(t *testing.T) {
	m := &Map{Statements: []Entry{{File: "f.md", Line: 1, Text: "x", Cases: []string{}}}}
	if m.Status().Code() != 1 {
		t.Errorf("status %v for a statement with no case and no reason", m.Status())
	}
}

// README's first lines say the figure the map gives, so that it is never left as an older one.
func TestREADMESaysTheFigure(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Spec coverage: " + Load().Summarize().Line(); !strings.Contains(string(b), want) {
		t.Errorf("README.md does not say %q", want)
	}
}

// Each leaf of loop.partial.json is written on a line of its own, and its statement says that line
// (and the line writes its key): two objects' equal `default`s (jobs.finished_kept's and
// jobs.subagent_steps' 50) are two lines, not the first one twice.
func TestJSONLeavesAreOnTheirOwnLines(t *testing.T) {
	stmts, err := Extract(spec.Files)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fs.ReadFile(spec.Files, "loop.partial.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	seen := map[int]string{}
	for _, s := range stmts {
		if s.File != "loop.partial.json" {
			continue
		}
		if other, dup := seen[s.Line]; dup {
			t.Errorf("%s and %s are both at line %d", other, s.Heading, s.Line)
		}
		seen[s.Line] = s.Heading
		last := s.Heading[strings.LastIndexByte(s.Heading, '.')+1:]
		if !strings.Contains(lines[s.Line-1], `"`+last+`":`) {
			t.Errorf("%s: line %d is %q", s.Heading, s.Line, lines[s.Line-1])
		}
	}
}
