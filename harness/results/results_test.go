package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

func TestFormatAndParseID(t *testing.T) {
	for n, want := range map[uint64]string{1: "#0001", 2: "#0002", 10: "#000a", 0xffff: "#ffff", 0x10000: "#10000", 0xabcdef: "#abcdef"} {
		if got := FormatID(n); got != want {
			t.Errorf("FormatID(%d) = %q, want %q", n, got, want)
		}
		if got, ok := ParseID(want); !ok || got != n {
			t.Errorf("ParseID(%q) = %d, %v", want, got, ok)
		}
	}
	for _, bad := range []string{"", "#", "0001", "#0000", "#00001", "#A001", "#001", "#0x01", "# 001", "#000g", "#1ffffffffffffffff"} {
		if n, ok := ParseID(bad); ok {
			t.Errorf("ParseID(%q) = %d: not an id", bad, n)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("FormatID(0): no panic; results count from 1")
		}
	}()
	FormatID(0)
}

// A read's file is identified by its path resolved against the working directory, by its text
// (fsaccess.Resolve, which results.Abs was).
func TestReadPaths(t *testing.T) {
	for _, c := range [][3]string{
		{"/", "a.md", "/a.md"},
		{"/", "./a.md", "/a.md"},
		{"/proj", "src/../a.md", "/proj/a.md"},
		{"/proj", "/proj/a.md", "/proj/a.md"},
		{"/proj", "../../../a.md", "/a.md"},
		{"/proj", "src//app.ts", "/proj/src/app.ts"},
		{"/proj", "src/", "/proj/src"},
		{"/proj/", "a.md", "/proj/a.md"},
		{"/proj", "A.md", "/proj/A.md"},
	} {
		if got := fsaccess.Resolve(c[0], c[1]); got != c[2] {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestSplitLines(t *testing.T) {
	for _, c := range []struct {
		in    string
		lines []string
		final bool
	}{
		{"", nil, false},
		{"a", []string{"a"}, false},
		{"a\n", []string{"a"}, true},
		{"a\nb", []string{"a", "b"}, false},
		{"\n", []string{""}, true},
		{"\n\n", []string{"", ""}, true},
		{"a\r\nb\r\n", []string{"a\r", "b\r"}, true},
	} {
		got, final := splitLines(c.in)
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.lines) || final != c.final {
			t.Errorf("splitLines(%q) = %q, %v; want %q, %v", c.in, got, final, c.lines, c.final)
		}
		if n := countLines(c.in); n != len(c.lines) {
			t.Errorf("countLines(%q) = %d, want %d", c.in, n, len(c.lines))
		}
	}
}

func limits(maxLines, maxChars, headLines, headChars, tailLines, tailChars int) spec.Cap {
	return spec.Cap{MaxLines: maxLines, MaxChars: maxChars, HeadLines: headLines, HeadChars: headChars, TailLines: tailLines, TailChars: tailChars}
}

func seq(n int) string {
	var s []string
	for i := 1; i <= n; i++ {
		s = append(s, fmt.Sprint(i))
	}
	return strings.Join(s, "\n")
}

func TestCap(t *testing.T) {
	loop := spec.LoopJSON().Context.Cap.Cap
	for _, c := range []struct {
		name string
		text string
		cap  spec.Cap
		want string
	}{
		{"within both limits: whole", seq(6), limits(6, 100, 2, 100, 2, 100), seq(6)},
		{"one line over: head and tail", seq(7), limits(6, 100, 2, 100, 2, 100), "1\n2\n[3 lines elided, full output #0009]\n6\n7"},
		{"head_chars binds the head: its lines and the breaks between count", "aaaa\nbbbb\ncccc\ndddd\neeee\nffff", limits(400, 20, 200, 9, 200, 4), "aaaa\nbbbb\n[3 lines elided, full output #0009]\nffff"},
		{"the breaks between a head's lines count", "aaaa\nbbbb\ncccc\ndddd", limits(400, 10, 200, 8, 1, 100), "aaaa\n[2 lines elided, full output #0009]\ndddd"},
		{"the breaks between a tail's lines count", "aaaa\nbbbb\ncccc\ndddd", limits(400, 10, 1, 100, 200, 8), "aaaa\n[2 lines elided, full output #0009]\ndddd"},
		{"a head of exactly head_chars fits", "aaaa\nbbbb\ncccc", limits(2, 100, 200, 9, 1, 100), "aaaa\nbbbb\ncccc"},
		{"tail_chars binds the tail", "a\nbb\ncc\ndd\neee", limits(3, 100, 1, 100, 100, 6), "a\n[2 lines elided, full output #0009]\ndd\neee"},
		{"the tail comes from what the head left: nothing left out, the text is whole", seq(5), limits(4, 100, 3, 100, 3, 100), seq(5)},
		{"a first line over head_chars is cut; the elided line follows with 0", strings.Repeat("x", 30) + "\nb\nc", limits(400, 20, 200, 10, 100, 10), strings.Repeat("x", 10) + " […cut]\n[0 lines elided, full output #0009]\nb\nc"},
		{"a first line of exactly head_chars is not cut", strings.Repeat("x", 10) + "\n" + strings.Repeat("y", 30), limits(400, 20, 200, 10, 100, 10), strings.Repeat("x", 10) + "\n[1 lines elided, full output #0009]"},
		{"the cut counts code points, not bytes", strings.Repeat("é", 30), limits(400, 20, 200, 10, 100, 10), strings.Repeat("é", 10) + " […cut]\n[0 lines elided, full output #0009]"},
		{"a text of 20 é is 20 characters, within max_chars 20", strings.Repeat("é", 20), limits(400, 20, 200, 10, 100, 10), strings.Repeat("é", 20)},
		{"a final line break stays at the end of the tail", seq(7) + "\n", limits(6, 100, 2, 100, 2, 100), "1\n2\n[3 lines elided, full output #0009]\n6\n7\n"},
		{"a final line break is not a line", seq(6) + "\n", limits(6, 100, 2, 100, 2, 100), seq(6) + "\n"},
		{"no tail fits: the elided line ends the text", "a\nb\n" + strings.Repeat("z", 20), limits(2, 100, 1, 100, 5, 10), "a\n[2 lines elided, full output #0009]"},
		{"an empty first line is a line of the head", "\nb\nc\nd", limits(3, 100, 1, 100, 1, 100), "\n[2 lines elided, full output #0009]\nd"},
		{"CR is a character of its line", "a\r\nb\r\nc\r\n", limits(2, 100, 1, 100, 1, 100), "a\r\n[1 lines elided, full output #0009]\nc\r\n"},
		{"loop.json's numbers: 401 lines", seq(401), loop, seq(200) + "\n[101 lines elided, full output #0009]\n" + strings.TrimPrefix(seq(401), seq(301)+"\n")},
		{"loop.json's numbers: 400 lines is within", seq(400), loop, seq(400)},
	} {
		if got := Cap(c.text, c.cap, "#0009"); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
}

func newSession(t testing.TB, o Options) *Session {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func short(content string) string {
	s := sha256.Sum256([]byte(content))
	return hex.EncodeToString(s[:])[:8]
}

// step is one insert of a test session; it fails the test on an error.
func (s *Session) must(t *testing.T) func(string, error) string {
	return func(text string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
}

func TestRead(t *testing.T) {
	s := newSession(t, Options{})
	must := s.must(t)
	ten := "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n"
	for _, c := range []struct {
		name          string
		path, content string
		offset, limit int
		want          string
	}{
		{"no trailing line break: the last line still counts", "a.txt", "a\nb", 0, 0, "[#0001 a.txt lines 1-2 of 2 sha " + short("a\nb") + "]\n1: a\n2: b"},
		{"an empty line", "b.txt", "\n", 0, 0, "[#0002 b.txt lines 1-1 of 1 sha " + short("\n") + "]\n1: "},
		{"CRLF: the \\r stays in the line", "c.txt", "a\r\nb\r\n", 0, 0, "[#0003 c.txt lines 1-2 of 2 sha " + short("a\r\nb\r\n") + "]\n1: a\r\n2: b\r"},
		{"the window's end", "d.txt", ten, 9, 0, "[#0004 d.txt lines 9-10 of 10 sha e71d970d]\n9: line 9\n10: line 10"},
		{"a limit past the end", "e.txt", ten, 10, 5, "[#0005 e.txt lines 10-10 of 10 sha e71d970d]\n10: line 10"},
		{"more lines after the window", "f.txt", ten, 3, 2, "[#0006 f.txt lines 3-4 of 10 sha e71d970d]\n3: line 3\n4: line 4\n\n(6 more lines — read again with offset 5)"},
		{"an empty file", "g.txt", "", 0, 0, "[#0007 g.txt empty sha e3b0c442]\n(empty file)"},
		{"the path as the call gave it", "./src/../h.txt", "h\n", 0, 0, "[#0008 ./src/../h.txt lines 1-1 of 1 sha " + short("h\n") + "]\n1: h"},
	} {
		id := FormatID(uint64(len(s.stored) + 1))
		if got := must(s.Read(id, c.path, c.content, c.offset, c.limit)); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
	// The default window is 2000 lines, and the note says how many remain.
	var b strings.Builder
	for i := 1; i <= 2003; i++ {
		fmt.Fprintf(&b, "x%d\n", i)
	}
	got := must(s.Read("#0100", "big.txt", b.String(), 0, 0))
	if !strings.HasPrefix(got, "[#0100 big.txt lines 1-2000 of 2003 sha ") || !strings.HasSuffix(got, "\n2000: x2000\n\n(3 more lines — read again with offset 2001)") {
		t.Errorf("a 2003-line file: %q…%q", got[:60], got[len(got)-60:])
	}
	for _, bad := range []struct {
		content       string
		offset, limit int
	}{{"a\n", 2, 0}, {"", 2, 0}, {"a\n", -1, 0}, {"a\n", 0, -1}} {
		if _, err := s.Read("#0200", "z.txt", bad.content, bad.offset, bad.limit); err == nil {
			t.Errorf("read of %q offset %d limit %d: no error", bad.content, bad.offset, bad.limit)
		}
	}
}

func TestIDsAreCheckedAndNeverReused(t *testing.T) {
	s := newSession(t, Options{})
	if _, err := s.Read("#0001", "a", "a\n", 0, 0); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"#0001", "0002", "#00002", "#B002"} {
		if _, err := s.Output(id, "bash", json.RawMessage(`{}`), "x"); err == nil {
			t.Errorf("output with id %q: no error", id)
		}
	}
	if _, err := New(Options{WorkDir: "proj"}); err == nil {
		t.Error("a relative working directory: no error")
	}
}

// stubs runs reads and says for each which earlier result its stub names ("" for a full read).
func stubs(t *testing.T, s *Session, steps []func(id string) (string, error)) []string {
	t.Helper()
	var out []string
	for i, step := range steps {
		id := FormatID(uint64(len(s.stored) + 1))
		text, err := step(id)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		named := ""
		for _, marker := range []string{"] Unchanged since ", "] Same result as "} {
			if _, after, ok := strings.Cut(text, marker); ok {
				named = after[:strings.IndexAny(after, ",.")]
			}
		}
		out = append(out, named)
	}
	return out
}

func TestStubsByHash(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	read := func(s **Session, p, content string, offset, limit int) func(string) (string, error) {
		return func(id string) (string, error) { return (*s).Read(id, p, content, offset, limit) }
	}
	for _, c := range []struct {
		name  string
		steps func(s **Session) []func(string) (string, error)
		want  []string
	}{
		{"a range reaching past the earlier read is read in full", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "n", ten, 1, 5), read(s, "n", ten, 3, 5), read(s, "n", ten, 4, 4), read(s, "n", ten, 1, 10)}
		}, []string{"", "", "#0002", ""}},
		{"the newest full read that holds the lines is named", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "n", ten, 1, 5), read(s, "n", ten, 1, 10), read(s, "n", ten, 2, 2)}
		}, []string{"", "", "#0002"}},
		{"a stub never names a stub", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "n", ten, 0, 0), read(s, "n", ten, 0, 0), read(s, "n", ten, 0, 0)}
		}, []string{"", "#0001", "#0001"}},
		{"two spellings of one file are one file", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "a.md", ten, 0, 0), read(s, "./a.md", ten, 0, 0), read(s, "/proj/a.md", ten, 0, 0), read(s, "x/../a.md", ten, 0, 0)}
		}, []string{"", "#0001", "#0001", "#0001"}},
		{"the same content in another file is another file", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "a.md", ten, 0, 0), read(s, "b.md", ten, 0, 0)}
		}, []string{"", ""}},
		{"a changed file is read in full; changed back, it matches its earlier read again", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "a", "x\n", 0, 0), read(s, "a", "y\n", 0, 0), read(s, "a", "x\n", 0, 0), read(s, "a", "y\n", 0, 0)}
		}, []string{"", "", "#0001", "#0002"}},
		{"an empty file is always read in full", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "e", "", 0, 0), read(s, "e", "", 0, 0)}
		}, []string{"", ""}},
		{"an edit is not a read a stub can name", func(s **Session) []func(string) (string, error) {
			before := "x\n"
			return []func(string) (string, error){
				read(s, "a", "x\n", 0, 0),
				func(id string) (string, error) { return (*s).Write(id, "a", &before, "y\n") },
				read(s, "a", "y\n", 0, 0), read(s, "a", "y\n", 0, 0)}
		}, []string{"", "", "", "#0003"}},
		{"after a reply the earlier reads are not in the request", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "a", "x\n", 0, 0),
				func(string) (string, error) { (*s).Reply(); return "", nil },
				read(s, "a", "x\n", 0, 0), read(s, "a", "x\n", 0, 0)}
		}, []string{"", "", "", "#0002"}},
		{"after a compaction neither", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){read(s, "a", "x\n", 0, 0),
				func(string) (string, error) { (*s).Compact(); return "", nil },
				read(s, "a", "x\n", 0, 0)}
		}, []string{"", "", ""}},
	} {
		s := newSession(t, Options{WorkDir: "/proj"})
		if got := stubs(t, s, c.steps(&s)); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: stubs name %q, want %q", c.name, got, c.want)
		}
	}
}

