package modules

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, file string
		body       string   // want, when valid
		globs      []string // want, when valid
		invalid    bool
	}{
		{name: "no frontmatter", file: "# Rules\nbody\n", body: "# Rules\nbody\n"},
		{name: "empty", file: "---\n---\nbody\n", body: "body\n"},
		{name: "white space and comments", file: "---\n  \n# nothing here\n---\nbody", body: "body"},
		{name: "null document", file: "---\n~\n---\nbody\n", body: "body\n"},
		{name: "empty mapping", file: "---\n{}\n---\nbody\n", body: "body\n"},
		{name: "block list", file: "---\npaths:\n  - \"src/**\"\n  - lib/*.go\n---\nb\n", body: "b\n", globs: []string{"src/**", "lib/*.go"}},
		{name: "flow list", file: "---\npaths: [\"src/**\", 'docs/?.md']\n---\nb\n", body: "b\n", globs: []string{"src/**", "docs/?.md"}},
		{name: "quoted key", file: "---\n\"paths\": [\"a\"]\n---\n", body: "", globs: []string{"a"}},
		{name: "anchor and alias", file: "---\npaths: [&g \"src/*\", *g]\n---\nb", body: "b", globs: []string{"src/*", "src/*"}},
		{name: "BOM and CRLF fences", file: "\ufeff---\r\npaths:\r\n  - \"*.md\"\r\n---\r\nline\r\n", body: "line\r\n", globs: []string{"*.md"}},
		{name: "BOM, no frontmatter", file: "\ufeffbody\n", body: "body\n"},
		{name: "closing fence at the end, no newline", file: "---\npaths: [a]\n---", body: "", globs: []string{"a"}},
		{name: "a later fence is body", file: "---\npaths: [a]\n---\nx\n---\ny\n", body: "x\n---\ny\n", globs: []string{"a"}},
		{name: "first line not the fence alone", file: "--- \npaths: [a]\n---\nb\n", body: "--- \npaths: [a]\n---\nb\n"},
		{name: "fence not on the first line", file: "\n---\npaths: [a]\n---\n", body: "\n---\npaths: [a]\n---\n"},
		{name: "four dashes", file: "----\nx\n", body: "----\nx\n"},
		{name: "explicit !!str tag", file: "---\npaths: [!!str 42]\n---\n", body: "", globs: []string{"42"}},
		{name: "unterminated", file: "---\npaths: [a]\nbody\n", invalid: true},
		{name: "fence alone", file: "---", invalid: true},
		{name: "fence and newline alone", file: "---\n", invalid: true},
		{name: "misspelled key", file: "---\npath: [a]\n---\n", invalid: true},
		{name: "second key", file: "---\npaths: [a]\nowner: me\n---\n", invalid: true},
		{name: "key twice", file: "---\npaths: [a]\npaths: [b]\n---\n", invalid: true},
		{name: "merge key", file: "---\n<<: {paths: [a]}\n---\n", invalid: true},
		{name: "not a mapping", file: "---\n- a\n---\n", invalid: true},
		{name: "a scalar", file: "---\npaths\n---\n", invalid: true},
		{name: "invalid YAML", file: "---\npaths: [a\n---\n", invalid: true},
		{name: "unknown alias", file: "---\npaths:\n  - *.ts\n---\n", invalid: true},
		{name: "tab indentation", file: "---\npaths:\n\t- a\n---\n", invalid: true},
		{name: "paths null", file: "---\npaths:\n---\n", invalid: true},
		{name: "paths a string", file: "---\npaths: a\n---\n", invalid: true},
		{name: "paths a mapping", file: "---\npaths: {a: b}\n---\n", invalid: true},
		{name: "paths empty", file: "---\npaths: []\n---\n", invalid: true},
		{name: "empty string", file: "---\npaths: [\"\"]\n---\n", invalid: true},
		{name: "a number", file: "---\npaths: [42]\n---\n", invalid: true},
		{name: "a boolean", file: "---\npaths: [true]\n---\n", invalid: true},
		{name: "null item", file: "---\npaths: [~]\n---\n", invalid: true},
		{name: "nested list", file: "---\npaths: [[a]]\n---\n", invalid: true},
		{name: "leading slash", file: "---\npaths: [/a]\n---\n", invalid: true},
		{name: "backslash", file: "---\npaths: ['a\\b']\n---\n", invalid: true},
		{name: "dot-dot segment", file: "---\npaths: [a/../b]\n---\n", invalid: true},
		{name: "one bad among good", file: "---\npaths: [a, /b, c]\n---\n", invalid: true},
		{name: "a second document after ---", file: "---\npaths: [a]\n--- # two\nowner: me\n---\n", invalid: true},
		{name: "a bare document after ...", file: "---\npaths: [a]\n...\nowner: me\n---\n", invalid: true},
		{name: "an empty first document", file: "---\n...\n--- \npaths: [a]\n---\n", invalid: true},
		{name: "one document and its end marker", file: "---\npaths: [a]\n...\n---\nb", body: "b", globs: []string{"a"}},
		{name: "null and its end marker", file: "---\n~\n...\n---\nb", body: "b"},
	} {
		m, err := Parse([]byte(c.file))
		if c.invalid {
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Errorf("%s: want an InvalidError, got %v (globs %v)", c.name, err, m.Globs)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var globs []string
		for _, g := range m.Globs {
			globs = append(globs, g.String())
		}
		if string(m.Body) != c.body || strings.Join(globs, "|") != strings.Join(c.globs, "|") || m.Conditional() != (len(c.globs) > 0) {
			t.Errorf("%s: body %q globs %q, want %q %q", c.name, m.Body, globs, c.body, c.globs)
		}
	}
}

