package format

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatusWords(t *testing.T) {
	for s, want := range map[Status][3]string{OK: {"ok", "✅", "0"}, Failed: {"FAIL", "❌", "1"}, Unfinished: {"ERROR", "⚠️", "2"}} {
		if s.Word() != want[0] || s.Icon() != want[1] || string(rune('0'+s.Code())) != want[2] {
			t.Errorf("%d: %s %s %d, want %v", s, s.Word(), s.Icon(), s.Code(), want)
		}
	}
	if Worst(Failed, Unfinished) != Unfinished || Worst(OK, Failed) != Failed {
		t.Error("Worst")
	}
}

func TestFormats(t *testing.T) {
	fs := Formats[string]{
		{Name: "table", Write: func(w io.Writer, s string, _ bool) error { _, err := io.WriteString(w, "T:"+s); return err }},
		{Name: "json", About: "JSON lines", Write: func(w io.Writer, s string, _ bool) error { _, err := io.WriteString(w, "J:"+s); return err }},
		{Name: "svg"},
	}
	if got := fs.Help(); got != "table, json (JSON lines) or svg" {
		t.Errorf("Help %q", got)
	}
	if f, err := fs.Lookup(""); err != nil || f.Name != "table" {
		t.Errorf("the default: %v %v", f.Name, err)
	}
	if _, err := fs.Lookup("yaml"); err == nil || err.Error() != `--format "yaml": want one of table, json, svg` {
		t.Errorf("an unknown format: %v", err)
	}
	var out strings.Builder
	path := filepath.Join(t.TempDir(), "r.json")
	if err := Write(fs, Output{Format: "json", Out: path}, "x", &out, func(w io.Writer, s string) error { _, err := io.WriteString(w, "summary"); return err }); err != nil || out.String() != "summary" {
		t.Errorf("with --out: %q %v", out.String(), err)
	}
	out.Reset()
	if err := Write(fs, Output{Format: "json"}, "x", &out, nil); err != nil || out.String() != "J:x" {
		t.Errorf("to stdout: %q %v", out.String(), err)
	}
}

// A file that cannot be written is named with its flag and path, and never by a temporary file's
// name (issue 10 saw `bench --metrics-textfile /nonexistent/x.prom` name one, and exit 0).
func TestFileErrorsNameTheFlagAndPath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent", "r.xml")
	err := WriteFile("--out", missing, func(io.Writer) error { return nil })
	var fe *FileError
	if !errors.As(err, &fe) || err.Error() != "--out "+missing+": no such file or directory" {
		t.Errorf("WriteFile: %v", err)
	}
	if got := FileErr("--expect", "k.txt", errors.New("k.txt: line 3: no reason")).Error(); got != "--expect k.txt: line 3: no reason" {
		t.Errorf("a parse error naming its file: %s", got)
	}
	if FileErr("--out", "x", nil) != nil {
		t.Error("FileErr of nil is not nil")
	}
	tmp := &fs.PathError{Op: "open", Path: "/nonexistent/.x.prom.tmp123", Err: fs.ErrNotExist}
	if got := FileErr("--metrics-textfile", "/nonexistent/x.prom", tmp).Error(); got != "--metrics-textfile /nonexistent/x.prom: file does not exist" {
		t.Errorf("FileErr: %s", got)
	}
}

// A line in a message: whole up to QuoteRunes characters; past them cut after the QuoteRunes-th
// (never inside one), saying its length in bytes.
func TestQuote(t *testing.T) {
	for line, want := range map[string]string{
		"Loading...":                   `"Loading..."`,
		"a\tb\x00":                     `"a\tb\x00"`,
		strings.Repeat("é", 200):       `"` + strings.Repeat("é", 200) + `"`,
		"x" + strings.Repeat("é", 200): `"x` + strings.Repeat("é", 199) + `"… (401 bytes)`,
	} {
		if got := Quote([]byte(line)); got != want {
			t.Errorf("%.20q: got %.40s…", line, got)
		}
	}
}

// Markdown's cell is one line, its pipes escaped, tags shown; a fence outlasts the text's
// backticks, and the text's last newline is the fence's.
func TestMarkdown(t *testing.T) {
	if got := MarkdownCell("a | b\n<c>"); got != `a \| b &lt;c&gt;` {
		t.Errorf("cell %q", got)
	}
	for _, c := range []struct{ lang, text, want string }{
		{"diff", "- a\n+ b\n", "```diff\n- a\n+ b\n```"},
		{"", "x\n\n", "```\nx\n```"},
		{"", "has ``` in it", "````\nhas ``` in it\n````"},
	} {
		if got := MarkdownFence(c.lang, c.text); got != c.want {
			t.Errorf("fence %q %q: %q, want %q", c.lang, c.text, got, c.want)
		}
	}
}

// One footer for every command: failed and exit come from the status, so a footer saying ERROR
// says failed too (audit's said `failed: false` beside `status: ERROR`).
func TestFooterFollowsStatus(t *testing.T) {
	for s, failed := range map[Status]bool{OK: false, Failed: true, Unfinished: true} {
		f := NewFooter(s, s == Unfinished, nil, "")
		if f.Type != "footer" || f.Status != s.Word() || f.Exit != s.Code() || f.Failed != failed || f.Counts == nil {
			t.Errorf("%v: %+v", s, f)
		}
	}
}