func TestStubTextAndStoredText(t *testing.T) {
	s := newSession(t, Options{})
	must := s.must(t)
	must(s.Read("#0001", "a.md", "a\nb\nc\n", 0, 0))
	if got, want := must(s.Read("#0002", "./a.md", "a\nb\nc\n", 2, 1)), "[#0002 ./a.md lines 2-2 of 3 sha "+short("a\nb\nc\n")+"] Unchanged since #0001, which already shows lines 1-3."; got != want {
		t.Errorf("stub %q, want %q", got, want)
	}
	// What a stub stands for is stored: recall shows it.
	if got, want := must(s.Recall("#0003", "0002", 0, 0)), "[#0003 recall #0002 lines 1-3 of 3]\n2: b\n\n(1 more lines — read again with offset 3)"; got != want {
		t.Errorf("recall of a stub %q, want %q", got, want)
	}
}

func TestStubsByResult(t *testing.T) {
	out := func(s **Session, tool, args, text string) func(string) (string, error) {
		return func(id string) (string, error) { return (*s).Output(id, tool, json.RawMessage(args), text) }
	}
	for _, c := range []struct {
		name  string
		steps func(s **Session) []func(string) (string, error)
		want  []string
	}{
		{"arguments compare as JSON with sorted keys", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){out(s, "grep", `{"pattern":"x","path":"src"}`, "a"), out(s, "grep", `{ "path" : "src", "pattern" : "x" }`, "a"), out(s, "grep", `{"path":"src","pattern":"\u0078"}`, "a")}
		}, []string{"", "#0001", "#0001"}},
		{"numbers compare as values", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){out(s, "list", `{"path":"src","depth":1}`, "a"), out(s, "list", `{"depth":1.0,"path":"src"}`, "a"), out(s, "list", `{"depth":2,"path":"src"}`, "a")}
		}, []string{"", "#0001", ""}},
		{"another tool with the same arguments is another call", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){out(s, "glob", `{"pattern":"*"}`, "a"), out(s, "search", `{"pattern":"*"}`, "a")}
		}, []string{"", ""}},
		{"every tool of dedupe.by_result", func(s **Session) []func(string) (string, error) {
			var steps []func(string) (string, error)
			for _, tool := range spec.LoopJSON().Context.Dedupe.ByResult {
				steps = append(steps, out(s, tool, `{}`, "a"), out(s, tool, `{}`, "a"))
			}
			return steps
		}, []string{"", "#0001", "", "#0003", "", "#0005", "", "#0007"}},
		{"other tools are never deduplicated", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){out(s, "bash", `{"command":"ls"}`, "a"), out(s, "bash", `{"command":"ls"}`, "a"), out(s, "read_url", `{}`, "a"), out(s, "read_url", `{}`, "a")}
		}, []string{"", "", "", ""}},
		{"a changed result is full; the same one again names it; the first text again names the first", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){out(s, "list", `{}`, "a"), out(s, "list", `{}`, "b"), out(s, "list", `{}`, "b"), out(s, "list", `{}`, "a")}
		}, []string{"", "", "#0002", "#0001"}},
		{"a reply empties it too", func(s **Session) []func(string) (string, error) {
			return []func(string) (string, error){out(s, "list", `{}`, "a"), func(string) (string, error) { (*s).Reply(); return "", nil }, out(s, "list", `{}`, "a"), out(s, "list", `{}`, "a")}
		}, []string{"", "", "", "#0002"}},
	} {
		s := newSession(t, Options{})
		if got := stubs(t, s, c.steps(&s)); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: stubs name %q, want %q", c.name, got, c.want)
		}
	}
	s := newSession(t, Options{})
	if _, err := s.Output("#0001", "grep", json.RawMessage(`{"a":`), "x"); err == nil {
		t.Error("arguments that are not JSON: no error")
	}
}

