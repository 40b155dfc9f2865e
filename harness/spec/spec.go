// Package spec holds harness spec 3.1.0 as lembas-check vendors it (no area of its own: every
// area's texts and numbers come from it): the spec's own files, embedded and pinned by SHA-256
// (MANIFEST.sha256), and extra/*.json — the texts the spec fixes that no whole vendored file
// carries, each with where it was copied from. Every text a reference implementation says comes
// from here; none is typed in Go source.
//
//go:generate go test -run ^TestDecodedIsRead$ -update .
package spec

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed files MANIFEST.sha256 extra
var embedded embed.FS

// Files is the vendored spec tree, rooted like the spec's own directory (VERSION, context.md,
// conformance/, tools/, prompts/, loop.partial.json).
var Files fs.FS = mustSub(embedded, "files")

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return s
}

// Entry is one pinned file of the manifest.
type Entry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int    `json:"size"`
}

// Version is the spec's own version (its VERSION file, trimmed).
func Version() string {
	b, err := fs.ReadFile(Files, "VERSION")
	if err != nil {
		panic(err)
	}
	return strings.TrimSpace(string(b))
}

// Manifest is the pinned list, in path order, as MANIFEST.sha256 says it (sha256sum's format).
func Manifest() []Entry {
	b, err := embedded.ReadFile("MANIFEST.sha256")
	if err != nil {
		panic(err)
	}
	m, err := ParseManifest(b)
	if err != nil {
		panic(fmt.Sprintf("harness/spec/MANIFEST.sha256: %v", err))
	}
	for i := range m {
		if data, err := fs.ReadFile(Files, m[i].Path); err == nil {
			m[i].Size = len(data)
		}
	}
	return m
}

// ParseManifest reads sha256sum output: "<64 hex>  <path>" per line.
func ParseManifest(b []byte) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		sum, p, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 || p == "" {
			return nil, fmt.Errorf("line %d: want \"<sha256>  <path>\", got %q", n, line)
		}
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, fmt.Errorf("line %d: %q is not hex", n, sum)
		}
		out = append(out, Entry{Path: p, SHA256: sum})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, sc.Err()
}

// Sum is the hex SHA-256 of b.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Verify checks the embedded files against their pins, and that no file is embedded unpinned.
func Verify() error {
	problems := Compare(Files, Manifest(), CompareOptions{})
	if len(problems) == 0 {
		return nil
	}
	var lines []string
	for _, p := range problems {
		lines = append(lines, p.String())
	}
	return fmt.Errorf("vendored spec differs from its pins (harness/spec/MANIFEST.sha256):\n  %s", strings.Join(lines,
		"\n  "))
}

// Conformance is the spec's conformance/ directory: one <area>.json per area.
func Conformance() fs.FS { return mustSub(Files, "conformance") }

