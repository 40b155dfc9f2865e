package kitgen

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "write the kits' generated types again")

// The kits' checked-in types are what the areas' schemas make now: a field added to an area's
// Go type shows here until `go test ./adapters/kitgen -update` writes them again.
func TestKitTypesFresh(t *testing.T) {
	for path, want := range map[string]string{
		"../typescript/types.d.ts":              TypeScript(),
		"../python/lembas_adapter/types.py":     Python(),
		"../typescript/schemas.json":            Schemas(),
		"../python/lembas_adapter/schemas.json": Schemas(),
	} {
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is stale (or missing: %v): run go test ./adapters/kitgen -update and commit it", path, err)
		}
	}
}