func TestRecall(t *testing.T) {
	s := newSession(t, Options{Cap: &spec.Cap{MaxLines: 3, MaxChars: 1000, HeadLines: 1, HeadChars: 1000, TailLines: 1, TailChars: 1000}})
	must := s.must(t)
	if got, want := must(s.Output("#0001", "bash", json.RawMessage(`{}`), seq(5))), "[#0001]\n1\n[3 lines elided, full output #0001]\n5"; got != want {
		t.Errorf("capped: %q, want %q", got, want)
	}
	for _, c := range []struct {
		id, target    string
		offset, limit int
		want          string
	}{
		{"#0002", "#0001", 0, 0, "[#0002 recall #0001 lines 1-5 of 5]\n1\n2\n3\n4\n5"},
		{"#0003", "0001", 2, 0, "[#0003 recall #0001 lines 2-5 of 5]\n2\n3\n4\n5"},
		{"#0004", "#0001", 5, 9, "[#0004 recall #0001 lines 5-5 of 5]\n5"},
		{"#0005", "#0003", 0, 0, "[#0005 recall #0003 lines 1-4 of 4]\n2\n3\n4\n5"},
		{"#0006", "ffff", 0, 0, "[#0006] No stored result #ffff in this session."},
		{"#0007", "#0006", 0, 0, "[#0007 recall #0006 lines 1-1 of 1]\nNo stored result #ffff in this session."},
		{"#0008", "#FFFF", 0, 0, "[#0008] No stored result #FFFF in this session."},
	} {
		if got := must(s.Recall(c.id, c.target, c.offset, c.limit)); got != c.want {
			t.Errorf("%s: recall %s %d %d:\ngot  %q\nwant %q", c.id, c.target, c.offset, c.limit, got, c.want)
		}
	}
	if got, want := must(s.Recall("#0099", "#0001", 2, math.MaxInt)), "[#0099 recall #0001 lines 2-5 of 5]\n2\n3\n4\n5"; got != want {
		t.Errorf("a limit of MaxInt: %q, want %q", got, want)
	}
	if _, err := s.Recall("#0100", "#0001", 6, 0); err == nil {
		t.Error("recall past the end: no error")
	}
	// The default window: 2000 lines.
	must(s.Read("#0200", "big", strings.Repeat("y\n", 2500), 1, 2500))
	got := must(s.Recall("#0201", "#0200", 0, 0))
	if !strings.HasPrefix(got, "[#0201 recall #0200 lines 1-2000 of 2500]\n1: y\n") || strings.Count(got, "\n") != 2000 {
		t.Errorf("recall's window: %q…", got[:50])
	}
}

