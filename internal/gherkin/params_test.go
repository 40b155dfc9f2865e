package gherkin

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/runner"
)

func TestParseText(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{`"a"`, "a", ""},
		{`""`, "", ""},
		{`"a" x 3`, "aaa", ""},
		{`"a" x 0`, "", ""},
		{`"ab" x 2 + "\n" + "c"`, "abab\nc", ""},
		{`"é" x 2 + "\r\n"`, "éé\r\n", ""},
		{`"say \"hi\"" + "\\"`, `say "hi"\`, ""},
		{`"a" x`, "", "want a count after x"},
		{`"a" + `, "", "want a quoted string"},
		{`"a`, "", "not closed"},
		{`a`, "", "want a quoted string"},
		{`"a"+"b"`, "", "want ` + ` or the end"},
		{`"a" x 2000000`, "", "count up to 1000000"},
		{`"\q"`, "", "not a quoted string"},
		{`"a" x 1000000 + "b" x 1000000 + "c" x 1000000` + strings.Repeat(` + "0123456789abcdefghijklmnopqrstuvwxyz" x 1000000`, 2), "", "longer than 64 MiB"},
	} {
		got, err := steps.ParseText(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("steps.ParseText(%s): err %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("steps.ParseText(%s) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestParseList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{`"a"`, []string{"a"}, ""},
		{`"a" and "b"`, []string{"a", "b"}, ""},
		{`"a", "b" and "c"`, []string{"a", "b", "c"}, ""},
		{`"a", "b", and "c"`, []string{"a", "b", "c"}, ""},
		{`"a, b", "c"`, []string{"a, b", "c"}, ""},
		{`"a" "b"`, nil, "want `, ` or ` and `"},
		{`"a",`, nil, "want `, ` or ` and `"},
		{`"a", `, nil, "want a quoted string"},
	} {
		got, err := steps.ParseList(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("steps.ParseList(%s): err %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !reflect.DeepEqual(got, c.want)):
			t.Errorf("steps.ParseList(%s) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// quote writes s as a quoted string a step holds.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

var bigCount = regexp.MustCompile(`x ?[0-9]{5}`)

func FuzzParseText(f *testing.F) {
	for _, s := range []string{`"a" x 3 + "b"`, `"\n"`, `"é" x 2`, `"a" x`, `""`, `"\u00e9" + "\"" x 9`} {
		f.Add(s, "x", uint16(2))
	}
	f.Fuzz(func(t *testing.T, expr, s string, n uint16) {
		// Anything: an error or a text, never a panic, never past the cap. (Counts of five digits
		// and more are left to TestParseText: texts of megabytes would slow the fuzzer to a crawl.)
		if !bigCount.MatchString(expr) {
			if got, err := steps.ParseText(expr); err == nil && len(got) > 64<<20 {
				t.Fatalf("%d bytes", len(got))
			}
		}
		// A quoted string, repeated, reads back as itself.
		times := int(n % 50)
		got, err := steps.ParseText(quote(s) + " x " + itoa(times) + " + " + quote(s))
		if want := strings.Repeat(s, times+1); err != nil || got != want && utf8.ValidString(s) {
			t.Fatalf("steps.ParseText(%q x %d + itself) = %q, %v", s, times, got, err)
		}
	})
}

func FuzzParseList(f *testing.F) {
	f.Add(`"a", "b" and "c"`, "a", "b")
	f.Add(`"a" and`, "", ",")
	f.Fuzz(func(t *testing.T, expr, a, b string) {
		steps.ParseList(expr)
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return // JSON writes invalid UTF-8 as U+FFFD: not the same string back
		}
		got, err := steps.ParseList(quote(a) + " and " + quote(b))
		if err != nil || !reflect.DeepEqual(got, []string{a, b}) {
			t.Fatalf("steps.ParseList(%q and %q) = %q, %v", a, b, got, err)
		}
	})
}

// FuzzLoad reads any text as a feature file: a FeatureError or scenarios, never a panic; each
// scenario has its area's id and its file and line, and a case its area decodes or an error.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(idFeature))
	f.Add([]byte(failingSeed))
	f.Add([]byte("Feature: x\n  Scenario Outline: <a>\n    Then the note has <n> lines\n    Examples:\n      | a | n |\n      | 1 | x |\n"))
	f.Add([]byte("Scenario: no feature\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		scs, err := Load(fstest.MapFS{"jobs.feature": {Data: src}}, "dir")
		if err != nil {
			if _, ok := err.(*FeatureError); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		for _, s := range scs {
			if !strings.HasPrefix(s.Case.ID, "jobs/feature:") || !strings.HasPrefix(s.Case.File, "dir/jobs.feature:") {
				t.Fatalf("id %s, file %s", s.Case.ID, s.Case.File)
			}
			if s.Err != nil {
				continue
			}
			if _, err := conformance.Jobs.Decode(s.Case.Input); err != nil {
				t.Fatalf("%s: a case the area refuses passed: %v", s.Case.ID, err)
			}
		}
	})
}

const failingSeed = `Feature: jobs
  Scenario: s
    Given a background command "x" with the id "j"
    And it exited with 0
    And it ran for 5 seconds
    And its unread output is "a" x 3 + "\n"
    Then the note is:
      """json
      "x"
      """
`

// FuzzVerify checks any answer (what an adapter could send) with real scenarios' Thens: a verdict,
// never a panic, and the builtin's own answer always passes.
func FuzzVerify(f *testing.F) {
	scs, err := Embedded()
	if err != nil {
		f.Fatal(err)
	}
	info, _ := runner.Builtin{}.Start(context.Background())
	rs := RunScenarios(context.Background(), runner.Builtin{}, info, scs, runner.Options{})
	for i := 0; i < len(scs); i += 17 {
		f.Add(i, []byte(rs[i].Answer))
		f.Add(i, []byte(`{"text": null, "entries": [1, {"a": []}], "results": "x"}`))
		f.Add(i, []byte(`[[], null, "", {"system": "1", "note": 5, "record": {"modules": 3}}]`))
	}
	f.Fuzz(func(t *testing.T, i int, answer []byte) {
		if i < 0 {
			i = -i
		}
		sc := scs[i%len(scs)]
		if !json.Valid(answer) {
			return // the runner refuses it before the Thens (a protocol error)
		}
		verifyAll("f", sc.Checks, answer)
		if got := verifyAll("f", sc.Checks, rs[i%len(scs)].Answer); got != "" {
			t.Fatalf("%s: the builtin's answer fails:\n%s", sc.Case.ID, got)
		}
	})
}
