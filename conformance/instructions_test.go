package conformance

import (
	"encoding/json"
	"testing"
)

func TestInstructionsRefusesMalformedCases(t *testing.T) {
	for _, c := range []struct{ name, json, field, want string }{
		{"no files", `{"boundary": "/", "start": "/"}`, "files", "missing"},
		{"no boundary", `{"files": [], "start": "/"}`, "boundary", "missing"},
		{"no start", `{"files": [], "boundary": "/"}`, "start", "missing"},
		{"relative start", `{"files": [], "boundary": "/", "start": "x"}`, "start", "not absolute"},
		{"relative file", `{"files": ["AGENTS.md"], "boundary": "/", "start": "/"}`, "files[0]", "not absolute"},
		{"a file and a dir", `{"files": ["/x", "/x/AGENTS.md"], "boundary": "/", "start": "/"}`, "files[1]", "below /x, a file"},
		{"bad level", `{"files": [], "grants": {"/": "read"}, "boundary": "/", "start": "/"}`, `grants["/"]`, "not a level"},
		{"unknown field", `{"files": [], "boundary": "/", "start": "/", "cwd": "/"}`, "cwd", "unknown field"},
		{"empty read", `{"files": [], "boundary": "/", "start": "/", "reads": [""]}`, "reads[0]", "is empty"},
		{"device grants", `{"files": [], "boundary": "/", "start": "/", "grants": {}, "device": {}}`, "grants",
			"one access level"},
		{"relative global", `{"files": [], "boundary": "/", "start": "/", "device": {"global": "g.md"}}`,
			"device.global", "not absolute"},
		{"relative configured", `{"files": [], "boundary": "/", "start": "/", "device": {"instructions": ["x"]}}`,
			"device.instructions[0]", "not absolute"},
		{"link and file", `{"files": ["/AGENTS.md"], "boundary": "/", "start": "/", "device": {"links": ` +
			`{"/AGENTS.md": "/x"}}}`, `device.links["/AGENTS.md"]`, "is also in files"},
		{"empty target", `{"files": [], "boundary": "/", "start": "/", "device": {"links": {"/AGENTS.md": ""}}}`,
			`device.links["/AGENTS.md"]`, "is empty"},
	} {
		_, err := Instructions.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
	for _, c := range []struct{ json, field, want string }{
		{`null`, "", "[] when none"},
		{`{"files": []}`, "(top)", "want a list"},
		{`["./AGENTS.md"]`, "[0]", "not a resolved path"},
		{`["a//AGENTS.md"]`, "[0]", "not a resolved path"},
		{`[""]`, "[0]", "not a resolved path"},
	} {
		_, err := Instructions.DecodeAnswer(json.RawMessage(c.json))
		wantField(t, c.json, err, c.field, c.want)
	}
}

// An empty chain is [], and grants {} (given, empty) is not grants absent: nothing is readable.
func TestInstructionsAnswerShapeAndGrants(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"files": ["/README.md"], "boundary": "/", "start": "/"}`, `[]`},
		{`{"files": ["/AGENTS.md"], "boundary": "/", "start": "/"}`, `["/AGENTS.md"]`},
		{`{"files": ["/AGENTS.md"], "grants": {}, "boundary": "/", "start": "/"}`, `[]`},
	} {
		if got := referenceJSON(t, Instructions, c.in); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}
