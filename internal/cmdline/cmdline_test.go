package cmdline

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var env = []string{"HOME=/home/u", "ROOT=/srv/app", "EMPTY=", "SPACED=a b"}

func TestPOSIX(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \t ", nil},
		{"python3 test/adapter.py", []string{"python3", "test/adapter.py"}},
		{"  bun   run\ttest/adapter.ts  ", []string{"bun", "run", "test/adapter.ts"}},
		{`python3 'my tests/adapter.py'`, []string{"python3", "my tests/adapter.py"}},
		{`python3 "my tests/adapter.py"`, []string{"python3", "my tests/adapter.py"}},
		{`a'b'"c"d`, []string{"abcd"}},
		{`a "" ''`, []string{"a", "", ""}},
		// Inside double quotes a backslash escapes only $ ` " \ and a newline (google/shlex
		// made this print('anb')).
		{`python3 -c "print('a\nb')"`, []string{"python3", "-c", `print('a\nb')`}},
		{`printf "\"\\\$x"`, []string{"printf", `"\$x`}},
		// Outside quotes a backslash escapes the next character.
		{`my\ adapter --x`, []string{"my adapter", "--x"}},
		{`a\\b`, []string{`a\b`}},
		// A Windows path keeps its backslashes in quotes; bare, a shell takes them for escapes.
		{`node 'C:\x\a.mjs'`, []string{"node", `C:\x\a.mjs`}},
		{`node "C:\x\a.mjs"`, []string{"node", `C:\x\a.mjs`}},
		{`node C:\x\a.mjs`, []string{"node", `C:xa.mjs`}},
		// Variables come from the environment given; single quotes keep the $.
		{`python3 $ROOT/adapter.py`, []string{"python3", "/srv/app/adapter.py"}},
		{`python3 ${ROOT}/a.py '$ROOT'`, []string{"python3", "/srv/app/a.py", "$ROOT"}},
		{`x "$SPACED" $SPACED`, []string{"x", "a b", "a", "b"}},
		{`x "$EMPTY" ${UNSET:-dflt}`, []string{"x", "", "dflt"}},
		{`node ~/a.mjs`, []string{"node", "/home/u/a.mjs"}},
		// No globbing: the word is the program's to read.
		{`ls *.py`, []string{"ls", "*.py"}},
		{"a # a comment", []string{"a"}},
		{"sh -c 'cd server && exec python3 adapter.py'", []string{"sh", "-c", "cd server && exec python3 adapter.py"}},
	} {
		got, err := POSIX(c.in, env)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("POSIX(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestPOSIXErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`python3 'unclosed`, "without closing quote"},
		{`a | b`, "sh -c"},
		{`a > out.txt`, "sh -c"},
		{`a; b`, "sh -c"},
		{`a && b`, "sh -c"},
		{`a &`, "sh -c"},
		{`node $NOPE/a.mjs`, "$NOPE is not set in lembas-check's environment"},
		{`echo $(date)`, "command substitution is not run"},
		{"echo `date`", "command substitution is not run"},
		{`FOO=1 node a.mjs`, "env NAME=VALUE"},
	} {
		got, err := POSIX(c.in, env)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.in) {
			t.Errorf("POSIX(%q) = %q, %v; want an error naming the command and saying %q", c.in, got, err, c.want)
		}
	}
}

func TestWindows(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{`node C:\x\a.mjs`, []string{"node", `C:\x\a.mjs`}},
		{`"C:\Program Files\nodejs\node.exe" C:\x\a.mjs`, []string{`C:\Program Files\nodejs\node.exe`, `C:\x\a.mjs`}},
		{`python3 -c "print('a\nb')"`, []string{"python3", "-c", `print('a\nb')`}},
		{`a "b c" d`, []string{"a", "b c", "d"}},
		{`a\"b`, []string{`a"b`}},
		{`a\\"b c"`, []string{`a\b c`}},
		{`a\\\"b`, []string{`a\"b`}},
		{`"a""b"`, []string{`a"b`}},
		{`"" x`, []string{"", "x"}},
		{`'single quotes' group nothing`, []string{"'single", "quotes'", "group", "nothing"}},
		{`x $HOME %PATH%`, []string{"x", "$HOME", "%PATH%"}},
		{`dir\ `, []string{`dir\`}},
	} {
		if got := Windows(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Windows(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// shellQuote quotes a word for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// windowsQuote quotes a word as Windows programs unquote it (as syscall.EscapeArg does).
func windowsQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(s[i])
	}
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
	return b.String()
}

// A quoted word comes back as it was, by either rule.
func FuzzQuotedWordsComeBack(f *testing.F) {
	f.Add("python3", `print('a\nb')`, `C:\x\a.mjs`)
	f.Add(`a"b`, `\\`, `$HOME ~ *`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		words := []string{a, b, c}
		for _, w := range words {
			if strings.ContainsRune(w, 0) || !utf8.ValidString(w) {
				t.Skip("no command line holds NUL; a shell reads UTF-8")
			}
		}
		var posix, win []string
		for _, w := range words {
			posix = append(posix, shellQuote(w))
			win = append(win, windowsQuote(w))
		}
		if got, err := POSIX(strings.Join(posix, " "), env); err != nil || !slices.Equal(got, words) {
			t.Errorf("POSIX(%q) = %q, %v; want %q", strings.Join(posix, " "), got, err, words)
		}
		if got := Windows(strings.Join(win, " ")); !slices.Equal(got, words) {
			t.Errorf("Windows(%q) = %q; want %q", strings.Join(win, " "), got, words)
		}
	})
}

func FuzzPOSIX(f *testing.F) {
	f.Add(`python3 -c "print('a\nb')" $ROOT ~/x`)
	f.Fuzz(func(t *testing.T, s string) {
		POSIX(s, env) // must not panic; errors are fine
		Windows(s)
	})
}
