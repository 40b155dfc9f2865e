package prefix

import (
	"encoding/json"
	"fmt"
	"sync"

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
// Each call's definitions are its own (Parameters too), decoded once per process.
func Definitions(names []string) ([]Definition, error) {
	out := make([]Definition, 0, len(names))
	for _, name := range names {
		d, ok := definitions()[name]
		if !ok {
			return nil, fmt.Errorf("tool %q: the vendored spec has no tools/%s.json", name, name)
		}
		if d.Parameters != nil {
			d.Parameters = copyJSON(d.Parameters).(map[string]any)
		}
		out = append(out, d)
	}
	return out, nil
}

// definitions are the vendored tools/*.json, by name.
var definitions = sync.OnceValue(func() map[string]Definition {
	out := map[string]Definition{}
	for name, t := range spec.Tools() {
		if !t.Whole {
			continue
		}
		b, err := spec.ReadFile("tools/" + name + ".json")
		if err != nil {
			panic(err)
		}
		var d Definition
		if err := json.Unmarshal(b, &d); err != nil {
			panic(fmt.Sprintf("harness/spec/files/tools/%s.json: %v", name, err))
		}
		out[name] = d
	}
	return out
})

// copyJSON is a decoded JSON value's deep copy.
func copyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = copyJSON(e)
		}
		return m
	case []any:
		if v == nil {
			return v
		}
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = copyJSON(e)
		}
		return l
	}
	return v
}
