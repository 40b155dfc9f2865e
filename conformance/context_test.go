package conformance

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// contextCaseFiles are the spec's context cases and lembas-check's own, as files.
func contextCaseFiles(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, fsys := range map[string]fs.FS{"spec": spec.Conformance(), "lembas-check": ownCasesFS(t)} {
		b, err := fs.ReadFile(fsys, "context.json")
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

// The context cases load and the reference answers them, apart from the other areas' files
// (TestReference runs them all).
func TestContextCases(t *testing.T) {
	for name, b := range contextCaseFiles(t) {
		cases, err := ParseFile(name, b, Context)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) < 8 {
			t.Errorf("%s: %d context cases", name, len(cases))
		}
		for _, c := range cases {
			if name == "lembas-check" && !strings.Contains(c.About, "`") {
				t.Errorf("%s: the case's about quotes no rule: %q", c.Where(), c.About)
			}
			got, err := Context.Reference(c.Decoded)
			if err != nil {
				t.Errorf("%s: %v", c.Where(), err)
				continue
			}
			b, _ := json.Marshal(got)
			if d := Diff(c.Expect, b); d != "" {
				t.Errorf("%s (-want +got)\n%s", c.Where(), d)
			}
		}
	}
}

func TestContextValidate(t *testing.T) {
	read := `{"op":"read","id":"#0001","path":"a","content":"a\n"}`
	six := `"max_lines":1,"max_chars":1,"head_lines":1,"head_chars":1,"tail_lines":1`
	for _, c := range []struct {
		name, json, field string
	}{
		{"no steps", `{"steps":[]}`, "steps"},
		{"an unknown op", `{"steps":[` + read + `,{"op":"redo"}]}`, "steps[1].op"},
		{"a rewind of no turn", `{"steps":[` + read + `,{"op":"rewind","turns":0}]}`, "steps[1].turns"},
		{"a rewind without turns", `{"steps":[` + read + `,{"op":"rewind"}]}`, "steps[1].turns"},
		{"an undo with turns", `{"steps":[` + read + `,{"op":"undo","turns":1}]}`, "steps[1].turns"},
		{"a rewind past the start", `{"steps":[` + read + `,{"op":"turn"},{"op":"rewind","turns":3}]}`,
			"steps[2].turns"},
		{"a rewind into a summary", `{"steps":[` + read + `,{"op":"turn"},{"op":"compact"},{"op":"rewind","turns":2}]}`,
			"steps[3].turns"},
		{"an undo after undoing the first turn", `{"steps":[` + read + `,{"op":"undo"},{"op":"undo"},` +
			`{"op":"rewind","turns":2}]}`, "steps[3].turns"},
		{"a summary of no kind", `{"steps":[` + read + `,{"op":"compact","summary":"none"}]}`, "steps[1].summary"},
		{"a summary on a read", `{"steps":[{"op":"read","id":"#0001","path":"a","content":"","summary":"text"}]}`,
			"steps[0].summary"},
		{"a read without content", `{"steps":[{"op":"read","id":"#0001","path":"a"}]}`, "steps[0].content"},
		{"a reply with an id", `{"steps":[{"op":"reply","id":"#0001"}]}`, "steps[0].id"},
		{"a compact with a path", `{"steps":[{"op":"compact","path":"a"}]}`, "steps[0].path"},
		{"a recall with a path", `{"steps":[{"op":"recall","id":"#0001","target":"#0002","path":"a"}]}`, "steps[0].path"},
		{"an output without args", `{"steps":[{"op":"output","id":"#0001","tool":"bash","text":"x"}]}`, "steps[0].args"},
		{"args that are not an object", `{"steps":[{"op":"output","id":"#0001","tool":"bash","args":["ls"],"text":"x"}]}`, "steps[0].args"},
		{"args null", `{"steps":[{"op":"output","id":"#0001","tool":"bash","args":null,"text":"x"}]}`, "steps[0].args"},
		{"a patch without files", `{"steps":[{"op":"apply_patch","id":"#0001"}]}`, "steps[0].files"},
		{"a patch of no file", `{"steps":[{"op":"apply_patch","id":"#0001","files":[]}]}`, "steps[0].files"},
		{"a patch's file without a path", `{"steps":[{"op":"apply_patch","id":"#0001","files":[{"after":"x"}]}]}`, "steps[0].files[0].path"},
		{"a patch's file neither made, changed nor deleted", `{"steps":[{"op":"apply_patch","id":"#0001","files":[{"path":"a"}]}]}`, "steps[0].files[0]"},
		{"a patch's file with a field of its own", `{"steps":[{"op":"apply_patch","id":"#0001","files":[{"path":"a","after":"x","mode":"644"}]}]}`, "mode"},
		{"a patch with a path", `{"steps":[{"op":"apply_patch","id":"#0001","path":"a","files":[{"path":"a","after":"x"}]}]}`, "steps[0].path"},
		{"an output of apply_patch", `{"steps":[{"op":"output","id":"#0001","tool":"apply_patch","args":{},"text":"x"}]}`, "steps[0].tool"},
		{"an output of a tool with its own step", `{"steps":[{"op":"output","id":"#0001","tool":"read","args":{},"text":"x"}]}`, "steps[0].tool"},
		{"an id that is not one", `{"steps":[{"op":"read","id":"#00001","path":"a","content":""}]}`, "steps[0].id"},
		{"an id in capitals", `{"steps":[{"op":"read","id":"#A001","path":"a","content":""}]}`, "steps[0].id"},
		{"an id reused", `{"steps":[` + read + `,` + read + `]}`, "steps[1].id"},
		{"an empty path", `{"steps":[{"op":"delete","id":"#0001","path":""}]}`, "steps[0].path"},
		{"offset 0", `{"steps":[{"op":"read","id":"#0001","path":"a","content":"a\n","offset":0}]}`, "steps[0].offset"},
		{"limit 0", `{"steps":[{"op":"recall","id":"#0001","target":"#0002","limit":0}]}`, "steps[0].limit"},
		{"an offset past the file", `{"steps":[{"op":"read","id":"#0001","path":"a","content":"a\nb","offset":3}]}`, "steps[0].offset"},
		{"an empty target", `{"steps":[{"op":"recall","id":"#0001","target":"#"}]}`, "steps[0].target"},
		{"limits missing one", `{"limits":{` + six + `},"steps":[` + read + `]}`, "limits.tail_chars"},
		{"limits of 0", `{"limits":{` + six + `,"tail_chars":0},"steps":[` + read + `]}`, "limits.tail_chars"},
		{"a relative cwd", `{"cwd":"proj","steps":[` + read + `]}`, "cwd"},
		{"an unknown field", `{"steps":[{"op":"read","id":"#0001","path":"a","content":"","mode":"x"}]}`, "mode"},
		{"a field of the wrong type", `{"steps":[{"op":"read","id":"#0001","path":"a","content":"","offset":"1"}]}`, "steps.offset"},
	} {
		_, err := Context.Decode(json.RawMessage(c.json))
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a field error", c.name, err)
			continue
		}
		if fe.Field != c.field {
			t.Errorf("%s: field %q (%s), want %q", c.name, fe.Field, fe.Msg, c.field)
		}
	}
	for _, ok := range []string{
		`{"steps":[{"op":"reply"}]}`,
		`{"steps":[{"op":"read","id":"#0001","path":"e","content":"","offset":1}]}`,
		`{"steps":[{"op":"edit","id":"#0001","path":"a","after":"x"}]}`,
		`{"cwd":"/","steps":[{"op":"output","id":"#10000","tool":"list","args":{},"text":""}]}`,
	} {
		if _, err := Context.Decode(json.RawMessage(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

func TestContextAnswerShape(t *testing.T) {
	for _, bad := range []string{`null`, `{"text":"x"}`, `"x"`, `[1]`, `[null]`} {
		if _, err := Context.DecodeAnswer(json.RawMessage(bad)); err == nil {
			t.Errorf("answer %s: no error", bad)
		}
	}
	c, err := Context.Decode(json.RawMessage(`{"steps":[{"op":"reply"},{"op":"compact"},{"op":"recall","id":"#0001","target":"ffff"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Context.Reference(c)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if want := `["","","[#0001] No stored result #ffff in this session."]`; string(b) != want {
		t.Errorf("answer %s, want %s", b, want)
	}
	if _, err := Context.DecodeAnswer(b); err != nil {
		t.Errorf("the reference's answer does not decode as one: %v", err)
	}
}

// A case the spec gives no answer for is an error of the reference, not a wrong answer.
func TestContextReferenceRefuses(t *testing.T) {
	for _, c := range []string{
		`{"steps":[{"op":"output","id":"#0001","tool":"bash","args":{},"text":"a\nb"},{"op":"recall","id":"#0002","target":"#0001","offset":3}]}`,
		`{"steps":[{"op":"delete","id":"#0001","path":"a"},{"op":"recall","id":"#0002","target":"#0001"}]}`,
	} {
		d, err := Context.Decode(json.RawMessage(c))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Context.Reference(d); err == nil || !strings.Contains(err.Error(), "steps[1]") {
			t.Errorf("%s: %v, %v; want an error naming steps[1]", c, got, err)
		}
	}
}
