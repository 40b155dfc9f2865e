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
// Each call's definitions are its own, made from the table `go generate` wrote of the tools'
// files (decoded.go; TestDecodedIsRead holds it to what they decode to).
func Definitions(names []string) ([]Definition, error) {
	out := make([]Definition, 0, len(names))
	for _, name := range names {
		d, ok := decodedDefinition(name)
		if !ok {
			return nil, fmt.Errorf("tool %q: the vendored spec has no tools/%s.json", name, name)
		}
		out = append(out, d)
	}
	return out, nil
}

// readDefinition decodes tools/<name>.json, which decoded.go is made of.
func readDefinition(name string) (Definition, error) {
	if t, ok := spec.Tools()[name]; !ok || !t.Whole {
		return Definition{}, fmt.Errorf("tool %q: the vendored spec has no tools/%s.json", name, name)
	}
	b, err := spec.ReadFile("tools/" + name + ".json")
	if err != nil {
		return Definition{}, err
	}
	var d Definition
	if err := json.Unmarshal(b, &d); err != nil {
		return Definition{}, fmt.Errorf("tools/%s.json: %v", name, err)
	}
	return d, nil
}
