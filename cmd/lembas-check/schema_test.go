package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
)

// `schema AREA` prints the area's draft 2020-12 document; `schema` every area's; an unknown area
// is exit 2, naming the areas there are.
func TestSchemaCommand(t *testing.T) {
	code, out, _ := runCLI(t, "schema", "jobs")
	var doc struct {
		Schema string `json:"$schema"`
		Defs   map[string]struct {
			Properties map[string]struct{ Type any }
		} `json:"$defs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("schema jobs: exit %d, %v\n%s", code, err, out)
	}
	if doc.Schema != "https://json-schema.org/draft/2020-12/schema" || doc.Defs["answer"].Properties["text"].Type != "string" || doc.Defs["case"].Properties["kind"].Type != "string" {
		t.Errorf("schema jobs:\n%s", out)
	}
	code, out, _ = runCLI(t, "schema")
	var all map[string]any
	if err := json.Unmarshal([]byte(out), &all); code != 0 || err != nil || len(all) != len(conformance.All()) {
		t.Errorf("schema: exit %d, %d areas, %v", code, len(all), err)
	}
	code, _, errs := runCLI(t, "schema", "nope")
	if code != 2 || !strings.Contains(errs, `no area "nope"; the areas are chunk, chunk_tokens,`) {
		t.Errorf("schema nope: exit %d, %q", code, errs)
	}
}