// Render fills every {{name}} of a spec template from vars. A name the template uses that vars
// lacks is an error: a silently empty hole would make a byte-exact text wrong without a trace.
func Render(tmpl string, vars map[string]string) (string, error) {
	var b strings.Builder
	// Sized first: a result's text is often a whole file's content, and a Builder that doubles
	// copied it several times (a tenth of area context's answers).
	size := len(tmpl)
	for rest := tmpl; ; {
		_, name, after, ok := nextHole(rest)
		if !ok {
			break
		}
		size += len(vars[name])
		rest = after
	}
	b.Grow(size)
	rest := tmpl
	for {
		i, name, after, ok := nextHole(rest)
		if !ok {
			b.WriteString(rest)
			return b.String(), nil
		}
		v, ok := vars[name]
		if !ok {
			return "", fmt.Errorf("template %q needs {{%s}}", abbreviate(tmpl), name)
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = after
	}
}

// nextHole is where s's first {{name}} begins, the name, and what follows it; ok is false when s
// has none. The offset is returned so that Render finds each hole once.
func nextHole(s string) (at int, name, after string, ok bool) {
	i := strings.Index(s, "{{")
	if i < 0 {
		return 0, "", "", false
	}
	j := strings.Index(s[i:], "}}")
	if j < 0 {
		return 0, "", "", false
	}
	return i, s[i+2 : i+j], s[i+j+2:], true
}

// MustRender is Render for templates and variables fixed by the caller's own code.
func MustRender(tmpl string, vars map[string]string) string {
	s, err := Render(tmpl, vars)
	if err != nil {
		panic(err)
	}
	return s
}

func abbreviate(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// Extra is one file of extra/: texts and tool parts the seed shows only inside cases or fragments.
type Extra struct {
	About string               `json:"about"`
	Texts map[string]ExtraText `json:"texts"`
	Tools map[string]ExtraTool `json:"tools"`
}

// ExtraText is one vendored text and where it was copied from.
type ExtraText struct {
	Text   string `json:"text"`
	Source string `json:"source"`
}

// ExtraTool is what a tool the seed shows only in part says of `requires` and `unavailable`.
type ExtraTool struct {
	Requires    []string `json:"requires"`
	Unavailable string   `json:"unavailable"`
	Source      string   `json:"source"`
}

var (
	extraOnce sync.Once
	extra     Extra
)

// Extras is every file of extra/ merged; a key in two files is a vendoring mistake and panics.
// It is the table `go generate` wrote of them (decoded.go; TestDecodedIsRead holds the two
// equal), so a process decodes no JSON for it.
func Extras() Extra {
	extraOnce.Do(func() { extra = decodedExtras() })
	return extra
}

// readExtras decodes extra/*.json, which decoded.go is made of.
func readExtras() Extra {
	x := Extra{Texts: map[string]ExtraText{}, Tools: map[string]ExtraTool{}}
	entries, err := fs.ReadDir(embedded, "extra")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := embedded.ReadFile("extra/" + e.Name())
		if err != nil {
			panic(err)
		}
		var f Extra
		if err := json.Unmarshal(b, &f); err != nil {
			panic(fmt.Sprintf("harness/spec/extra/%s: %v", e.Name(), err))
		}
		for k, v := range f.Texts {
			if _, dup := x.Texts[k]; dup {
				panic(fmt.Sprintf("harness/spec/extra/%s: text %q is also in another file", e.Name(), k))
			}
			x.Texts[k] = v
		}
		for k, v := range f.Tools {
			if _, dup := x.Tools[k]; dup {
				panic(fmt.Sprintf("harness/spec/extra/%s: tool %q is also in another file", e.Name(), k))
			}
			x.Tools[k] = v
		}
	}
	return x
}

// Text is one vendored text of extra/ by key (mode.plan, tasks.compact.ask, jobs.command, …).
func Text(key string) string {
	t, ok := Extras().Texts[key]
	if !ok {
		panic(fmt.Sprintf("harness/spec: no text %q in extra/", key))
	}
	return t.Text
}

// ExtraFiles lists extra/'s files with their bytes, for `lembas-check spec`.
func ExtraFiles() map[string][]byte {
	out := map[string][]byte{}
	entries, _ := fs.ReadDir(embedded, "extra")
	for _, e := range entries {
		b, _ := embedded.ReadFile("extra/" + e.Name())
		out["extra/"+e.Name()] = b
	}
	return out
}

// ReadFile reads one vendored spec file by its spec path (tools/show.json).
func ReadFile(p string) ([]byte, error) { return fs.ReadFile(Files, path.Clean(p)) }

// Parsed is what parse reads from the vendored spec, parsed on first use and kept. A text that
// changed shape panics then, naming where (the file or key it came from): every answer built on
// it would be wrong.
func Parsed[T any](where string, parse func() (T, error)) func() T {
	return sync.OnceValue(func() T {
		v, err := parse()
		if err != nil {
			panic(where + ": " + err.Error())
		}
		return v
	})
}
