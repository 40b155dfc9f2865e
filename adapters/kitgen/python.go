package kitgen

import (
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
)

// pyGen collects the TypedDicts a schema needs, nested objects first (a TypedDict names its
// fields' types, so each object is a class of its own).
type pyGen struct {
	defs []string
}

// Python is the kit's types.py: a TypedDict (or alias) per area's case and answer, and Handlers.
// The functional form takes any key (a case has "from"); NotRequired marks a field that may be
// left out.
func Python() string {
	g := &pyGen{}
	var handlers []string
	for _, a := range conformance.All() {
		defs := a.Schema()["$defs"].(map[string]any)
		n := pascal(a.Name)
		g.alias(n+"Case", defs["case"].(map[string]any))
		g.alias(n+"Answer", defs["answer"].(map[string]any))
		handlers = append(handlers, fmt.Sprintf("    %q: NotRequired[Callable[[%sCase], %sAnswer]],", a.Name, n, n))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", header)
	b.WriteString(`"""The areas' case and answer types, for a type checker (mypy, pyright)."""

import sys
from typing import Any, Callable, Dict, List, Optional, TypedDict, Union

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # the marks are for type checkers only: at run time a field's type is the type itself

    class NotRequired:
        def __class_getitem__(cls, item):
            return item

`)
	for _, d := range g.defs {
		b.WriteString("\n" + d + "\n")
	}
	fmt.Fprintf(&b,
		"\n# One handler per area; an area without one is answered skip.\nHandlers = TypedDict(\"Handlers\", "+
			"{\n%s\n})\n", strings.Join(handlers, "\n"))
	return b.String()
}

func (g *pyGen) alias(name string, s map[string]any) {
	t := g.typ(name, s)
	if t != name {
		g.defs = append(g.defs, name+" = "+t)
	}
}

func (g *pyGen) typ(name string, s map[string]any) string {
	ts := types(s)
	if len(ts) == 0 {
		return "Any"
	}
	var alts []string
	null := false
	for _, t := range ts {
		switch t {
		case "string":
			alts = append(alts, "str")
		case "boolean":
			alts = append(alts, "bool")
		case "integer":
			alts = append(alts, "int")
		case "number":
			alts = append(alts, "float")
		case "null":
			null = true
		case "array":
			alts = append(alts, "List["+g.typ(name+"Item", s["items"].(map[string]any))+"]")
		case "object":
			alts = append(alts, g.object(name, s))
		}
	}
	out := alts[0]
	if len(alts) > 1 {
		out = "Union[" + strings.Join(alts, ", ") + "]"
	}
	if null {
		out = "Optional[" + out + "]"
	}
	return out
}

func (g *pyGen) object(name string, s map[string]any) string {
	if extra, ok := s["additionalProperties"].(map[string]any); ok {
		return "Dict[str, " + g.typ(name+"Value", extra) + "]"
	}
	names, p, req := props(s)
	var fields []string
	for _, k := range names {
		t := g.typ(name+pascal(k), p[k].(map[string]any))
		if !req[k] {
			t = "NotRequired[" + t + "]"
		}
		fields = append(fields, fmt.Sprintf("    %q: %s,", k, t))
	}
	g.defs = append(g.defs, fmt.Sprintf("%s = TypedDict(%q, {\n%s\n})", name, name, strings.Join(fields, "\n")))
	return name
}
