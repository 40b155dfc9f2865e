package fsaccess

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Code names one row of filesystem.md's *Errors* table. The names are this package's own; the
// words come from the table itself, parsed at first use, so no error text is typed in Go.
type Code int

const (
	NoSuchFile      Code = iota + 1 // not visible, under a visible ancestor
	AccessDenied                    // a passage, under a passage, or a name taken at none
	ReadOnly                        // a change at ro
	NotCommitted                    // a commit at stage
	NothingToCommit                 // a commit outside every mount
	IsADirectory                    // a directory where a file was meant
	NotADirectory                   // a file where a directory was meant
	AlreadyExists                   // mv's target, or a file mkdir was asked to make
	Unavailable                     // a tool whose requires is not met: the tool's own text
)

// errorRows finds each Code's row by how its *Case* cell begins: the cell says when the error
// applies, so the row is found by its meaning, wherever it sits in the table.
var errorRows = []struct {
	code     Code
	name     string
	casePref string
}{
	{NoSuchFile, "no_such_file", "not visible (missing"},
	{AccessDenied, "access_denied", "a passage;"},
	{ReadOnly, "read_only", "a change at `ro`"},
	{NotCommitted, "not_committed", "a commit at `stage`"},
	{NothingToCommit, "nothing_to_commit", "a commit outside every mount"},
	{IsADirectory, "is_a_directory", "a directory where a file"},
	{NotADirectory, "not_a_directory", "a file where a directory"},
	{AlreadyExists, "already_exists", "`mv`'s target"},
	{Unavailable, "unavailable", "a tool whose `requires`"},
}

// String is the Code's stable name (no_such_file, access_denied, …).
func (c Code) String() string {
	for _, r := range errorRows {
		if r.code == c {
			return r.name
		}
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// Template is one error text split at its `{path}`.
type Template struct {
	Before, After string
}

// Render fills the template's `{path}`.
func (t Template) Render(path string) string { return t.Before + path + t.After }

// Texts is what the view says, all from filesystem.md: the error templates by Code (Unavailable
// has none: it is the tool's own `unavailable` text), and the listing's marks.
type Texts struct {
	Errors map[Code]Template
	// DirSuffix ends a directory's (and a mount's) entry; MountMark and ReadOnlyMark follow it.
	DirSuffix    string
	MountMark    string
	ReadOnlyMark string
}

// SpecTexts are the vendored filesystem.md's texts, parsed once. A table or sentence that changed
// shape panics: every answer the view gives would be wrong without it.
var SpecTexts = spec.Parsed("harness/spec/files/filesystem.md", func() (Texts, error) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		return Texts{}, err
	}
	return ParseTexts(md)
})

// ParseTexts reads the *Errors* table and the *A listing* section of a filesystem.md.
func ParseTexts(md []byte) (Texts, error) {
	errs, err := parseErrorTable(section(md, "## Errors"))
	if err != nil {
		return Texts{}, fmt.Errorf("## Errors: %w", err)
	}
	t := Texts{Errors: errs}
	listing := strings.Join(section(md, "## A listing"), " ")
	if listing == "" {
		return Texts{}, fmt.Errorf("## A listing: no such section")
	}
	for _, m := range []struct {
		into *string
		re   *regexp.Regexp
	}{
		{&t.DirSuffix, regexp.MustCompile("with a trailing `([^`]+)`")},
		{&t.MountMark, regexp.MustCompile("a mount marked `([^`]+)`")},
		{&t.ReadOnlyMark, regexp.MustCompile("read but not change, in a directory it can, marked `([^`]+)`")},
	} {
		found := m.re.FindAllStringSubmatch(listing, -1)
		if len(found) != 1 {
			return Texts{}, fmt.Errorf("## A listing: want one match of %q, found %d", m.re, len(found))
		}
		*m.into = found[0][1]
	}
	return t, nil
}

// section is the lines under a heading, up to the next heading of the same or a higher level.
func section(md []byte, heading string) []string {
	var out []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		if line == heading {
			in = true
			continue
		}
		if in && strings.HasPrefix(line, "## ") || in && strings.HasPrefix(line, "# ") {
			break
		}
		if in {
			out = append(out, line)
		}
	}
	return out
}

// parseErrorTable reads `| Case | Text |` rows. Every row must be one of errorRows and every one
// of errorRows must be there once; a text row's Text cell is one backticked text with one
// `{path}`; the Unavailable row's is not a text.
func parseErrorTable(lines []string) (map[Code]Template, error) {
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("no table")
	}
	if rows[0] != "| Case | Text |" || rows[1] != "|---|---|" {
		return nil, fmt.Errorf("the table's head is %q / %q, want \"| Case | Text |\" / \"|---|---|\"", rows[0], rows[1])
	}
	out := map[Code]Template{}
	seen := map[Code]bool{}
	for _, row := range rows[2:] {
		if !strings.HasPrefix(row, "| ") || !strings.HasSuffix(row, " |") {
			return nil, fmt.Errorf("row %q: want \"| case | text |\"", row)
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(row, "| "), " |"), " | ")
		if len(cells) != 2 {
			return nil, fmt.Errorf("row %q: %d cells, want 2", row, len(cells))
		}
		var code Code
		for _, r := range errorRows {
			if strings.HasPrefix(cells[0], r.casePref) {
				if code != 0 {
					return nil, fmt.Errorf("row %q: matches both %s and %s", row, code, r.code)
				}
				code = r.code
			}
		}
		if code == 0 {
			return nil, fmt.Errorf("row %q: a case this package does not know", row)
		}
		if seen[code] {
			return nil, fmt.Errorf("row %q: a second %s row", row, code)
		}
		seen[code] = true
		text, isText := backticked(cells[1])
		if code == Unavailable {
			if isText {
				return nil, fmt.Errorf("row %q: the %s row has become a text", row, code)
			}
			continue
		}
		if !isText {
			return nil, fmt.Errorf("row %q: the text is not one `backticked` text", row)
		}
		before, after, ok := strings.Cut(text, "{path}")
		if !ok || strings.Contains(after, "{path}") {
			return nil, fmt.Errorf("row %q: the text has not exactly one {path}", row)
		}
		out[code] = Template{Before: before, After: after}
	}
	for _, r := range errorRows {
		if !seen[r.code] {
			return nil, fmt.Errorf("no %s row (its case begins %q)", r.name, r.casePref)
		}
	}
	return out, nil
}

// backticked is s without its backticks when s is exactly one `…` span.
func backticked(s string) (string, bool) {
	if len(s) < 2 || s[0] != '`' || s[len(s)-1] != '`' || strings.Count(s, "`") != 2 {
		return "", false
	}
	return s[1 : len(s)-1], true
}
