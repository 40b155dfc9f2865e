package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// The embedded cases come from their table, undecoded until a target needs them; a folder's
// copy of an embedded case is kept once, and one that expects another answer is refused, as
// between two folders.
func TestLoadCasesEmbeddedThenFolders(t *testing.T) {
	cases, err := LoadCases(SuiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != len(conformance.Embedded()) {
		t.Fatalf("%d cases, %d embedded", len(cases), len(conformance.Embedded()))
	}
	var job conformance.Case
	for _, c := range cases {
		if c.Decoded != nil {
			t.Fatalf("%s was decoded at load", c.ID)
		}
		if c.Area == "jobs" && job.ID == "" {
			job = c
		}
	}
	if _, err := job.Decode(); err != nil {
		t.Fatalf("%s: %v", job.ID, err)
	}
	obj := strings.TrimSuffix(string(job.Input), "}") + `,"expect":` + string(job.Expect) + "}"
	same := writeJobs(t, obj)
	if got, err := LoadCases(SuiteOptions{Dirs: []string{same}}); err != nil || len(got) != len(cases) {
		t.Errorf("an embedded case again in a folder: %d cases, %v", len(got), err)
	}
	other := writeJobs(t, strings.TrimSuffix(string(job.Input), "}")+`,"expect":{"text":"another"}}`)
	if _, err := LoadCases(SuiteOptions{Dirs: []string{other}}); err == nil || !strings.Contains(err.Error(), "expects another answer") {
		t.Errorf("a folder disagreeing with an embedded case: %v", err)
	}
}

func writeJobs(t *testing.T, caseObj string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "jobs.json"), []byte(`{"about": "", "cases": [`+caseObj+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A case file that is not JSON is one malformed verdict naming its file and line, a malformed
// case is a malformed verdict for that case alone, and every other case still runs (issue 28).
func TestBrokenFilesAreMalformedVerdicts(t *testing.T) {
	cases, err := LoadCases(SuiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var job conformance.Case
	for _, c := range cases {
		if c.Area == "jobs" {
			job = c
			break
		}
	}
	good := strings.TrimSuffix(string(job.Input), "}") + `,"expect":` + string(job.Expect) + "}"
	dir := t.TempDir()
	for name, body := range map[string]string{
		"jobs.json":  `{"cases": [` + good + `, {"kind": "daemon", "expect": {"text": ""}}]}`,
		"chunk.json": "{\"cases\": [\n  {\"text\": }\n]}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := LoadCases(SuiteOptions{NoEmbedded: true, Dirs: []string{dir}})
	if err != nil {
		t.Fatalf("a broken file stopped the load: %v", err)
	}
	rep := Run(t.Context(), Builtin{}, TargetInfo{Areas: []string{"jobs", "chunk"}}, CaseItems(got), Options{})
	want := map[string]Verdict{"chunk.json:2:": Malformed, "jobs.json:3: case 1: field kind": Malformed, "": Pass}
	seen := map[string]bool{}
	for _, r := range rep.Results {
		for frag, v := range want {
			if r.Verdict == v && strings.Contains(r.Message, frag) && (frag != "" || r.Verdict == Pass) {
				seen[frag] = true
			}
		}
	}
	if len(rep.Results) != 3 || len(seen) != len(want) {
		for _, r := range rep.Results {
			t.Logf("%s %s %s", r.Case.ID, r.Verdict, r.Message)
		}
		t.Fatalf("want one malformed verdict per broken file or case and the good case passing")
	}
}

// The loaded cases come area by area, each area's in suite order, so that a report's results
// lie together and ByArea copies none (the embedded table held the vendored spec's suite and then
// lembas-check's own, and ByArea copied all 470 results each time a report was written).
func TestLoadCasesAreaByArea(t *testing.T) {
	dir := t.TempDir()
	good := `{"kind": "to_subagent", "text": "from a folder", "expect": {"text": "x"}}`
	if err := os.WriteFile(filepath.Join(dir, "jobs.json"), []byte(`{"cases": [`+good+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases, err := LoadCases(SuiteOptions{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	for i, c := range cases {
		if i > 0 && c.Area != cases[i-1].Area {
			done[cases[i-1].Area] = true
		}
		if done[c.Area] {
			t.Fatalf("case %d (%s) comes after its area's cases ended", i, c.ID)
		}
	}
	// Within an area, the embedded cases keep their order and the folder's come after them.
	var jobs []conformance.Case
	for _, c := range cases {
		if c.Area == "jobs" {
			jobs = append(jobs, c)
		}
	}
	if last := jobs[len(jobs)-1]; !strings.Contains(string(last.Input), "from a folder") {
		t.Errorf("the folder's jobs case is not last of its area: %s", last.ID)
	}
	rep := &Report{Results: make([]Result, len(cases))}
	for i, c := range cases {
		rep.Results[i].Case = c
	}
	_, by := rep.ByArea()
	first := slices.IndexFunc(cases, func(c conformance.Case) bool { return c.Area == "jobs" })
	if g := by["jobs"]; &g[0] != &rep.Results[first] {
		t.Error("ByArea copied the results of a run that comes area by area")
	}
}
