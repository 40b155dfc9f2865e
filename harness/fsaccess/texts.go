package fsaccess

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Code names one row of filesystem.md's *Errors* table. The names are this package's own; the
// words come from the table itself, parsed at first use, so no error text is typed in Go.
type Code int

const (
	NoSuchFile       Code = iota + 1 // not visible, under a visible ancestor
	AccessDenied                     // a passage, under a passage, or a name taken at none
	ReadOnly                         // a change at ro
	NotCommitted                     // a commit at stage
	NothingToCommit                  // a commit outside every mount
	IsADirectory                     // a directory where a file was meant
	NotADirectory                    // a file where a directory was meant
	AlreadyExists                    // mv's target, or a file mkdir was asked to make
	Unavailable                      // a tool whose requires is not met: the tool's own text
	NotRead                          // write/edit of an existing file this session has not read
	ChangedSinceRead                 // write/edit of a file changed since this session last saw it
)

// rowSpec is one row of a `| Case | Text |` table, found by how its Case cell begins.
type rowSpec struct {
	code     Code
	name     string
	casePref string
}

// errorRows finds each Code's row by how its *Case* cell begins: the cell says when the error
// applies, so the row is found by its meaning, wherever it sits in the table.
var errorRows = []rowSpec{
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

// refusalRows are the second table under *Errors*: write's and edit's read-before-change refusals.
var refusalRows = []rowSpec{
	{NotRead, "not_read", "the file exists and this session has not read it"},
	{ChangedSinceRead, "changed_since_read", "it changed since this session last read"},
}

// String is the Code's stable name (no_such_file, access_denied, …).
func (c Code) String() string {
	for _, r := range append(errorRows[:len(errorRows):len(errorRows)], refusalRows...) {
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
// has none: it is the tool's own `unavailable` text; NotRead and ChangedSinceRead are the second
// table's), and the listing's marks, texts and numbers.
type Texts struct {
	Errors map[Code]Template
	// DirSuffix ends a directory's (and a mount's) entry; MountMark and ReadOnlyMark follow it.
	DirSuffix    string
	MountMark    string
	ReadOnlyMark string
	// EmptyRead and EmptyList are an empty directory's text from read and from list.
	EmptyRead, EmptyList string
	// DepthDefault and DepthMax bound list's depth; Indent is the spaces each level adds.
	DepthDefault, DepthMax, Indent int
	// MaxLines caps a listing, MoreLine is the line after the cap.
	MaxLines int
	MoreLine string
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

// ParseTexts reads the *Errors* tables and the *A listing* section of a filesystem.md.
func ParseTexts(md []byte) (Texts, error) {
	tables := tablesOf(section(md, "## Errors"))
	if len(tables) != 2 {
		return Texts{}, fmt.Errorf("## Errors: %d tables, want 2 (the errors, write's and edit's refusals)",
			len(tables))
	}
	errs, err := parseErrorTable(tables[0], errorRows)
	if err != nil {
		return Texts{}, fmt.Errorf("## Errors: %w", err)
	}
	refusals, err := parseErrorTable(tables[1], refusalRows)
	if err != nil {
		return Texts{}, fmt.Errorf("## Errors, the second table: %w", err)
	}
	for c, t := range refusals {
		errs[c] = t
	}
	t := Texts{Errors: errs}
	listing := strings.Join(section(md, "## A listing"), " ")
	if listing == "" {
		return Texts{}, fmt.Errorf("## A listing: no such section")
	}
	var depthDefault, depthMax, indent, maxLines string
	for _, m := range []struct {
		into []*string
		s    string
	}{
		{[]*string{&t.DirSuffix}, "with a trailing `{t}`"},
		{[]*string{&t.MountMark}, "a mount marked `{t}`"},
		{[]*string{&t.ReadOnlyMark}, "read but not change, in a directory it can, marked `{t}`"},
		{[]*string{&t.EmptyRead, &t.EmptyList}, "An empty directory is `{t}` from `read`, `{t}` from `list`"},
		{[]*string{&depthDefault, &depthMax}, "`list` with a `depth` (default {n}, at most {n})"},
		{[]*string{&indent}, "each level indented by {w} more spaces"},
		{[]*string{&maxLines, &t.MoreLine}, "At most {n} lines, then `{t}` on its own line"},
	} {
		found := spec.FindAll(listing, m.s)
		if len(found) != 1 {
			return Texts{}, fmt.Errorf("## A listing: want one match of %q, found %d", m.s, len(found))
		}
		for i, into := range m.into {
			*into = found[0][i]
		}
	}
	words := map[string]string{"one": "1", "two": "2", "three": "3", "four": "4"}
	if w, ok := words[indent]; ok {
		indent = w
	}
	for _, n := range []struct {
		into *int
		s    string
	}{{&t.DepthDefault, depthDefault}, {&t.DepthMax, depthMax}, {&t.Indent, indent}, {&t.MaxLines, maxLines}} {
		v, err := strconv.Atoi(n.s)
		if err != nil || v < 1 {
			return Texts{}, fmt.Errorf("## A listing: %q is not a count", n.s)
		}
		*n.into = v
	}
	return t, nil
}

// tablesOf is each run of `|` lines, in order.
func tablesOf(lines []string) [][]string {
	var out [][]string
	in := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "|") && in:
			out[len(out)-1] = append(out[len(out)-1], l)
		case strings.HasPrefix(l, "|"):
			out, in = append(out, []string{l}), true
		default:
			in = false
		}
	}
	return out
}

// section is the lines under a heading, up to the next heading of the same or a higher level.
// Only the section's own lines are copied out of md.
func section(md []byte, heading string) []string {
	var out []string
	in := false
	for len(md) > 0 {
		line := md
		if i := bytes.IndexByte(md, '\n'); i >= 0 {
			line, md = md[:i], md[i+1:]
		} else {
			md = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if string(line) == heading {
			in = true
			continue
		}
		if in && (bytes.HasPrefix(line, []byte("## ")) || bytes.HasPrefix(line, []byte("# "))) {
			break
		}
		if in {
			out = append(out, string(line))
		}
	}
	return out
}

// parseErrorTable reads one table's `| Case | Text |` rows. Every row must be one of known and
// every one of known must be there once; a text row's Text cell is one backticked text with one
// `{path}`; the Unavailable row's is not a text.
func parseErrorTable(rows []string, known []rowSpec) (map[Code]Template, error) {
	if len(rows) < 2 {
		return nil, fmt.Errorf("no table")
	}
	if rows[0] != "| Case | Text |" || rows[1] != "|---|---|" {
		return nil, fmt.Errorf("the table's head is %q / %q, want \"| Case | Text |\" / \"|---|---|\"", rows[0],
			rows[1])
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
		for _, r := range known {
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
	for _, r := range known {
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