func TestWriteAndDelete(t *testing.T) {
	s := newSession(t, Options{Cap: &spec.Cap{MaxLines: 4, MaxChars: 1000, HeadLines: 2, HeadChars: 1000, TailLines: 1, TailChars: 1000}})
	must := s.must(t)
	if got, want := must(s.Write("#0001", "new.md", nil, "# Title\n\nText.\n")), "[#0001 new.md sha fd9dba9b] Created, 3 lines."; got != want {
		t.Errorf("created: %q, want %q", got, want)
	}
	if got, want := must(s.Write("#0002", "e.md", nil, "")), "[#0002 e.md sha e3b0c442] Created, 0 lines."; got != want {
		t.Errorf("created empty: %q, want %q", got, want)
	}
	same := "a\n"
	if got, want := must(s.Write("#0003", "a", &same, "a\n")), "[#0003 a sha "+short("a\n")+"]"; got != want {
		t.Errorf("no change: %q, want %q", got, want)
	}
	before := "a\nb\nc\n"
	// The diff is capped like any output (its first line, the hunk header, kept), and stored whole.
	got := must(s.Write("#0004", "a", &before, "A\nB\nC\n"))
	if want := "[#0004 a sha " + short("A\nB\nC\n") + "]\n@@ -1,3 +1,3 @@\n-a\n[4 lines elided, full output #0004]\n+C"; got != want {
		t.Errorf("capped diff:\ngot  %q\nwant %q", got, want)
	}
	if got, want := must(s.Recall("#0005", "#0004", 0, 0)), "[#0005 recall #0004 lines 1-7 of 7]\n@@ -1,3 +1,3 @@\n-a\n-b\n-c\n+A\n+B\n+C"; got != want {
		t.Errorf("recall of a capped diff: %q, want %q", got, want)
	}
	if got, want := must(s.Delete("#0006", "old.md")), "[#0006 old.md deleted]"; got != want {
		t.Errorf("deleted: %q, want %q", got, want)
	}
	if _, err := s.Recall("#0007", "#0006", 0, 0); err == nil {
		t.Error("recall of a deletion (no lines): no error")
	}
}

