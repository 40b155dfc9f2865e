package conformance

import (
	"encoding/json"
	"testing"
)

func TestSkillsRefusesMalformedCases(t *testing.T) {
	const chat = `"side": "chat", "tree": [], "boundary": "/", "start": "/", "user": "ana"`
	for _, c := range []struct{ name, json, field, want string }{
		{"no side", `{"tree": [], "op": "list"}`, "side", "want chat or device"},
		{"no user", `{"side": "chat", "tree": [], "boundary": "/", "start": "/", "op": "list"}`, "user", "missing"},
		{"device boundary", `{"side": "device", "tree": [], "project": "/p", "boundary": "/", "op": "list"}`,
			"boundary", "not a device case's"},
		{"device grants", `{"side": "device", "tree": [], "project": "/p", "grants": {}, "op": "list"}`,
			"grants", "not a device case's"},
		{"chat project", `{` + chat + `, "project": "/p", "op": "list"}`, "project", "not a chat case's"},
		{"start outside", `{"side": "chat", "tree": [], "boundary": "/a", "start": "/b", "user": "u", "op": "list"}`,
			"start", "outside the boundary"},
		{"relative project", `{"side": "device", "tree": [], "project": "p", "op": "list"}`, "project", "not absolute"},
		{"bad op", `{` + chat + `, "op": "rm"}`, "op", "want list, view or make"},
		{"view without name", `{` + chat + `, "op": "view"}`, "name", "missing"},
		{"list with name", `{` + chat + `, "op": "list", "name": "x"}`, "name", "op list has none"},
		{"device make", `{"side": "device", "tree": [], "project": "/p", "op": "make", "name": "x"}`,
			"user_skills", "missing"},
		{"no tree", `{"side": "chat", "boundary": "/", "start": "/", "user": "u", "op": "list"}`, "tree", "missing"},
	} {
		_, err := Skills.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
	for _, c := range []struct{ json, field, want string }{
		{`{}`, "", "exactly one of"},
		{`{"skill": "/a/SKILL.md", "none": true}`, "", "exactly one of"},
		{`{"none": false}`, "none", "is false"},
		{`{"skills": null}`, "", "exactly one of"},
		{`{"refused": "size"}`, "refused", "the check that refused"},
	} {
		_, err := Skills.DecodeAnswer(json.RawMessage(c.json))
		wantField(t, c.json, err, c.field, c.want)
	}
}
