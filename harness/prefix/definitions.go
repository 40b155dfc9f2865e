package prefix

import (
	"encoding/json"
	"fmt"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Definition is a tool as the model is offered it in every request's tool list (context.md §10:
// the tool list comes right after the system prompt, so its bytes are the prefix too): the name,
// the description and the parameters of the vendored tools/<name>.json, as written there.
type Definition struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// Definitions are the named tools' definitions, in the order given. A tool the vendored spec
// does not carry whole (only its requires, from extra/) has no definition to offer: an error.
func Definitions(names []string) ([]Definition, error) {
	out := make([]Definition, 0, len(names))
	for _, name := range names {
		t, ok := spec.Tools()[name]
		if !ok || !t.Whole {
			return nil, fmt.Errorf("tool %q: the vendored spec has no tools/%s.json", name, name)
		}
		b, err := spec.ReadFile("tools/" + name + ".json")
		if err != nil {
			return nil, err
		}
		var d Definition
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("tools/%s.json: %v", name, err)
		}
		out = append(out, d)
	}
	return out, nil
}