func TestCompact(t *testing.T) {
	ctx := spec.LoopJSON().Context
	s := newSession(t, Options{WorkDir: "/w"})
	must := s.must(t)
	if got := s.Compact(); got != "" {
		t.Errorf("no reads: %q", got)
	}
	rows := ctx.Compaction.Rows
	for i := 1; i <= rows+2; i++ {
		must(s.Read(FormatID(uint64(i)), fmt.Sprintf("f%d.md", i), fmt.Sprintf("file %d\n", i), 0, 0))
	}
	// f1.md read again under another spelling, changed: its newest full read, newest last.
	must(s.Read("#1001", "./f1.md", "file 1 changed\n", 0, 0))
	// A stub is not a read: f2.md keeps its full read.
	must(s.Read("#1002", "/w/f2.md", "file 2\n", 0, 0))
	must(s.Read("#1003", "empty.txt", "", 0, 0))
	must(s.Output("#1004", "bash", json.RawMessage(`{}`), "not a read"))
	got := s.Compact()
	lines := strings.Split(got, "\n")
	if len(lines) != 6+rows || lines[0] != ctx.Compaction.Heading || lines[1] != "" || lines[2] != ctx.Compaction.Line || lines[3] != "" {
		t.Fatalf("the table:\n%s", got)
	}
	body := lines[6:]
	if want := "| empty.txt | empty | e3b0c442 | #1003 |"; body[rows-1] != want {
		t.Errorf("last row %q, want %q", body[rows-1], want)
	}
	if want := "| ./f1.md | 1-1 of 1 | " + short("file 1 changed\n") + " | #1001 |"; body[rows-2] != want {
		t.Errorf("row %q, want %q", body[rows-2], want)
	}
	// rows+4 files were read; the newest `rows` remain: f1 moved to the end, f2…f4 dropped.
	if want := "| f5.md | 1-1 of 1 | " + short("file 5\n") + " | #0005 |"; body[0] != want {
		t.Errorf("first row %q, want %q", body[0], want)
	}
	if strings.Contains(got, "#1002") || strings.Contains(got, "#1004") {
		t.Errorf("a stub or an output in the table:\n%s", got)
	}
	// Covered from the previous compaction on: nothing since.
	if got := s.Compact(); got != "" {
		t.Errorf("a second compaction with no reads: %q", got)
	}
	// A recall of any earlier id still works.
	if got := must(s.Recall("#2000", "#0001", 0, 0)); got != "[#2000 recall #0001 lines 1-1 of 1]\n1: file 1" {
		t.Errorf("recall after compaction: %q", got)
	}
}

