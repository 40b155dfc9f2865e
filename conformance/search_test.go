package conformance

import (
	"encoding/json"
	"testing"
)

// brokenGreps are grep references each with one rule broken; every grep case must fail one.
var brokenGreps = map[string]func(c searchCase) searchCase{
	"the view ignored": func(c searchCase) searchCase {
		c.Grants = map[string]string{"/": "ro"}
		return c
	},
	"text read as a pattern": func(c searchCase) searchCase {
		c.Pattern = true
		return c
	},
	"a pattern read as text": func(c searchCase) searchCase {
		c.Pattern = false
		return c
	},
}

func TestGrepCasesFailABrokenGrep(t *testing.T) {
	cases, err := Load(EmbeddedSuites(), All())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		sc, ok := c.Decoded.(searchCase)
		if !ok || sc.Grep == nil {
			continue
		}
		n++
		failed := false
		for _, broken := range brokenGreps {
			got, err := answerSearch(broken(sc))
			b, _ := json.Marshal(got)
			failed = failed || err != nil || Diff(c.Expect, b) != ""
		}
		if !failed {
			t.Errorf("%s (%s) passes every broken grep", c.ID, c.About)
		}
	}
	if n < 4 {
		t.Errorf("%d grep cases, want the 4 of cases/search.json at least", n)
	}
}

func TestGrepRefusesMalformedCases(t *testing.T) {
	const base = `"tree": ["/a.md"], "passages": []`
	for _, c := range []struct{ name, json, field, want string }{
		{"pattern alone", `{` + base + `, "pattern": true}`, "pattern", "is grep's"},
		{"empty", `{` + base + `, "grep": ""}`, "grep", "empty"},
		{"limit", `{` + base + `, "grep": "x", "limit": 3}`, "limit", "is search's"},
		{"bad pattern", `{` + base + `, "grep": "(", "pattern": true}`, "grep", "not a pattern"},
	} {
		_, err := Search.Decode(json.RawMessage(c.json))
		wantField(t, c.name, err, c.field, c.want)
	}
	_, err := Search.DecodeAnswer(json.RawMessage(`{"matches": [], "results": []}`))
	wantField(t, "two answers", err, "", "or {\"error\"")
}
