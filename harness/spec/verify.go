package spec

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"reflect"
	"sort"
	"strings"
)

// Problem is one way a copy of the spec differs from the pinned files.
type Problem struct {
	Path string `json:"path"`
	// Kind is "differs", "missing" or "extra".
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
}

func (p Problem) String() string {
	if p.Detail == "" {
		return fmt.Sprintf("%-8s %s", p.Kind, p.Path)
	}
	return fmt.Sprintf("%-8s %s: %s", p.Kind, p.Path, p.Detail)
}

// CompareOptions tunes Compare for a project's own copy of the spec.
type CompareOptions struct {
	// AllowExtra leaves files the manifest does not pin unreported. A project's copy is the whole
	// spec, of which the seed — and so lembas-check — carries only part.
	AllowExtra bool
}

// partialLoop is the pinned file that stands for a part of another: loop.partial.json holds the
// top-level keys of loop.json that the seed shows whole.
const (
	partialLoop = "loop.partial.json"
	wholeLoop   = "loop.json"
)

// CompareDir is Compare of the copy in the folder dir, against the vendored manifest; a dir that
// is not a folder is the error, saying what to give.
func CompareDir(dir string, opts CompareOptions) ([]Problem, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("spec verify %s: not a directory (give the folder holding the spec's VERSION, "+
			"loop.json, conformance/ …)", dir)
	}
	return Compare(os.DirFS(dir), Manifest(), opts), nil
}

// Compare checks a copy of the spec (the CLI's `harness/`, the server's vendored copy, or the
// embedded files) against the manifest: each pinned file must be there with the pinned bytes.
// loop.partial.json is checked against the copy's loop.json, key by key: each top-level key it
// holds must be the same JSON there. Files under the pinned directories that the manifest does
// not name are "extra" unless opts.AllowExtra.
func Compare(copyFS fs.FS, manifest []Entry, opts CompareOptions) []Problem {
	var out []Problem
	pinned := map[string]bool{}
	dirs := map[string]bool{}
	for _, e := range manifest {
		pinned[e.Path] = true
		if d := path.Dir(e.Path); d != "." {
			dirs[strings.SplitN(d, "/", 2)[0]] = true
		}
		b, err := fs.ReadFile(copyFS, e.Path)
		if err != nil && e.Path == partialLoop {
			if whole, werr := fs.ReadFile(copyFS, wholeLoop); werr == nil {
				pinnedBytes, _ := fs.ReadFile(Files, partialLoop)
				if d := comparePartial(pinnedBytes, whole); d != "" {
					out = append(out, Problem{Path: wholeLoop, Kind: "differs", Detail: d})
				}
				pinned[wholeLoop] = true
				continue
			}
		}
		if err != nil {
			out = append(out, Problem{Path: e.Path, Kind: "missing"})
			continue
		}
		if got := Sum(b); got != e.SHA256 {
			out = append(out, Problem{Path: e.Path, Kind: "differs", Detail: fmt.Sprintf("sha256 %s, pinned %s",
				got[:12], e.SHA256[:12])})
		}
	}
	if !opts.AllowExtra {
		_ = fs.WalkDir(copyFS, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || pinned[p] {
				return nil
			}
			top := strings.SplitN(p, "/", 2)[0]
			if dirs[top] || !strings.Contains(p, "/") && isSpecTopFile(p) {
				out = append(out, Problem{Path: p, Kind: "extra", Detail: "not pinned by lembas-check's manifest"})
			}
			return nil
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// isSpecTopFile says whether a top-level file of a copy is part of the spec's own files (the
// manifest's kinds), not a project's README or build file beside it.
func isSpecTopFile(p string) bool {
	switch path.Ext(p) {
	case ".json", ".md":
		return p != "README.md" && p != "CHANGELOG.md"
	}
	return false
}

// comparePartial compares every top-level key of the pinned partial loop.json with the same key
// of a whole loop.json, and names the keys that differ.
func comparePartial(partial, whole []byte) string {
	var p, w map[string]any
	if err := json.Unmarshal(partial, &p); err != nil {
		return "the pinned loop.partial.json does not decode: " + err.Error()
	}
	if err := json.Unmarshal(whole, &w); err != nil {
		return "not JSON: " + err.Error()
	}
	var bad []string
	for k, v := range p {
		wv, ok := w[k]
		if !ok {
			bad = append(bad, fmt.Sprintf("%q missing", k))
			continue
		}
		if !reflect.DeepEqual(v, wv) {
			bad = append(bad, fmt.Sprintf("%q differs", k))
		}
	}
	sort.Strings(bad)
	return strings.Join(bad, ", ")
}
