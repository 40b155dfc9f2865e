// Package format holds what every report of lembas-check shares: the one rule for how a command
// ends (Status: the summary's first word, markdown's icon and the exit status, from one value), the
// registry of the formats a report can be written in (one lookup, one list for -h), writing a
// report to the file a flag names, markdown's cells and code blocks, and quoting in a message a
// line a program printed.
package format

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/internal/term"
)

// Status is how a command ended. Its summary's first word, its markdown icon and its exit status
// all come from it, so that they cannot disagree: `ok` and ✅ only with exit 0.
type Status int

const (
	// OK: everything asked was checked, and held.
	OK Status = iota
	// Failed: a failure was found (a case failed, a break the spec does not allow, a
	// disagreement).
	Failed
	// Unfinished: the job could not be made or was not finished (interrupted, a damaged input, a
	// server that went away, nothing to check): what was not checked is not passed.
	Unfinished
)

// Code is the exit status: 0, 1 or 2.
func (s Status) Code() int { return int(s) }

// Word is the summary's first word: "ok", "FAIL" or "ERROR".
func (s Status) Word() string {
	switch s {
	case OK:
		return "ok"
	case Failed:
		return "FAIL"
	}
	return "ERROR"
}

// Icon is the status in markdown: ✅, ❌ or ⚠️.
func (s Status) Icon() string {
	switch s {
	case OK:
		return "✅"
	case Failed:
		return "❌"
	}
	return "⚠️"
}

// Worst is the worse of two statuses: a job both failed and unfinished is unfinished.
func Worst(a, b Status) Status { return max(a, b) }

// Format is one way to write a report of type T.
type Format[T any] struct {
	Name string
	// About says what the format is, for -h: "JSON lines".
	About string
	// Write writes the report; verbose lists every item, not only the failures (the table).
	Write func(w io.Writer, report T, verbose bool) error
}

// Formats is one kind of report's formats, the first the default: the one place a --format name
// is looked up.
type Formats[T any] []Format[T]

// Lookup finds a format by name ("" is the first).
func (fs Formats[T]) Lookup(name string) (Format[T], error) {
	if name == "" && len(fs) > 0 {
		return fs[0], nil
	}
	for _, f := range fs {
		if f.Name == name {
			return f, nil
		}
	}
	return Format[T]{}, fmt.Errorf("--format %q: want one of %s", name, strings.Join(fs.Names(), ", "))
}

// Write writes report in the format of that name ("" is the first).
func (fs Formats[T]) Write(w io.Writer, name string, report T, verbose bool) error {
	f, err := fs.Lookup(name)
	if err != nil {
		return err
	}
	return f.Write(w, report, verbose)
}

// Names lists the formats' names.
func (fs Formats[T]) Names() []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// Help lists the formats for a flag's help: "table, json (JSON lines) or markdown".
func (fs Formats[T]) Help() string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Name
		if f.About != "" {
			parts[i] += " (" + f.About + ")"
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// OutUsage is --out's help, one wording for every command whose report Write writes (issue 27:
// four wordings, and none said a table report leaves stdout empty).
const OutUsage = "write the report to `FILE` (with a format other than table, its summary still goes to stdout)"

// Output says where a report goes: Format (a name of the report's Formats) to the file Out, or
// to stdout when Out is "".
type Output struct {
	Format  string
	Out     string
	Verbose bool
}

// Write writes a report as o says. With Out, summary (the people's view: a table, a last line)
// still goes to stdout, unless the format is the first (the table itself). On a terminal, stdout
// is a term.Writer, so the table and summary may show colour. A file that cannot be
// written is a *FileError naming --out.
func Write[T any](fs Formats[T], o Output, report T, stdout io.Writer, summary func(io.Writer, T) error) error {
	f, err := fs.Lookup(o.Format)
	if err != nil {
		return err
	}
	// What goes to a terminal may be painted (internal/term: not with NO_COLOR, never in a file).
	stdout = term.Colour(stdout, os.Getenv)
	if o.Out == "" {
		return f.Write(stdout, report, o.Verbose)
	}
	if err := WriteFile("--out", o.Out, func(w io.Writer) error { return f.Write(w, report, o.Verbose) }); err != nil {
		return err
	}
	if f.Name != fs[0].Name && summary != nil {
		return summary(stdout, report)
	}
	return nil
}

// FileError is a file a flag names that could not be written (or read).
type FileError struct {
	Flag, Path string
	Err        error
}

func (e *FileError) Error() string { return fmt.Sprintf("%s %s: %v", e.Flag, e.Path, e.Err) }

func (e *FileError) Unwrap() error { return e.Err }

// WriteFile writes the file path whole with write. Any error — the folder is missing, a write
// failed, a temporary file of an atomic writer could not be made — is a *FileError naming the flag
// and path, never another file's name.
func WriteFile(flag, path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return FileErr(flag, path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return FileErr(flag, path, err)
	}
	if err := f.Close(); err != nil {
		return FileErr(flag, path, err)
	}
	return nil
}

// MakeDir makes the folder a flag names (live --record), checked before any work starts. As
// `mkdir` and `go test -o DIR/` do, only the last folder is made: a parent that does not exist is
// a mistake in the path (a typo, an unmounted volume), said naming the flag, never a tree made
// silently. "" and an existing folder are fine.
func MakeDir(flag, dir string) error {
	if dir == "" {
		return nil
	}
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s %s: not a directory: give a folder", flag, dir)
		}
		return nil
	}
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %s: its parent must exist: lembas-check makes only the last folder, as mkdir does", flag,
			dir)
	}
	return FileErr(flag, dir, err)
}

