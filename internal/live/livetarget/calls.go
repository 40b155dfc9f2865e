package livetarget

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// Ops are the operations a case's steps are made with, each a call of one of the harness's tools
// as its profile's tools.calls says (agents.Tools.Calls).
var Ops = []string{"read", "write", "edit", "delete", "list", "mkdir", "mv", "commit", "shell", "recall", "patch"}

// vals are the values a call's placeholders are filled with; a value left unset is left out of
// the arguments (its member dropped).
type vals map[string]any

// makeCall is the call of operation op with its values, in the profile's shape, or why the
// profile cannot make it.
func makeCall(p *agents.Profile, op, id string, v vals) (wire.ToolCall, error) {
	sh, ok := p.Tools.Calls[op]
	if !ok && op == "read" && len(p.Tools.Read) > 0 {
		sh, ok = p.Tools.Read[0], true
	}
	if !ok {
		return wire.ToolCall{}, &noCall{profile: p.Name, op: op}
	}
	if sh.Input != "" {
		// A custom tool's free-form input (codex's exec, JavaScript): each value's text
		// JSON-escaped, to sit inside a string literal.
		return wire.ToolCall{ID: id, Name: sh.Name, Arguments: fillInput(sh.Input, v), Custom: true}, nil
	}
	args, err := fill(sh.Arguments, v)
	if err != nil {
		return wire.ToolCall{}, fmt.Errorf("the %s profile's %s call: %v", p.Name, op, err)
	}
	return wire.ToolCall{ID: id, Name: sh.Name, Arguments: args}, nil
}

// noCall is an operation the profile gives no call for: the case is not expressible.
type noCall struct{ profile, op string }

func (e *noCall) Error() string {
	return fmt.Sprintf("the %s profile gives no %s call (tools.calls.%s, docs/live.md)", e.profile, e.op, e.op)
}

// fill puts the values into a shape's arguments: a string that is exactly "{name}" becomes the
// value as JSON (a number stays a number; unset, the member goes), and "{name}" inside a longer
// string its text ({qname}: quoted for a POSIX shell). The values: path, content, old, new,
// command, id, files, and a read's window as offset (from 1), offset0 (from 0), limit, last.
func fill(shape json.RawMessage, v vals) (string, error) {
	var tmpl any
	dec := json.NewDecoder(bytes.NewReader(shape))
	dec.UseNumber()
	if err := dec.Decode(&tmpl); err != nil {
		return "", err
	}
	out, keep := fillValue(tmpl, v)
	if !keep {
		out = map[string]any{}
	}
	b, err := jsonx.Marshal(out)
	return string(b), err
}

func fillInput(in string, v vals) string {
	esc := func(s string) string {
		b, _ := jsonx.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	for k, val := range v {
		s := fmt.Sprint(val)
		in = strings.ReplaceAll(in, "{"+k+"}", esc(s))
		in = strings.ReplaceAll(in, "{q"+k+"}", esc("'"+strings.ReplaceAll(s, "'", `'\''`)+"'"))
	}
	return in
}

func fillValue(x any, v vals) (any, bool) {
	switch t := x.(type) {
	case string:
		if len(t) > 2 && t[0] == '{' && t[len(t)-1] == '}' && !strings.ContainsAny(t[1:len(t)-1], "{} ") {
			val, ok := v[t[1:len(t)-1]]
			return val, ok && val != nil
		}
		for k, val := range v {
			s := fmt.Sprint(val)
			t = strings.ReplaceAll(t, "{"+k+"}", s)
			t = strings.ReplaceAll(t, "{q"+k+"}", "'"+strings.ReplaceAll(s, "'", `'\''`)+"'")
		}
		return t, true
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if f, ok := fillValue(e, v); ok {
				out[k] = f
			}
		}
		return out, true
	case []any:
		var out []any
		for _, e := range t {
			if f, ok := fillValue(e, v); ok {
				out = append(out, f)
			}
		}
		return out, true
	}
	return x, true
}

// filler is the call a step that only needs some request to happen makes: a read of the file
// every session directory holds.
func filler(p *agents.Profile, id, path string) (script.Reply, error) {
	c, err := makeCall(p, "read", id, vals{"path": path})
	if err != nil {
		return script.Reply{}, err
	}
	return script.Reply{ToolCalls: []wire.ToolCall{c}}, nil
}
