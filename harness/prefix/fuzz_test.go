package prefix

import (
	"fmt"
	"slices"
	"testing"
)

var fuzzModes = []string{"manual", "plan", "edit", "auto"}
var fuzzTools = []string{"read", "show", "python", "commit", "plan_submit", "plan_write", "grep"}
var fuzzReqs = []string{"plan", "display", "page", "forge", "gpu"}

// pick is a subset of list by the bits of b.
func pick(list []string, b byte) []string {
	out := []string{}
	for i, s := range list {
		if b&(1<<i) != 0 {
			out = append(out, s)
		}
	}
	return out
}

// FuzzSession drives a session with any sequence of steps, valid or not: it never panics, the
// system number never decreases and grows by one exactly at a compaction or a model move, the tool
// list never changes, and a note once sent is never sent again.
func FuzzSession(f *testing.F) {
	f.Add([]byte{0x0f, 0x00, 0x01, 0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{0x01, 0xff, 0x00, 2, 0, 0, 2, 3, 1, 4, 5})
	f.Add([]byte{0x0e, 0x02, 0x03, 6, 0, 7, 1, 2, 1, 2, 2, 2, 3, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		st := Start{Date: "2026-11-05", Mode: fuzzModes[int(next())%len(fuzzModes)], Could: pick(fuzzReqs, next())}
		if b := next(); b&0x80 == 0 {
			st.Met = pick(fuzzReqs, b)
		}
		s, err := New(st, fuzzTools)
		if err != nil {
			return
		}
		tools := s.Tools()
		system := s.System()
		check := func(what string, r Request) {
			if !slices.Equal(r.Tools, tools) {
				t.Fatalf("%s offers %v, the session began with %v", what, r.Tools, tools)
			}
			if r.System != system {
				t.Fatalf("%s sends system %d, the session is at %d", what, r.System, system)
			}
		}
		for len(data) > 0 {
			op, arg := next(), next()
			switch op % 8 {
			case 0:
				r, err := s.User()
				if err != nil {
					continue
				}
				check("a user message", r)
				if again, err := s.User(); err != nil || again.Note != "" {
					t.Fatalf("a note said twice: %q then %q (%v)", r.Note, again.Note, err)
				}
			case 1:
				if r, err := s.Step(); err == nil {
					check("a tool step", r)
				}
			case 2:
				c := Change{ByModel: arg&1 != 0}
				v := fmt.Sprintf("v%d", arg>>5)
				switch arg >> 1 & 7 {
				case 0:
					c.Date = &v
				case 1:
					c.Mode = &fuzzModes[int(arg>>4)%len(fuzzModes)]
				case 2:
					c.Plan = &v
				case 3:
					c.Memory = &v
				case 4:
					c.Personality = &v
				case 5:
					c.Files = map[string]string{"/a": v, fmt.Sprintf("/f%d", arg>>6): "x"}
				case 6:
					c.MCP = map[string]string{v: v}
				case 7:
					c.Met = pick(fuzzReqs, arg>>4)
				}
				_ = s.Set(c)
			case 3:
				text, refused, err := s.Call(fuzzTools[int(arg)%len(fuzzTools)])
				if err == nil && refused != (text != "") {
					t.Fatalf("refused=%v with text %q", refused, text)
				}
			case 4:
				c := s.Compact()
				check("a compaction", Request{System: c.System, Tools: c.Tools})
				system++
			case 5:
				check("a wrap-up", s.WrapUp())
			case 6:
				s.Model()
				system++
			case 7:
				_, _ = s.Note()
			}
			if s.System() != system {
				t.Fatalf("system %d, want %d", s.System(), system)
			}
			if !slices.Equal(s.Tools(), tools) {
				t.Fatalf("the tool list changed: %v, began %v", s.Tools(), tools)
			}
		}
	})
}

// benchSteps is a 10,000-step session: user messages and tool steps, calls, the person's and the
// model's changes, the date at every 500 steps, a model move every 3,000, a compaction every 2,000.
func benchSession(b *testing.B) {
	st := Start{Date: "2026-11-05", Mode: "manual", Memory: "m", Could: []string{"plan", "display", "forge"},
		Files: map[string]string{"/p/AGENTS.md": "Build with make.", "/p/src/AGENTS.md": "Strict types."}, MCP: map[string]string{"docs": "Search first."}}
	s, err := New(st, []string{"read", "show", "commit", "plan_submit", "plan_write"})
	if err != nil {
		b.Fatal(err)
	}
	memory := [2]string{"Prefers tabs.", "Uses fish."}
	for i := range 10_000 {
		var err error
		switch {
		case i%3000 == 2999:
			s.Model()
		case i%2000 == 1999:
			s.Compact()
		case i%500 == 499:
			d := fmt.Sprintf("2026-11-%02d", 5+i/500%20)
			err = s.Set(Change{Date: &d})
		case i%10 == 0:
			_, err = s.User()
		case i%10 == 3:
			_, _, err = s.Call([]string{"show", "commit", "plan_submit"}[i%3])
		case i%10 == 5:
			err = s.Set(Change{Memory: &memory[i/10%2]})
		case i%10 == 7:
			err = s.Set(Change{ByModel: true, Files: map[string]string{"/p/AGENTS.md": memory[i/10%2], "/p/src/AGENTS.md": "Strict types."}})
		case i%10 == 8:
			err = s.Set(Change{Met: [][]string{{}, {"display"}, {"display", "forge"}}[i%3]})
		default:
			_, err = s.Step()
		}
		if err != nil {
			b.Fatalf("step %d: %v", i, err)
		}
	}
}

func BenchmarkSession10000Steps(b *testing.B) {
	for b.Loop() {
		benchSession(b)
	}
}