// FileErr names the flag and path of a file an operation on it failed, reading or writing: the
// cause of an *fs.PathError only (its path may be a temporary file's), and the path said once. A
// nil err is nil.
func FileErr(flag, path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *FileError
	if errors.As(err, &fe) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	if rest, ok := strings.CutPrefix(err.Error(), path+":"); ok {
		// The error names the path already (a parse error's "FILE:3: …"): name it once.
		err = errors.New(strings.TrimSpace(rest))
	}
	return &FileError{Flag: flag, Path: path, Err: err}
}

// QuoteRunes is how many characters of a line Quote keeps.
const QuoteRunes = 200

// Quote is a line a program printed — an adapter's answer, an agent's output — as an error
// message quotes it: Go-quoted, cut after QuoteRunes characters (never inside one) and then
// saying how long it was.
func Quote(b []byte) string {
	if utf8.RuneCount(b) <= QuoteRunes {
		return fmt.Sprintf("%q", b)
	}
	r := []rune(string(b))
	return fmt.Sprintf("%q… (%d bytes)", string(r[:QuoteRunes]), len(b))
}

// MarkdownCell is text as a markdown table cell, heading or list item shows it: on one line, its
// pipes escaped, and < and > as entities, so that a tag in it (<session-note>) is shown, not
// taken for HTML.
func MarkdownCell(s string) string {
	return strings.NewReplacer("\n", " ", "|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// MarkdownFence puts text in a fenced code block, lang its info string ("" for none), whose
// fence is longer than any run of backticks in the text.
func MarkdownFence(lang, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}

// Footer is the last line of every command's JSON report, one shape for all of them (run, live,
// diff, audit, bench, replay), so a CI reads any of them the same way: the status word, whether
// the gate fails (Failed is Status != ok, from the same value, so the two cannot disagree), the
// exit status, whether a signal cut it short, what was counted, and why when it is not ok.
// A command embeds it in its own footer to add fields of its own.
type Footer struct {
	Type string `json:"type"` // "footer"
	// Status is the summary's first word: "ok" (exit 0), "FAIL" (1) or "ERROR" (2).
	Status string `json:"status"`
	Exit   int    `json:"exit"`
	// Failed says the command did not pass: true for FAIL and ERROR alike.
	Failed bool `json:"failed"`
	// Interrupted says Ctrl-C or SIGTERM ended the command before it was done.
	Interrupted bool `json:"interrupted"`
	// Counts are what the command counted, by its own words (verdicts, requests, errors).
	Counts map[string]int `json:"counts"`
	// Error is why the status is ERROR (or what failed), when there is a reason to give.
	Error string `json:"error,omitempty"`
}

// NewFooter makes the footer of a command that ended with s.
func NewFooter(s Status, interrupted bool, counts map[string]int, why string) Footer {
	if counts == nil {
		counts = map[string]int{}
	}
	return Footer{Type: "footer", Status: s.Word(), Exit: s.Code(), Failed: s != OK, Interrupted: interrupted,
		Counts: counts, Error: why}
}
