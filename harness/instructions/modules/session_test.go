package modules

import (
	"fmt"
	"strings"
	"testing"
)

func disk(t testing.TB, files map[string]string, links map[string]string) *Disk {
	t.Helper()
	fs := map[string][]byte{}
	for p, s := range files {
		fs[p] = []byte(s)
	}
	d, err := NewDisk(fs, links)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func rels(ms []Loaded) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.RelPath)
	}
	return strings.Join(out, " ")
}

func diags(ds []Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path+"="+d.Code)
	}
	return strings.Join(out, " ")
}

func TestNestedFolderGivesOneFileAndARefusedOneIsNotReplaced(t *testing.T) {
	big := strings.Repeat("x", SpecTexts().MaxBytes+1)
	s := New("/p", disk(t, map[string]string{
		"/p/a/AGENTS.md": big, "/p/a/CLAUDE.md": "claude a\n", // refused: CLAUDE.md does not stand in
		"/p/b/AGENTS.md/inner": "x", "/p/b/AGENTS.MD": "upper b\n", // a folder named AGENTS.md is not a file
		"/p/c/CLAUDE.md": "claude c\n", // the dangling link before it is not a file
		"/p/d/AGENTS.md": "\ufeffbom d\n",
	}, map[string]string{"/p/c/AGENTS.md": "missing.md"}))
	s.Touch("/p/a/x", "/p/b/x", "/p/c/x", "/p/d/x")
	a := s.Request(false)
	if got, want := rels(a.Modules), "b/AGENTS.MD c/CLAUDE.md d/AGENTS.md"; got != want {
		t.Errorf("modules %q, want %q", got, want)
	}
	if got, want := diags(a.Diagnostics), "a/AGENTS.md="+SpecTexts().Oversized; got != want {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	if d := a.Modules[2]; d.SHA256 != sum([]byte("bom d\n")) || !strings.Contains(d.Envelope, ">\nbom d\n\n<") {
		t.Errorf("a nested file's BOM is not stripped: %q", d.Envelope)
	}
}

func TestOrderIsDepthThenPath(t *testing.T) {
	s := New("/p", disk(t, map[string]string{"/p/a/b/AGENTS.md": "ab", "/p/z/AGENTS.md": "z", "/p/a/AGENTS.md": "a", "/p/m/n/o/AGENTS.md": "mno"}, nil))
	s.Touch("/p/m/n/o/f", "/p/a/b/f", "/p/z/f")
	if got, want := rels(s.Request(false).Modules), "a/AGENTS.md z/AGENTS.md a/b/AGENTS.md m/n/o/AGENTS.md"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestRootAtSlashAndRootThroughALink(t *testing.T) {
	s := New("/", disk(t, map[string]string{"/.elowen/rules/r.md": "---\npaths: [\"*\"]\n---\nr\n"}, nil))
	s.Touch("/x")
	if a := s.Request(false); len(a.Modules) != 1 || !strings.HasPrefix(a.Modules[0].Envelope, `<instruction_module path="/.elowen/rules/r.md">`) {
		t.Errorf("root /: %+v", a)
	}
	// The project is a link: the resolver reads its real path, a rule linking into that real path
	// stays inside, and the envelope names the module under the root as the session knows it.
	d := disk(t, map[string]string{
		"/srv/p/.elowen/rules/r.md": "---\npaths: [\"src/**\"]\n---\nr\n", "/srv/p/docs/shared.md": "---\npaths: [\"src/**\"]\n---\nshared\n",
	}, map[string]string{"/project": "/srv/p", "/srv/p/.elowen/rules/s.md": "/srv/p/docs/shared.md"})
	s = New("/project", d)
	s.Touch("/project/src/a.ts", "/srv/p/src/b.ts")
	a := s.Request(false)
	if got := rels(a.Modules); got != ".elowen/rules/r.md .elowen/rules/s.md" || len(a.Diagnostics) != 0 {
		t.Fatalf("modules %q diagnostics %q", got, diags(a.Diagnostics))
	}
	if !strings.HasPrefix(a.Modules[0].Envelope, `<instruction_module path="/project/.elowen/rules/r.md">`) {
		t.Errorf("envelope %q", a.Modules[0].Envelope)
	}
}

func TestWhatATouchIs(t *testing.T) {
	s := New("/p", disk(t, map[string]string{"/p/.elowen/rules/r.md": "---\npaths: [\"**\"]\n---\nr\n", "/p/AGENTS.md": "root"}, map[string]string{"/p/.elowen/rules/x.md": "/etc/x"}))
	for _, p := range []string{"p/a.ts", "/p", "/p/", "/p/..", "/q/a.ts", "/pp/a.ts"} {
		s.Touch(p)
		if a := s.Request(false); a.Appended || len(a.Diagnostics) != 0 {
			t.Errorf("touch %q: %+v; want nothing, not even a diagnostic", p, a)
		}
	}
	s.Touch("/p/x/../AGENTS.md")
	if a := s.Request(false); rels(a.Modules) != ".elowen/rules/r.md" || diags(a.Diagnostics) != ".elowen/rules/x.md="+SpecTexts().Escape {
		t.Errorf("touch of the root file (read by its text): %q %q", rels(a.Modules), diags(a.Diagnostics))
	}
}

func TestAFailedAppendNeedsSomethingToAppend(t *testing.T) {
	s := New("/p", disk(t, map[string]string{"/p/.elowen/rules/r.md": "---\npaths: [\"a\"]\n---\nr\n"}, nil))
	s.Touch("/p/b")
	if a := s.Request(true); a.Appended || len(a.Diagnostics) != 0 {
		t.Errorf("nothing to append, yet %+v", a)
	}
	s.Touch("/p/a")
	if a := s.Request(true); a.Appended || diags(a.Diagnostics) != "="+SpecTexts().ActivationFailed {
		t.Errorf("failed append: %+v", a)
	}
	// Spawn in between changes neither the queue nor what is present.
	s.Spawn()
	if a := s.Request(false); rels(a.Modules) != ".elowen/rules/r.md" {
		t.Errorf("after the failure the queue was lost: %+v", a)
	}
	s.Touch("/p/a")
	if a := s.Request(true); a.Appended || len(a.Diagnostics) != 0 {
		t.Errorf("present already, so nothing to append and nothing to fail: %+v", a)
	}
}

func TestSameContentAtTwoPathsIsTwoModulesAndALoopIsSkipped(t *testing.T) {
	s := New("/p", disk(t, map[string]string{
		"/p/.elowen/rules/a.md": "---\npaths: [x]\n---\nsame\n", "/p/.elowen/rules/b.md": "---\npaths: [\"*\"]\n---\nsame\n",
	}, map[string]string{"/p/.elowen/rules/l1.md": "l2.md", "/p/.elowen/rules/l2.md": "l1.md"}))
	s.Touch("/p/x")
	a := s.Request(false)
	if rels(a.Modules) != ".elowen/rules/a.md .elowen/rules/b.md" || a.Modules[0].SHA256 != a.Modules[1].SHA256 || len(a.Diagnostics) != 0 {
		t.Errorf("%q %q", rels(a.Modules), diags(a.Diagnostics))
	}
}

func TestSortDiagnostics(t *testing.T) {
	ds := []Diagnostic{{Code: "z"}, {Path: "b", Code: "y"}, {Path: "a", Code: "y"}, {Path: "a", Code: "x"}, {Path: "a"}}
	sortDiagnostics(ds)
	if got := diags(ds); got != "a= a=x a=y b=y =z" {
		t.Errorf("order %q", got)
	}
}

// benchProject is 1,000 rule files — half conditional: 250 with globs over 25 of the 150
// packages touched, 250 whose globs nothing touched matches — and 10,000 touched paths.
func benchProject(b *testing.B) (*Disk, []string) {
	files := map[string][]byte{}
	for i := range 1000 {
		var body string
		switch i % 4 {
		case 0:
			body = fmt.Sprintf("---\npaths:\n  - \"pkg%d/**/*.go\"\n  - \"docs/pkg%d/*.md\"\n---\nrule %d\n", i%100, i%100, i)
		case 1:
			body = fmt.Sprintf("---\npaths: [\"**/gen%d_*.go\", \"cmd/tool%d/**\"]\n---\nrule %d\n", i, i, i)
		default:
			body = fmt.Sprintf("# rule %d\nunconditional\n", i)
		}
		files[fmt.Sprintf("/p/.elowen/rules/team%d/rule%04d.md", i%10, i)] = []byte(body)
	}
	var touched []string
	for i := range 10000 {
		touched = append(touched, fmt.Sprintf("/p/pkg%d/sub%d/file%d.go", i%150, i%7, i))
	}
	d, err := NewDisk(files, nil)
	if err != nil {
		b.Fatal(err)
	}
	return d, touched
}

// BenchmarkSelect is the hot path on its own: which of 1,000 rules' globs match any of 10,000
// touched paths.
func BenchmarkSelect(b *testing.B) {
	d, touched := benchProject(b)
	s := New("/p", d)
	rules, _ := s.rules(s.base())
	var relPaths []string
	for _, p := range touched {
		r, _ := s.rel(p, s.base())
		relPaths = append(relPaths, r)
	}
	b.ResetTimer()
	for b.Loop() {
		ps := NewPaths(relPaths)
		n := 0
		for _, r := range rules {
			for _, g := range r.mod.Globs {
				if g.MatchAny(ps) {
					n++
					break
				}
			}
		}
		if n != 250 {
			b.Fatalf("%d rules selected, want 250", n)
		}
	}
}

// BenchmarkRequest is a whole activation: discovery of 1,000 rule files (read and parsed, as
// every trigger does), nested lookup and selection for 10,000 touched paths.
func BenchmarkRequest(b *testing.B) {
	d, touched := benchProject(b)
	for b.Loop() {
		s := New("/p", d)
		s.Touch(touched...)
		if a := s.Request(false); len(a.Modules) != 250 {
			b.Fatalf("%d modules, want 250", len(a.Modules))
		}
	}
}

// A root that leads nowhere — a link loop, or nothing there — holds nothing, and a touched path
// is read against it by its text only.
func TestARootThatLeadsNowhere(t *testing.T) {
	s := New("/project", disk(t, map[string]string{"/elsewhere/.elowen/rules/r.md": "---\npaths: [\"**\"]\n---\nr\n"},
		map[string]string{"/project": "/loop", "/loop": "/project"}))
	if st := s.Spawn(); st.Root != "" || len(st.Modules) != 0 || len(st.Diagnostics) != 0 {
		t.Errorf("spawn: %+v", st)
	}
	s.Touch("/elsewhere/x", "/project/x")
	if a := s.Request(false); a.Appended || len(a.Diagnostics) != 0 {
		t.Errorf("request: %+v", a)
	}
}