// FuzzParse: Parse never panics; a valid module's body is what follows the frontmatter (the
// whole file without its BOM when there is none), and a conditional one has globs that compile.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"---\npaths:\n  - \"src/**\"\n---\nbody\n", "\ufeff---\r\n---\r\nx", "---\n[a, b]\n---\n", "# no front\n", "---\npaths: &a [*a]\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		m, err := Parse(file)
		if err != nil {
			return
		}
		rest := bytes.TrimPrefix(file, bom)
		if !bytes.HasSuffix(rest, m.Body) {
			t.Fatalf("body %q is not the end of the file %q", m.Body, file)
		}
		if !bytes.HasPrefix(rest, []byte(SpecTexts().Fence)) && !bytes.Equal(m.Body, rest) {
			t.Fatalf("no frontmatter, yet the body %q is not the file %q", m.Body, rest)
		}
		for _, g := range m.Globs {
			if _, err := CompileGlob(g.String()); err != nil {
				t.Fatalf("a glob of a valid module does not compile: %v", err)
			}
		}
	})
}

// FuzzPlainFrontIsYAML: whatever the block, reading it without the parser where plainFront takes
// it answers as the YAML parser does: the same globs, or the same error.
func FuzzPlainFrontIsYAML(f *testing.F) {
	for _, s := range []string{"paths:\n  - \"src/**\"\n", "paths:\n  - \"a\"\n  - \"b/*.md\"\n", "paths:\n  - \"\"\n",
		"paths:\n  - \"[\"\n", "paths:\n  - \"a\" # x\n", "paths:\n- \"a\"\n", "paths:\n  - 'a'\n", "path:\n  - \"a\"\n",
		"paths:\n  - \"a\\tb\"\n", "paths:\n  - \"**/x?\"\n", "paths:\n  - \"a\"\n\n"} {
		f.Add([]byte(s))
	}
	key := SpecTexts().Key
	f.Fuzz(func(t *testing.T, block []byte) {
		if _, ok := plainFront(block, key); !ok {
			return
		}
		got, err := parseFront(block, key)
		want, wantErr := parseFrontYAML(block, key)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%q: read plainly %v (%v), by YAML %v (%v)", block, got, err, want, wantErr)
		}
	})
}

// The frontmatters of the modules cases are mostly of the plain shape: the shape read without
// the parser must be the common one, or the fast path is dead code.
func TestPlainFrontTakesTheCommonShape(t *testing.T) {
	key := SpecTexts().Key
	for _, s := range []string{"paths:\n  - \"src/**\"\n", "paths:\n  - \"src/**\"\n  - \"lib/*.ts\"\n"} {
		if items, ok := plainFront([]byte(s), key); !ok || len(items) == 0 {
			t.Errorf("%q: not read plainly", s)
		}
	}
	for _, s := range []string{"paths: [\"src/**\"]\n", "paths:\n  - \"src/**\"\nowner: x\n", "paths:\n  - *.ts\n",
		"paths:\r\n  - \"*.md\"\r\n", "", "paths:\n", "paths:\n  - \"a\\\\b\"\n"} {
		if _, ok := plainFront([]byte(s), key); ok {
			t.Errorf("%q: read plainly, want it left to YAML", s)
		}
	}
}
