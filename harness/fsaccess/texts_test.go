package fsaccess

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

func filesystemMD(t testing.TB) string {
	t.Helper()
	b, err := spec.ReadFile("filesystem.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSpecTextsFindEveryRowOfTheErrorsTable(t *testing.T) {
	tx := SpecTexts()
	for _, r := range errorRows {
		_, ok := tx.Errors[r.code]
		if want := r.code != Unavailable; ok != want {
			t.Errorf("%s: has a template %v, want %v", r.name, ok, want)
		}
	}
	for _, r := range refusalRows {
		if tmpl, ok := tx.Errors[r.code]; !ok || tmpl.Before != "" || !strings.HasPrefix(tmpl.After, " ") {
			t.Errorf("%s: template %q / %q, want one beginning with the path", r.name, tmpl.Before, tmpl.After)
		}
	}
	if len(tx.Errors) != len(errorRows)-1+len(refusalRows) {
		t.Errorf("%d templates, want %d", len(tx.Errors), len(errorRows)-1+len(refusalRows))
	}
	for code, tmpl := range tx.Errors {
		if tmpl.Before == "" && code != NotRead && code != ChangedSinceRead || strings.Contains(tmpl.Before+tmpl.After, "`") {
			t.Errorf("%s: template %q / %q looks mis-parsed", code, tmpl.Before, tmpl.After)
		}
	}
	if tx.DirSuffix != "/" || tx.MountMark == "" || tx.ReadOnlyMark == "" || !strings.HasPrefix(tx.MountMark, " ") || !strings.HasPrefix(tx.ReadOnlyMark, " ") {
		t.Errorf("listing texts %q %q %q", tx.DirSuffix, tx.MountMark, tx.ReadOnlyMark)
	}
}

// fsCases reads the vendored conformance/fs_access.json raw.
func fsCases(t testing.TB) []map[string]any {
	t.Helper()
	b, err := fs.ReadFile(spec.Conformance(), "fs_access.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []map[string]any }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

// Every error text the cases expect is one parsed template with an absolute path filled in,
// and every listing mark the cases show is a parsed one: the parse and the cases agree.
func TestErrorTextsAndMarksAreTheCases(t *testing.T) {
	tx := SpecTexts()
	used := map[Code]bool{}
	marks := map[string]bool{}
	for i, c := range fsCases(t) {
		exp := c["expect"].(map[string]any)
		if text, ok := exp["error"].(string); ok {
			var found Code
			for code, tmpl := range tx.Errors {
				if strings.HasPrefix(text, tmpl.Before) && strings.HasSuffix(text, tmpl.After) {
					p := strings.TrimSuffix(strings.TrimPrefix(text, tmpl.Before), tmpl.After)
					if isClean(p) {
						found = code
					}
				}
			}
			if found == 0 {
				t.Errorf("case %d: %q is no parsed error text", i, text)
			}
			used[found] = true
		}
		if es, ok := exp["entries"].([]any); ok {
			for _, e := range es {
				if _, m, ok := strings.Cut(e.(string), " ["); ok {
					marks[" ["+m] = true
				}
			}
		}
	}
	for _, code := range []Code{NoSuchFile, AccessDenied, ReadOnly, NotCommitted, NothingToCommit, IsADirectory, NotADirectory, AlreadyExists} {
		if !used[code] {
			t.Errorf("no case expects %s: the check above does not cover it", code)
		}
	}
	if !marks[tx.MountMark] || !marks[tx.ReadOnlyMark] || len(marks) != 2 {
		t.Errorf("the cases' marks %v, parsed %q and %q", marks, tx.MountMark, tx.ReadOnlyMark)
	}
}

// A table that changed shape must fail to parse, loudly, never give a wrong or partial text.
func TestParseTextsFailsWhenTheTableChangesShape(t *testing.T) {
	md := filesystemMD(t)
	if _, err := ParseTexts([]byte(md)); err != nil {
		t.Fatalf("the vendored file: %v", err)
	}
	row := func(prefix string) string {
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "| "+prefix) {
				return l
			}
		}
		t.Fatalf("no row %q", prefix)
		return ""
	}
	readOnly := row("a change at `ro`")
	for _, c := range []struct{ name, from, to, want string }{
		{"a row removed", readOnly + "\n", "", "no read_only row"},
		{"a row doubled", readOnly, readOnly + "\n" + readOnly, "a second read_only row"},
		{"a row unknown", readOnly, readOnly + "\n| a new case | `New: {path}` |", "a case this package does not know"},
		{"a third column", readOnly, strings.TrimSuffix(readOnly, " |") + " | x |", "3 cells"},
		{"the head renamed", "| Case | Text |", "| When | Text |", "the table's head"},
		{"no {path}", "`Read-only: {path} can", "`Read-only: it can", "not exactly one {path}"},
		{"two {path}", "`Is a directory: {path}`", "`Is a directory: {path} {path}`", "not exactly one {path}"},
		{"text not backticked", "`Is a directory: {path}`", "Is a directory: {path}", "not one `backticked` text"},
		{"unavailable became a text", "the tool's `unavailable` text", "`Unavailable: {path}`", "has become a text"},
		{"no section", "## Errors", "## Failures", "0 tables"},
		{"no refusals", "| Case | Text |\n|---|---|\n| the file exists", "the file exists", "the second table"},
		{"a refusal unknown", "| the file exists and", "| the file is there and", "a case this package does not know"},
		{"no depth", "(default 2, at most 6)", "(default 2)", "`depth`"},
		{"no cap", "At most 400 lines", "At most many lines", "At most"},
		{"no empty text", "`(empty)` from `list`", "nothing from `list`", "An empty directory"},
		{"no listing", "## A listing", "## Listings", "no such section"},
		{"mount mark gone", "a mount marked ` [mount]`", "a mount shown", "a mount marked"},
		{"read-only mark doubled", "marked ` [read-only]`.", "marked ` [read-only]`, read but not change, in a directory it can, marked ` [ro]`.", "read but not change"},
	} {
		if !strings.Contains(md, c.from) {
			t.Fatalf("%s: the file has no %q to change", c.name, c.from)
		}
		_, err := ParseTexts([]byte(strings.Replace(md, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// The level names this package writes are filesystem.md's *Access levels* table, in order, and
// what each may do (read, change, commit) is what the ops enforce.
func TestLevelsAreTheSpecTable(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| [^|]+ \\| (yes|no) \\| (yes|no) \\| (yes|no) \\|$")
	rows := row.FindAllStringSubmatch(filesystemMD(t), -1)
	if len(rows) != len(levelNames) {
		t.Fatalf("%d level rows in filesystem.md, %d levels here", len(rows), len(levelNames))
	}
	for i, r := range rows {
		l := Level(i)
		if r[1] != l.String() {
			t.Errorf("row %d is %q, level %d is %q", i, r[1], i, l)
		}
		if got := l >= RO; got != (r[2] == "yes") {
			t.Errorf("%s: read %v, table %s", l, got, r[2])
		}
		if got := l >= Stage; got != (r[3] == "yes") {
			t.Errorf("%s: change %v, table %s", l, got, r[3])
		}
		if got := l >= Commit; got != (r[4] == "yes") {
			t.Errorf("%s: commit %v, table %s", l, got, r[4])
		}
		if p, err := ParseLevel(r[1]); err != nil || p != l {
			t.Errorf("ParseLevel(%q) = %v, %v", r[1], p, err)
		}
	}
	if _, err := ParseLevel("write"); err == nil {
		t.Error("ParseLevel(write): no error")
	}
}

func TestErrorTextNamesThePath(t *testing.T) {
	e := &Error{Code: NoSuchFile, Path: "/a {path} b"}
	tmpl := SpecTexts().Errors[NoSuchFile]
	if got := e.Error(); got != tmpl.Before+"/a {path} b"+tmpl.After {
		t.Errorf("got %q", got)
	}
	if got := (&Error{Code: Unavailable, Path: "/x"}).Error(); !strings.Contains(got, "unavailable") {
		t.Errorf("Unavailable has no text of its own, got %q", got)
	}
}
