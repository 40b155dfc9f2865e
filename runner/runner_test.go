package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

func TestParseExpectations(t *testing.T) {
	e, err := ParseExpectations([]byte("# known\n\njobs/aaaaaaaa  the CLI writes 1m5s\ncontext/* no context yet\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := e.Reason("jobs/aaaaaaaa"); !ok || r != "the CLI writes 1m5s" {
		t.Errorf("Reason = %q, %v", r, ok)
	}
	if _, ok := e.Reason("context/12345678"); !ok {
		t.Error("a glob entry does not match")
	}
	if _, ok := e.Reason("prefix/12345678"); ok {
		t.Error("an unlisted id matches")
	}
	if got := e.Unused(); len(got) != 0 {
		t.Errorf("Unused = %v", got)
	}
	j, err := ParseExpectations([]byte(`{"prefix/*": "later", "jobs/1": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	j.Reason("prefix/1")
	if got := j.Unused(); len(got) != 1 || got[0] != "jobs/1" {
		t.Errorf("Unused = %v", got)
	}
	if _, err := ParseExpectations([]byte("jobs/1\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("an entry without a reason: %v", err)
	}
}

// scripted is a target that answers by case id.
type scripted struct {
	areas   []string
	answers map[string]Outcome
}

func (s scripted) Start(context.Context) (TargetInfo, error) {
	return TargetInfo{Kind: "go", Implementation: Implementation{Name: "scripted"}, Areas: s.areas}, nil
}

func (s scripted) Answer(_ context.Context, c conformance.Case) Outcome {
	if o, ok := s.answers[c.ID]; ok {
		return o
	}
	return Outcome{Answer: c.Expect}
}

func (scripted) Close() error { return nil }

func TestRunVerdicts(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:6]
	wrong := Outcome{Answer: json.RawMessage(`{"text": "wrong"}`)}
	target := scripted{areas: []string{"jobs"}, answers: map[string]Outcome{
		cases[1].ID: wrong,
		cases[2].ID: {Verdict: Error, Message: "boom"},
		cases[3].ID: {Verdict: Skip, Message: "not here"},
		cases[4].ID: wrong,
	}}
	expect, err := ParseExpectations([]byte(cases[4].ID + " known\n" + cases[5].ID + " fixed since\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runCases(context.Background(), target, cases, Options{Expect: expect})
	if err != nil {
		t.Fatal(err)
	}
	// With --expect, a skip the file does not list fails the run (issue 21).
	want := []Verdict{Pass, Fail, Error, UnlistedSkip, XFail, XPass}
	for i, r := range rep.Results {
		if r.Verdict != want[i] {
			t.Errorf("case %d: verdict %s, want %s", i, r.Verdict, want[i])
		}
	}
	if rep.Results[1].Diff == "" || !strings.Contains(rep.Results[1].Diff, "wrong") {
		t.Errorf("a failure carries no diff: %q", rep.Results[1].Diff)
	}
	if !rep.Failed() {
		t.Error("a run with a fail and an xpass did not fail")
	}
	other := scripted{areas: []string{"context"}}
	rep, _ = runCases(context.Background(), other, cases, Options{})
	for _, r := range rep.Results {
		if r.Verdict != Skip || r.Message != "area not implemented" {
			t.Fatalf("a case of an area the target does not list: %s %q", r.Verdict, r.Message)
		}
	}
	if rep.Failed() {
		t.Error("skips failed the run")
	}
}

// Known skips (issue 21): `ID skip WHY` lists a skip as a known failure is listed. A listed skip
// is a skip; an unlisted one fails the run naming itself; a case listed as skipped that passes is
// an xpass; and the file --write-expect writes from a run makes that run pass.
func TestExpectedSkips(t *testing.T) {
	cases := conformancetest.Cases(t, conformance.Jobs)[:5]
	wrong := Outcome{Answer: json.RawMessage(`{"text": "wrong"}`)}
	target := scripted{areas: []string{"jobs"}, answers: map[string]Outcome{
		cases[0].ID: {Verdict: Skip, Message: "no jobs yet"},
		cases[1].ID: {Verdict: Skip, Message: "not here"},
		cases[3].ID: wrong,
	}}
	expect, err := ParseExpectations([]byte(cases[0].ID + " skip the CLI has no jobs\n" + cases[2].ID + "  skip  later\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runCases(context.Background(), target, cases, Options{Expect: expect})
	if err != nil {
		t.Fatal(err)
	}
	want := []Verdict{Skip, UnlistedSkip, XPass, Fail, Pass}
	for i, r := range rep.Results {
		if r.Verdict != want[i] {
			t.Errorf("case %d: verdict %s, want %s", i, r.Verdict, want[i])
		}
	}
	if note := rep.Results[1].ExpectNote(); !strings.Contains(note, "skipped (not here), and the expectations file does not list it") || !strings.Contains(note, cases[1].ID+" skip WHY") {
		t.Errorf("unlisted skip: %q", note)
	}
	if note := rep.Results[2].ExpectNote(); !strings.Contains(note, "listed as skipped (later) but it was checked and passes") {
		t.Errorf("a listed skip that passes: %q", note)
	}
	if !rep.Failed() {
		t.Error("an unlisted skip did not fail the run")
	}
	if _, err := ParseExpectations([]byte("jobs/1 skip\n")); err == nil || !strings.Contains(err.Error(), "expected to be skipped") {
		t.Errorf("a skip without a reason: %v", err)
	}

	// The baseline: written from a run without --expect, it lists the failure and both skips,
	// and the same run with it passes.
	rep, _ = runCases(context.Background(), target, cases, Options{})
	var b strings.Builder
	if err := WriteExpectations(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{cases[0].ID + " skip no jobs yet\n", cases[1].ID + " skip not here\n", cases[3].ID + " fail: the answer differs from the expectation\n"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("written file lacks %q:\n%s", line, b.String())
		}
	}
	base, err := ParseExpectations([]byte(b.String()))
	if err != nil {
		t.Fatalf("the written file does not parse: %v\n%s", err, b.String())
	}
	rep, _ = runCases(context.Background(), target, cases, Options{Expect: base})
	if rep.Failed() || len(base.Unused()) > 0 {
		t.Errorf("the run fails against its own baseline (unused %v): %+v", base.Unused(), rep.Counts())
	}
}

// mutate flips one byte of the first non-empty string of an expectation, keeping it valid UTF-8.
func mutate(raw []byte) ([]byte, bool) {
	v, err := conformance.Value(raw)
	if err != nil {
		return nil, false
	}
	done := false
	var walk func(any) any
	walk = func(x any) any {
		if done {
			return x
		}
		switch y := x.(type) {
		case string:
			for i := 0; i < len(y); i++ {
				if y[i] < utf8.RuneSelf && y[i] != '\n' {
					b := []byte(y)
					b[i] ^= 0x01
					if b[i] < 0x20 || b[i] == 0x7f {
						b[i] = y[i] ^ 0x02
					}
					done = true
					return string(b)
				}
			}
		case []any:
			for i := range y {
				y[i] = walk(y[i])
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(y)) {
				y[k] = walk(y[k])
			}
		}
		return x
	}
	v = walk(v)
	b, _ := json.Marshal(v)
	return b, done
}

// The cases can fail: flipping one byte of any expected text makes the builtin fail that case,
// with a diff that shows both sides.
func TestFlippedExpectationFails(t *testing.T) {
	cases := conformancetest.All(t)
	ctx := context.Background()
	mutated := 0
	for _, c := range cases {
		if out := (Builtin{}).Answer(ctx, c); out.Verdict != "" || conformance.Diff(c.Expect, out.Answer) != "" {
			continue // failing already: TestReference reports it
		}
		m, ok := mutate(c.Expect)
		if !ok {
			continue
		}
		c.Expect = m
		rep, err := runCases(ctx, Builtin{}, []conformance.Case{c}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results[0]
		if r.Verdict != Fail || !strings.Contains(r.Diff, "-") || !strings.Contains(r.Diff, "+") {
			t.Errorf("%s with a flipped byte: verdict %s, diff %q", c.ID, r.Verdict, r.Diff)
		}
		var b bytes.Buffer
		b.WriteString(r.Failure())
		if !strings.Contains(b.String(), "--- FAIL: "+c.ID) || !strings.Contains(b.String(), "diff (-want +got)") {
			t.Errorf("%s: the table report does not show the failure readably:\n%s", c.ID, b.String())
		}
		mutated++
	}
	if mutated < 10 {
		t.Fatalf("only %d cases could be mutated", mutated)
	}
	t.Logf("%d cases fail when one byte of their expectation is flipped", mutated)
}

func BenchmarkSuiteBuiltin(b *testing.B) {
	cases := conformancetest.All(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := runCases(ctx, Builtin{}, cases, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(cases)), "cases")
}

// Loading the embedded suites as a run does (their table) beside the baseline, parsing and
// checking every case file as Load does for a --suite folder (and as every run did before).
func BenchmarkLoadSuites(b *testing.B) {
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadCases(SuiteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parsed", func(b *testing.B) {
		for b.Loop() {
			if _, err := conformance.Load(conformance.EmbeddedSuites(), conformance.All()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestAFailureShowsTheLastLinesOfStderr(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "log line %d\n", i)
	}
	var out bytes.Buffer
	Result{Case: conformance.Case{Label: conformance.Label{ID: "jobs/1"}, Input: []byte(`{}`), Expect: []byte(`{}`)}, Verdict: Crashed, Stderr: b.String()}.WriteFailure(&out)
	s := out.String()
	if strings.Contains(s, "log line 79\n") || !strings.Contains(s, "log line 80\n") || !strings.Contains(s, "log line 99") || !strings.Contains(s, "…") {
		t.Fatalf("want the last 20 lines after an ellipsis:\n%s", s)
	}
}

// The version comes from the build: the module version when there is one, else the revision.
func TestBuildVersion(t *testing.T) {
	bi := func(v string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: v}, Settings: settings}
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{bi("v1.2.0"), true, "v1.2.0"},
		{bi("v0.0.0-20261201093735-fe9bc63a39a3+dirty", rev), true, "v0.0.0-20261201093735-fe9bc63a39a3+dirty"},
		{bi("(devel)", rev), true, "devel-0123456789ab"},
		{bi("(devel)", rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), true, "devel-0123456789ab+dirty"},
		{bi(""), true, "devel"},
		{nil, false, "devel"},
	} {
		if got := buildVersion(c.bi, c.ok); got != c.want {
			t.Errorf("%+v: %q, want %q", c.bi, got, c.want)
		}
	}
}

// A result's heading, the failure's and a verbose table's for every other verdict, is `go test`'s:
// the verdict, the case, its time, and what follows.
func TestWriteHeading(t *testing.T) {
	x := Result{Case: conformance.Case{Label: conformance.Label{ID: "jobs/x"}, Input: []byte(`{}`), Expect: []byte(`{}`)}, Verdict: Fail, Duration: 1250 * time.Microsecond}
	var b bytes.Buffer
	x.WriteHeading(&b, ": why")
	if b.String() != "--- FAIL: jobs/x (1.2ms): why\n" {
		t.Errorf("heading %q", b.String())
	}
	if f := x.Failure(); !strings.HasPrefix(f, "--- FAIL: jobs/x (1.2ms)\n") {
		t.Errorf("failure %q", f)
	}
}
