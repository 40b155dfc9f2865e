package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type got struct {
	Kind string
	Path string
	Role string
	Raw  string
}

func summary(r *Request) []got {
	var out []got
	for _, p := range r.Parts() {
		out = append(out, got{p.Kind.String(), p.Path(), p.Role, string(p.Raw)})
	}
	return out
}

func TestParseShapes(t *testing.T) {
	for name, c := range map[string]struct {
		body       string
		api, model string
		want       []got
	}{
		"chat completions": {
			body: `{"model":"m","messages":[{"role":"system","content":"S"}, {"role":"developer","content":"D"},{"role":"user","content":"hi"},{"role":"system","content":"late"}],"tools":[{"type":"function","function":{"name":"read"}}],"stream":true}`,
			api:  ChatCompletions, model: "m",
			want: []got{
				{"system", "$.messages[0]", "system", `{"role":"system","content":"S"}`},
				{"system", "$.messages[1]", "developer", `{"role":"developer","content":"D"}`},
				{"tool", "$.tools[0]", "", `{"type":"function","function":{"name":"read"}}`},
				{"message", "$.messages[2]", "user", `{"role":"user","content":"hi"}`},
				// A system message after the conversation began is a message, not the prompt.
				{"message", "$.messages[3]", "system", `{"role":"system","content":"late"}`},
			},
		},
		"responses with items": {
			body: `{"model":"gpt","instructions":"be brief","input":[{"role":"user","content":"q"},{"type":"function_call","name":"f","arguments":"{}"}]}`,
			api:  Responses, model: "gpt",
			want: []got{
				{"system", "$.instructions", "system", `"be brief"`},
				{"message", "$.input[0]", "user", `{"role":"user","content":"q"}`},
				{"message", "$.input[1]", "", `{"type":"function_call","name":"f","arguments":"{}"}`},
			},
		},
		"responses with a string": {
			body: `{"input":"just this"}`,
			api:  Responses,
			want: []got{{"message", "$.input", "user", `"just this"`}},
		},
		"anthropic": {
			body: `{"model":"claude","system":[{"type":"text","text":"S"}],"messages":[{"role":"user","content":"x"}],"tools":[]}`,
			api:  Anthropic, model: "claude",
			want: []got{
				{"system", "$.system[0]", "system", `{"type":"text","text":"S"}`},
				{"message", "$.messages[0]", "user", `{"role":"user","content":"x"}`},
			},
		},
		"anthropic: tools come first, a string system, a system message inside messages": {
			body: `{"model":"claude","max_tokens":9,"system":"S","tools":[{"name":"Read","input_schema":{}}],"messages":[{"role":"user","content":"x"},{"role":"system","content":"late"}]}`,
			api:  Anthropic, model: "claude",
			want: []got{
				{"tool", "$.tools[0]", "", `{"name":"Read","input_schema":{}}`},
				{"system", "$.system", "system", `"S"`},
				{"message", "$.messages[0]", "user", `{"role":"user","content":"x"}`},
				{"message", "$.messages[1]", "system", `{"role":"system","content":"late"}`},
			},
		},
		"anthropic without system, told by its tools": {
			body: `{"model":"claude","tools":[{"name":"Read","input_schema":{}}],"messages":[{"role":"user","content":"x"}]}`,
			api:  Anthropic, model: "claude",
			want: []got{
				{"tool", "$.tools[0]", "", `{"name":"Read","input_schema":{}}`},
				{"message", "$.messages[0]", "user", `{"role":"user","content":"x"}`},
			},
		},
		"gemini": {
			body: `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{}}}]}],"systemInstruction":{"parts":[{"text":"S"}]},"tools":[{"functionDeclarations":[{"name":"a"},{"name":"b"}]},{"googleSearch":{}}]}`,
			api:  Gemini,
			want: []got{
				{"system", "$.systemInstruction", "system", `{"parts":[{"text":"S"}]}`},
				{"tool", "$.tools[0].functionDeclarations[0]", "", `{"name":"a"}`},
				{"tool", "$.tools[0].functionDeclarations[1]", "", `{"name":"b"}`},
				{"tool", "$.tools[1]", "", `{"googleSearch":{}}`},
				{"message", "$.contents[0]", "user", `{"role":"user","parts":[{"text":"hi"}]}`},
				{"message", "$.contents[1]", "model", `{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{}}}]}`},
			},
		},
		"whitespace and escapes kept": {
			body: `{ "messages" : [ {"role":"user","content":"a \"q\" \\ b"} ] , "model":"m\u0031"}`,
			api:  ChatCompletions, model: "m1",
			want: []got{{"message", "$.messages[0]", "user", `{"role":"user","content":"a \"q\" \\ b"}`}},
		},
		// A key is read as it decodes: escapes in the members the cut reads, and in the tools of
		// Anthropic's shape (told by their first element), are no other keys.
		"escaped keys": {
			body: `{"mod\u0065l":"m","messag\u0065s":[{"role":"user","content":"hi"}],"t\u006fols":[{"name":"read","input_schema":{}},{"x":[1,2]}]}`,
			api:  Anthropic, model: "m",
			want: []got{
				{"tool", "$.tools[0]", "", `{"name":"read","input_schema":{}}`},
				{"tool", "$.tools[1]", "", `{"x":[1,2]}`},
				{"message", "$.messages[0]", "user", `{"role":"user","content":"hi"}`},
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := Parse([]byte(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if r.API != c.api || r.Model != c.model {
				t.Errorf("api %q model %q, want %q %q", r.API, r.Model, c.api, c.model)
			}
			if d := cmp.Diff(c.want, summary(r)); d != "" {
				t.Errorf("parts (-want +got):\n%s", d)
			}
			// The fake's decoding cuts the body from its split (SplitTop, or SplitValid that
			// checks it too): the same parts.
			top, err := SplitTop([]byte(c.body))
			if err != nil {
				t.Fatal(err)
			}
			valid, ok := SplitValid([]byte(c.body))
			if !ok {
				t.Fatal("SplitValid refused a valid body")
			}
			for name, top := range map[string]*Top{"SplitTop": top, "SplitValid": valid} {
				if r2, err := top.Parse(""); err != nil || r2.API != c.api || r2.Model != c.model {
					t.Errorf("%s: %v", name, err)
				} else if d := cmp.Diff(c.want, summary(r2)); d != "" {
					t.Errorf("%s's parts (-want +got):\n%s", name, d)
				}
			}
			for _, p := range r.Parts() {
				if got := c.body[p.Off : p.Off+len(p.Raw)]; got != string(p.Raw) {
					t.Errorf("%s: Off %d points at %q", p.Path(), p.Off, got)
				}
			}
		})
	}
}

func TestParseErrorsSayWhat(t *testing.T) {
	for body, want := range map[string]string{
		`[1]`:                                  "must be a JSON object",
		`{"model":"m"}`:                        `needs "messages"`,
		`{"messages":{"role":"user"}}`:         `"messages" must be an array`,
		`{"messages":[{"role":"user"},]}`:      "offset 29",
		`{"messages":[],"tools":{"a":1}}`:      `"tools" must be an array`,
		`{"messages":[{"role":"user","content`: "unterminated",
		`{"messages":[]} x`:                    "more after",
	} {
		_, err := Parse([]byte(body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to say %q", body, err, want)
		}
	}
}

func TestPathAt(t *testing.T) {
	raw := []byte(`{"role":"tool","content":[{"type":"text","text":"hello"}],"a b":{"x":[1,22]}}`)
	for needle, want := range map[string]string{
		`hello`:  `.content[0].text`,
		`22`:     `["a b"].x[1]`,
		`tool`:   `.role`,
		`"role"`: ``,
	} {
		off := bytes.Index(raw, []byte(needle))
		if got := PathAt(raw, off); got != want {
			t.Errorf("PathAt(%q) = %q, want %q", needle, got, want)
		}
	}
	if got := PathAt(raw, len(raw)); got != "" {
		t.Errorf("past the end: %q", got)
	}
}

func TestMembersAndElements(t *testing.T) {
	keys, vals, err := Members([]byte(` {"a":1, "b\u0021":[2]} `))
	if err != nil || !reflect.DeepEqual(keys, []string{"a", "b!"}) || string(vals[1]) != "[2]" {
		t.Fatalf("%v %q %v", keys, vals, err)
	}
	els, err := Elements([]byte(`[1, {"x":"]"}, "s"]`))
	if err != nil || len(els) != 3 || string(els[1]) != `{"x":"]"}` {
		t.Fatalf("%q %v", els, err)
	}
	if _, _, err := Members([]byte(`{"a":1} {}`)); err == nil {
		t.Error("two objects read as one")
	}
}

// FuzzParse checks the scanner against encoding/json: on any body it never panics, and on a body
// encoding/json accepts, the parts are exactly the values encoding/json finds, in the same places.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":"hi"}],"tools":[{"a":1}]}`,
		`{"input":[{"role":"developer","content":"x"},{"type":"function_call"}],"instructions":"i"}`,
		`{"system":"s","messages":[{"role":"user","content":[{"type":"text","text":"\"q\\"}]}]}`,
		`{"messages":[1,"two",null,true,[3],{"role":5}]}`,
		`{"messages":[{"role":"us\u0065r"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := Parse(body)
		var whole map[string]json.RawMessage
		if json.Unmarshal(body, &whole) != nil {
			return // invalid JSON: Parse may reject it or read its structure; it must not panic
		}
		_, hasMsgs := whole["messages"]
		_, hasInput := whole["input"]
		if !hasMsgs && !hasInput {
			if err == nil {
				t.Fatalf("accepted a body with neither messages nor input")
			}
			return
		}
		if err != nil {
			if isArrayOrStr(whole["messages"], whole["input"], hasMsgs) && toolsOK(whole["tools"]) {
				t.Fatalf("rejected valid body: %v", err)
			}
			return
		}
		var want []json.RawMessage
		field := "messages"
		if !hasMsgs {
			field = "input"
		}
		if r.API == Anthropic {
			if s := whole["system"]; string(s) != "null" {
				want = append(want, s)
			}
		}
		if r.API == Responses {
			if s, ok := whole["instructions"]; ok && string(s) != "null" {
				want = append(want, s)
			}
		}
		var els []json.RawMessage
		if v := whole[field]; len(v) > 0 && v[0] == '"' {
			els = []json.RawMessage{v}
		} else if json.Unmarshal(v, &els) != nil {
			t.Fatalf("%s is not an array but was accepted", field)
		}
		var tools []json.RawMessage
		if v, ok := whole["tools"]; ok && string(v) != "null" {
			json.Unmarshal(v, &tools)
		}
		parts := r.Parts()
		// Parts are system parts, then tools, then messages: rebuild the same order from encoding/json.
		ns := len(r.System) - len(want)
		want = append(want, els[:ns]...)
		want = append(want, tools...)
		want = append(want, els[ns:]...)
		if len(parts) != len(want) {
			t.Fatalf("%d parts, encoding/json finds %d", len(parts), len(want))
		}
		for i := range parts {
			if !bytes.Equal(parts[i].Raw, bytes.TrimSpace(want[i])) {
				t.Fatalf("part %d (%s) = %q, encoding/json: %q", i, parts[i].Path(), parts[i].Raw, want[i])
			}
			if o := parts[i].Off; !bytes.Equal(body[o:o+len(parts[i].Raw)], parts[i].Raw) {
				t.Fatalf("part %d: Off %d does not point at its bytes", i, o)
			}
			var v any
			if json.Unmarshal(parts[i].Raw, &v) != nil {
				t.Fatalf("part %d is not JSON: %q", i, parts[i].Raw)
			}
		}
	})
}

func isArrayOrStr(msgs, input json.RawMessage, hasMsgs bool) bool {
	v := input
	if hasMsgs {
		v = msgs
	}
	v = bytes.TrimSpace(v)
	return len(v) > 0 && (v[0] == '[' || !hasMsgs && v[0] == '"')
}

func toolsOK(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) == 0 || v[0] == '[' || string(v) == "null"
}

// FuzzPathAt checks PathAt never panics and names a path that exists in the value.
func FuzzPathAt(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c"}],"d e":null}`), 9)
	f.Add([]byte(`[[[]],"x"]`), 3)
	f.Fuzz(func(t *testing.T, raw []byte, off int) {
		p := PathAt(raw, off)
		if !json.Valid(raw) || p == "" {
			return
		}
		if !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "[") {
			t.Fatalf("path %q", p)
		}
	})
}