func TestCompactKeepsReadsAcrossAReply(t *testing.T) {
	s := newSession(t, Options{})
	must := s.must(t)
	must(s.Read("#0001", "a.md", "alpha\n", 0, 0))
	s.Reply()
	must(s.Read("#0002", "b.md", "beta\n", 0, 0))
	want := "| a.md | 1-1 of 1 | b6a98d9c | #0001 |\n| b.md | 1-1 of 1 | f2c82dec | #0002 |"
	if got := s.Compact(); !strings.HasSuffix(got, "|---|---|---|---|\n"+want) {
		t.Errorf("table:\n%s\nwant rows\n%s", got, want)
	}
	// The newest full read of a file replaces its older one, and goes last.
	must(s.Read("#0003", "a.md", "alpha\n", 0, 0))
	must(s.Read("#0004", "b.md", "beta\n", 0, 0))
	s.Reply()
	must(s.Read("#0005", "a.md", "alpha\n", 0, 0))
	want = "| b.md | 1-1 of 1 | f2c82dec | #0004 |\n| a.md | 1-1 of 1 | b6a98d9c | #0005 |"
	if got := s.Compact(); !strings.HasSuffix(got, "|---|---|---|---|\n"+want) {
		t.Errorf("table:\n%s\nwant rows\n%s", got, want)
	}
}

