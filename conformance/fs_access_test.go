package conformance

import (
	"encoding/json"
	"testing"
)

func TestFSAccessRefusesMalformedCases(t *testing.T) {
	const tree = `"tree": ["/a/", "/a/b.md"], `
	for _, c := range []struct{ name, json, field, want string }{
		{"no tree", `{"op": "read", "path": "/a"}`, "tree", "missing"},
		{"unknown op", `{` + tree + `"op": "chmod", "path": "/a"}`, "op", "want one of level, list, read, write, mkdir, rm, commit"},
		{"no op", `{` + tree + `"path": "/a"}`, "op", `"" is not an operation`},
		{"no path", `{` + tree + `"op": "read"}`, "path", "missing"},
		{"empty path", `{` + tree + `"op": "read", "path": ""}`, "path", "missing"},
		{"view with a path", `{` + tree + `"op": "view", "path": "/"}`, "path", "is not view's"},
		{"bad level", `{` + tree + `"grants": {"/a": "write"}, "op": "read", "path": "/a"}`, `grants["/a"]`, `"write" is not a level`},
		{"bad floor level", `{` + tree + `"floor": {"/a": "rw"}, "op": "read", "path": "/a"}`, `floor["/a"]`, "not a level"},
		{"relative grant", `{` + tree + `"grants": {"a": "ro"}, "op": "read", "path": "/a"}`, `grants["a"]`, "not absolute"},
		{"relative cwd", `{` + tree + `"cwd": "a", "op": "read", "path": "b.md"}`, "cwd", "not absolute"},
		{"relative tree path", `{"tree": ["a.md"], "op": "read", "path": "/a"}`, "tree[0]", "not absolute"},
		{"a file and a dir", `{"tree": ["/a", "/a/b"], "op": "read", "path": "/a"}`, "tree[1]", "below /a, a file"},
		{"a mount on a file", `{"tree": ["/a"], "mounts": ["/a"], "op": "read", "path": "/a"}`, "mounts[0]", "a file"},
		{"unknown field", `{` + tree + `"op": "read", "path": "/a", "user": "x"}`, "user", "unknown field"},
		{"path not a string", `{` + tree + `"op": "read", "path": 3}`, "path", "want a string"},
	} {
		_, err := FSAccess.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
}

func TestFSAccessAnswerShapes(t *testing.T) {
	for _, ok := range []string{`{"ok": true}`, `{"entries": []}`, `{"entries": ["a/", "b"]}`, `{"level": "none", "passage": false}`, `{"error": "x"}`} {
		if _, err := FSAccess.DecodeAnswer(json.RawMessage(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, c := range []struct{ json, field, want string }{
		{`{}`, "", "exactly one of"},
		{`{"ok": true, "error": "x"}`, "", "exactly one of"},
		{`{"ok": false}`, "ok", "is false"},
		{`{"entries": null}`, "", "exactly one of"},
		{`{"level": "ro"}`, "passage", "missing"},
		{`{"passage": true}`, "level", "missing"},
		{`{"level": "rw", "passage": true}`, "level", "not a level"},
		{`{"ok": true, "note": 1}`, "note", "unknown field"},
	} {
		_, err := FSAccess.DecodeAnswer(json.RawMessage(c.json))
		wantField(t, c.json, err, c.field, c.want)
	}
}

// The answer marshals to exactly the expect's shape: [] for an empty listing, false written out.
func TestFSAccessAnswerMarshalsToTheExpectShape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"tree": ["/e/"], "grants": {"/": "ro"}, "op": "list", "path": "/e"}`, `{"entries":[]}`},
		{`{"tree": ["/e/"], "grants": {"/": "ro"}, "op": "read", "path": "/e/.."}`, `{"entries":["e/"]}`},
		{`{"tree": [], "op": "level", "path": "/x"}`, `{"level":"none","passage":false}`},
		{`{"tree": ["/f"], "grants": {"/": "stage"}, "op": "write", "path": "f"}`, `{"ok":true}`},
		{`{"tree": [], "grants": {"/": "stage"}, "op": "rm", "path": "/x/../y"}`, `{"error":"No such file or directory: /y"}`},
	} {
		if got := referenceJSON(t, FSAccess, c.in); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}
