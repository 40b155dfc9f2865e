package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

var updateShapes = flag.Bool("update-shapes", false, "rewrite the generated shapes in docs/areas.md from the schemas")

const areasDoc = "../docs/areas.md"

// shapeBlock is the markdown of an area's case and answer fields, from its JSON Schema: what
// docs/areas.md shows between the area's markers.
func shapeBlock(a Area) string {
	raw, err := json.Marshal(a.Schema())
	if err != nil {
		panic(err)
	}
	var doc struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The fields, from the area's JSON Schema (`lembas-check schema %s`); the rules above say what "+
		"each value may be, and when a case needs a field.\n\n", a.Name)
	for _, side := range []string{"case", "answer"} {
		fmt.Fprintf(&b, "| %s field | type | required |\n|---|---|---|\n", side)
		def := doc.Defs[side].(map[string]any)
		rows := fieldRows("", def)
		if len(rows) == 0 {
			// An answer that is not an object (a list, a list of objects) is said as a whole, its
			// items' fields after it.
			rows = [][3]string{{"(the whole " + side + ")", typeText(def), "yes"}}
			if it, ok := def["items"].(map[string]any); ok && it["properties"] != nil {
				rows = append(rows, fieldRows("[].", it)...)
			}
		}
		for _, r := range rows {
			name := "`" + r[0] + "`"
			if strings.HasPrefix(r[0], "(") {
				name = r[0]
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", name, r[1], r[2])
		}
		if side == "case" {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// fieldRows are an object schema's fields, each object or array of objects within it followed by
// its own fields (`steps[].tool`), in name order.
func fieldRows(prefix string, s map[string]any) [][3]string {
	props, _ := s["properties"].(map[string]any)
	var required []string
	for _, r := range asList(s["required"]) {
		required = append(required, r.(string))
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var out [][3]string
	for _, n := range names {
		p := props[n].(map[string]any)
		req := "no"
		if slices.Contains(required, n) {
			req = "yes"
		}
		out = append(out, [3]string{prefix + n, typeText(p), req})
		if _, ok := p["properties"]; ok {
			out = append(out, fieldRows(prefix+n+".", p)...)
		} else if it, ok := p["items"].(map[string]any); ok && it["properties"] != nil {
			out = append(out, fieldRows(prefix+n+"[].", it)...)
		}
	}
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// typeText is a schema's type in words: `string`, `integer, or null`, `array of string`, `map of
// (string or null)`, `object`, `any`.
func typeText(s map[string]any) string {
	var types []string
	null := false
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if x == "null" {
				null = true
				continue
			}
			types = append(types, x.(string))
		}
	}
	if len(types) == 0 {
		if d, ok := s["description"].(string); ok {
			return d
		}
		return "any"
	}
	for i, t := range types {
		switch {
		case t == "array":
			it, _ := s["items"].(map[string]any)
			if it["properties"] != nil {
				types[i] = "array of objects"
			} else if _, typed := it["type"]; !typed && it["description"] != nil {
				types[i] = "array, each item " + typeText(it)
			} else {
				types[i] = "array of " + inner(typeText(it))
			}
		case t == "object" && s["properties"] == nil:
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				types[i] = "map of " + inner(typeText(ap))
			}
		}
	}
	out := strings.Join(types, " or ")
	if null {
		out += ", or null"
	}
	return out
}

// inner is a type as a part of another's words, in brackets when it has more than one word.
func inner(t string) string {
	if strings.Contains(t, " or ") {
		return "(" + strings.ReplaceAll(t, ", or null", " or null") + ")"
	}
	return t
}

// shapeRE finds an area's generated block in docs/areas.md: its begin marker, its text, its end.
func shapeRE(area string) *regexp.Regexp {
	q := regexp.QuoteMeta(area)
	return regexp.MustCompile(`(?s)(<!-- shape ` + q + `: generated[^\n]*-->\n).*?(<!-- end shape ` + q + ` -->)`)
}

// The shapes docs/areas.md shows for each area are its schema's, as generated: a field added to
// an area's Go type (and so to its schema) fails this test until the doc is regenerated with
// `go test ./conformance -run TestDocShapes -update-shapes`.
func TestDocShapes(t *testing.T) {
	b, err := os.ReadFile(areasDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, a := range All() {
		re := shapeRE(a.Name)
		m := re.FindStringSubmatchIndex(doc)
		if m == nil {
			t.Errorf("docs/areas.md has no generated shape of %s: put `<!-- shape %s: generated from its JSON Schema "+
				"by go test ./conformance -run TestDocShapes -update-shapes -->` and `<!-- end shape %s -->` in its "+
				"section, then run that", a.Name, a.Name, a.Name)
			continue
		}
		want := shapeBlock(a)
		if got := doc[m[3]:m[4]]; got != want {
			if *updateShapes {
				doc = doc[:m[3]] + want + doc[m[4]:]
				continue
			}
			t.Errorf("docs/areas.md: the shape of %s is stale: go test ./conformance -run TestDocShapes -update-shapes\n"+
				"want:\n%s\ngot:\n%s", a.Name, want, got)
		}
	}
	if *updateShapes && doc != string(b) {
		if err := os.WriteFile(areasDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
