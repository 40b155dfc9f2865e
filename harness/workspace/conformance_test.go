package workspace_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
	"github.com/LLeMbas/lembas-check/harness/workspace"
)

func TestMalformedCasesNameTheirField(t *testing.T) {
	for _, c := range []struct{ json, field string }{
		{`{"default":"/a","steps":[{"op":"new"}]}`, "tree"},
		{`{"tree":[],"steps":[{"op":"new"}]}`, "default"},
		{`{"tree":[],"default":"a","steps":[{"op":"new"}]}`, "default"},
		{`{"tree":[],"default":"/a","roots":["b"],"steps":[{"op":"new"}]}`, "roots[0]"},
		{`{"tree":[],"default":"/a"}`, "steps"},
		{`{"tree":[],"default":"/a","steps":[{"op":"mkdir"}]}`, "steps[0].op"},
		{`{"tree":[],"default":"/a","steps":[{"op":"read"}]}`, "steps[0].path"},
		{`{"tree":[],"default":"/a","steps":[{"op":"write","path":""}]}`, "steps[0].path"},
		{`{"tree":[],"default":"/a","steps":[{"op":"new","path":"x"}]}`, "steps[0].path"},
		{`{"tree":[],"default":"/a","steps":[{"op":"read","path":"x","root":"/a"}]}`, "steps[0].root"},
		{`{"tree":[],"default":"/a","steps":[{"op":"options","cwd":"/"}]}`, "steps[0].cwd"},
		{`{"tree":[],"default":"/a","steps":[{"op":"new","cwd":"/a\u0000"}]}`, "steps[0].cwd"},
		{`{"tree":["/a","/a/b"],"default":"/a","steps":[{"op":"new"}]}`, "tree[1]"},
		{`{"tree":["rel"],"default":"/a","steps":[{"op":"new"}]}`, "tree[0]"},
		{`{"tree":[],"links":{"/l":""},"default":"/a","steps":[{"op":"new"}]}`, `links["/l"]`},
		{`{"tree":[],"default":"/a","steps":[{"op":"new"}],"grants":{}}`, "grants"},
	} {
		_, err := conformance.Workspace.Decode(json.RawMessage(c.json))
		var fe *conformance.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: want an error on %s, got %v", c.json, c.field, err)
		}
	}
}

func TestAnswerShapes(t *testing.T) {
	if _, err := conformance.Workspace.DecodeAnswer(json.RawMessage(`[{"root":"/a"},{"path":"/a/b"},{"roots":null},{"roots":["/a"]},{"error":"escape"}]`)); err != nil {
		t.Fatalf("a good answer: %v", err)
	}
	for _, bad := range []string{`[null]`, `[{}]`, `[{"root":"/a","path":"/b"}]`, `[{"error":"denied"}]`, `[{"root":1}]`, `[{"roots":"/a"}]`, `[{"size":1}]`, `{"root":"/a"}`} {
		if _, err := conformance.Workspace.DecodeAnswer(json.RawMessage(bad)); err == nil {
			t.Errorf("%s: decoded as an answer", bad)
		}
	}
}

// FuzzWorkspaceCase: decoding never panics; a case that decodes never makes the reference
// panic; its answer is an answer the area accepts, names no temporary path, and the reference
// leaves no temporary tree behind.
func FuzzWorkspaceCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Workspace)
	f.Add([]byte(`{"tree":["/a/x"],"links":{"/a/l":"../../../../../..","/a/m":"/a/l/a/x"},"default":"/a","steps":[{"op":"new"},{"op":"read","path":"m"},{"op":"write","path":"l/etc/passwd"}]}`))
	before := leftovers(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, ok := conformancetest.Answer(t, conformance.Workspace, raw, true)
		if !ok {
			return
		}
		if strings.Contains(string(b), workspace.TempPrefix) {
			t.Fatalf("an answer names the temporary tree: %s", b)
		}
	})
	if after := leftovers(f); after != before {
		f.Errorf("%d temporary trees left behind", after-before)
	}
}

func leftovers(t testing.TB) int {
	n := 0
	for _, dir := range []string{os.TempDir(), "/dev/shm"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), workspace.TempPrefix) {
				n++
			}
		}
	}
	return n
}