// SplitValid splits a valid object as SplitTop does, and refuses what encoding/json refuses.
func FuzzSplitValidIsSplitTop(f *testing.F) {
	for _, s := range []string{`{"model":"m","messages":[{"role":"user","content":"hi"}]}`, `{}`, ` {"a" : [1, {"b":"\u00e9"}] } `,
		`[1]`, `{"a":1,}`, `{"a":"\q"}`, `{"a":1} x`, "{\"a\":\"\x01\"}", `{"\ud800":1}`, `"s"`} {
		f.Add([]byte(s))
	}
	// Both stop at encoding/json's nesting limit, 10,000.
	for n := 9998; n <= 10001; n++ {
		f.Add([]byte(`{"a":` + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + `}`))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := SplitValid(b)
		var obj map[string]json.RawMessage
		isObject := json.Valid(b) && json.Unmarshal(b, &obj) == nil && obj != nil
		want, err := SplitTop(b)
		switch {
		case ok != (isObject && err == nil):
			t.Fatalf("SplitValid(%q) ok %v; encoding/json object %v, SplitTop error %v", b, ok, isObject, err)
		case ok && (!slices.Equal(got.Keys, want.Keys) || !slices.Equal(got.Spans, want.Spans)):
			t.Fatalf("SplitValid(%q) = %q %v, SplitTop %q %v", b, got.Keys, got.Spans, want.Keys, want.Spans)
		}
	})
}

// A raw key reads as encoding/json decodes it; one that does not decode is nil, an empty one
// is not.
func TestKeyText(t *testing.T) {
	for raw, want := range map[string]string{`"role"`: "role", `"r\u006fle"`: "role", `""`: "", `"\"q"`: `"q`} {
		if got := KeyText([]byte(raw)); got == nil || string(got) != want || !keyIs([]byte(raw), want) {
			t.Errorf("KeyText(%s) = %q (nil %v), want %q", raw, got, got == nil, want)
		}
	}
	for _, raw := range []string{`"\q"`, `"`, ``} {
		if got := KeyText([]byte(raw)); got != nil {
			t.Errorf("KeyText(%s) = %q, want nil", raw, got)
		}
	}
}