// BenchmarkInsert inserts results with the dedupe table in use: reads of 500 files, some again
// (stubs), listings and searches (stubs when repeated), commands and recalls. ns/op is per insert;
// it stays flat from 1,000 to 10,000 inserts, as the table is looked up, not scanned.
func BenchmarkInsert(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			files := make([]string, 500)
			for i := range files {
				files[i] = strings.Repeat(fmt.Sprintf("line %d of a file\n", i), 40)
			}
			args := make([]json.RawMessage, 50)
			for i := range args {
				args[i] = json.RawMessage(fmt.Sprintf(`{"pattern":"p%d","path":"src"}`, i))
			}
			b.ResetTimer()
			for b.Loop() {
				s, _ := New(Options{})
				for i := 1; i <= n; i++ {
					id := FormatID(uint64(i))
					var err error
					switch i % 4 {
					case 0, 1:
						f := (i * 7) % len(files)
						_, err = s.Read(id, fmt.Sprintf("src/f%d.go", f), files[f], 1+i%3, 0)
					case 2:
						_, err = s.Output(id, "grep", args[i%len(args)], "src/a.go:1: match")
					case 3:
						if i%12 == 3 {
							_, err = s.Recall(id, FormatID(uint64(i-1)), 0, 0)
						} else {
							_, err = s.Output(id, "bash", args[0], "ok")
						}
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/insert")
		})
	}
}
