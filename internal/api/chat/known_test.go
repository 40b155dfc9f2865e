package chat

import (
	"fmt"
	"reflect"
	"testing"
)

// knownPairs are a request and the one after it: the history grown, a message rewritten in the
// middle, the tools changed, a body whose bytes after the prefix move a value's start into a
// string, a compaction, a Responses body, bodies that share nothing.
var knownPairs = [][2]string{
	{`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"a"}],` +
		`"tools":[{"type":"function","function":{"name":"t"}}]}`,
		`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"a"},` +
			`{"role":"assistant","content":"b"},{"role":"user","content":"c"}],` +
			`"tools":[{"type":"function","function":{"name":"t"}}]}`},
	{`{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},` +
		`{"role":"user","content":"c"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"B!"},` +
			`{"role":"user","content":"c"}]}`},
	{`{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"name":"x"},{"name":"y"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"name":"x"},{"name":"z"},{"name":"y"}]}`},
	{`{"model":"m","messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"a\",{\"role\":\"user\",\"content\":\"b"}]}`},
	{`{"model":"m","messages":[{"role":"user","content":"x"},{"role":"user","content":"b"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"[1,{\"role\":\"user\",\"content\":\"b"},` +
			`{"role":"user","content":"b"}]}`},
	{`{"model":"m","messages":[{"role":"developer","content":"d"},{"role":"user","content":"a"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"summary"}]}`},
	{`{"model":"m","instructions":"i","input":[{"role":"user","content":"a"}]}`,
		`{"model":"m","instructions":"i","input":[{"role":"user","content":"a"},{"type":"function_call","name":"f"}]}`},
	{`{"model":"m","instructions":"i","input":"a"}`, `{"model":"m","instructions":"i","input":"ab"}`},
	{`{"model":"m","messages":[{"role":"user","content":"a"}]}`, `{"messages":[{"role":"user","content":"z"}],"x":1}`},
	{`{"model":"m","messages":[{"role":"user","content":"a"}]}`, `{"model":"m","messages":[{"role":"user","content":"a"}`},
}

// ParsePathKnown cuts a request as ParsePath does, whatever the request before it was.
func TestParsePathKnownIsParsePath(t *testing.T) {
	for i, pair := range knownPairs {
		for _, path := range []string{"/v1/chat/completions", "/v1/responses", ""} {
			t.Run(fmt.Sprintf("%d%s", i, path), func(t *testing.T) { sameWithKnown(t, path, pair[0], pair[1]) })
		}
	}
}

func sameWithKnown(t *testing.T, path, prev, cur string) {
	t.Helper()
	p, err := ParsePath(path, []byte(prev))
	if err != nil {
		return
	}
	k := Know(p, p.Parts(), []byte(prev), []byte(cur))
	got, gerr := ParsePathKnown(path, []byte(cur), k)
	want, werr := ParsePath(path, []byte(cur))
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("error %v, ParsePath's %v", gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cut\n%+v\nParsePath\n%+v", got, want)
	}
	if got == nil {
		return
	}
	prevParts := p.Parts()
	for _, part := range got.Parts() {
		if j := k.Was(part); j >= 0 {
			if pp := prevParts[j]; pp.Kind != part.Kind || string(pp.Content()) != string(part.Content()) {
				t.Fatalf("Was(%s) is %s, another part", part.Path(), pp.Path())
			}
		}
	}
}

// A grown history is jumped over, not scanned: the parts it resends are known.
func TestKnownJumpsTheHistory(t *testing.T) {
	pair := knownPairs[0]
	p, _ := ParsePath("/v1/chat/completions", []byte(pair[0]))
	k := Know(p, p.Parts(), []byte(pair[0]), []byte(pair[1]))
	r, err := ParsePathKnown("/v1/chat/completions", []byte(pair[1]), k)
	if err != nil {
		t.Fatal(err)
	}
	var was []int
	for _, part := range r.Parts() {
		was = append(was, k.Was(part))
	}
	// system, the tool (in the common suffix), user "a"; the two new messages are not known.
	if want := []int{0, 1, 2, -1, -1}; !reflect.DeepEqual(was, want) {
		t.Errorf("Was = %v, want %v", was, want)
	}
}

func FuzzParsePathKnown(f *testing.F) {
	for _, pair := range knownPairs {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, prev, cur string) {
		for _, path := range []string{"/v1/chat/completions", "/v1/responses", ""} {
			sameWithKnown(t, path, prev, cur)
		}
	})
}
