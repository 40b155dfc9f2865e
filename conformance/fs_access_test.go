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

// TestDeviceCasesFailAChatsListing: each device case fails a reference that lists the tree as a
// chat's, everything at stage, nothing left out.
func TestDeviceCasesFailAChatsListing(t *testing.T) {
	cases, err := Load(EmbeddedSuites(), All())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		fc, ok := c.Decoded.(FSAccessCase)
		if !ok || !fc.Device {
			continue
		}
		n++
		fc.Device, fc.Gitignore, fc.Grants = false, nil, map[string]string{"/": "stage"}
		got, err := answerFSAccess(fc)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		b, _ := json.Marshal(got)
		if Diff(c.Expect, b) == "" {
			t.Errorf("%s (%s): a chat's listing passes it", c.ID, c.About)
		}
	}
	if n < 5 {
		t.Errorf("%d device cases, want the 5 of cases/fs_access.json at least", n)
	}
}

func TestDeviceCasesRefusedWhenMalformed(t *testing.T) {
	const tree = `"tree": ["/p/.gitignore", "/p/a.go", "/p/node_modules/x.js"]`
	for _, c := range []struct{ name, json, field, want string }{
		{"grants", `{` + tree + `, "device": true, "grants": {"/": "ro"}, "op": "list_text", "path": "/p"}`, "grants",
			"one level"},
		{"mounts", `{` + tree + `, "device": true, "mounts": ["/p"], "op": "list_text", "path": "/p"}`, "mounts", "no mounts"},
		{"op", `{` + tree + `, "device": true, "op": "write", "path": "/p/a.go"}`, "op", "a listing"},
		{"not device", `{` + tree + `, "gitignore": {"/p/.gitignore": []}, "op": "list", "path": "/p"}`, "gitignore",
			"is a device's"},
		{"not a file", `{` + tree + `, "device": true, "gitignore": {"/p/x/.gitignore": []}, "op": "list", "path": "/p"}`,
			`gitignore["/p/x/.gitignore"]`, "not a .gitignore file"},
		{"bad pattern", `{` + tree + `, "device": true, "gitignore": {"/p/.gitignore": ["**/[x"]}, "op": "list", "path": "/p"}`,
			`gitignore["/p/.gitignore"]`, "syntax error in pattern"},
		{"left out", `{` + tree + `, "device": true, "op": "list", "path": "/p/node_modules"}`, "path", "left out"},
	} {
		_, err := FSAccess.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
}
