package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/runner"
)

func jobsCases(t *testing.T) []conformance.Case {
	t.Helper()
	cases, err := conformance.Load(conformance.EmbeddedSuites(), conformance.All())
	if err != nil {
		t.Fatal(err)
	}
	var out []conformance.Case
	for _, c := range cases {
		if c.Area == "jobs" {
			out = append(out, c)
		}
	}
	return out
}

// runCases starts the target, runs the cases and closes it.
func runCases(ctx context.Context, t runner.Target, cases []conformance.Case, opts runner.Options) (*runner.Report, error) {
	info, err := t.Start(ctx)
	if err != nil {
		return nil, err
	}
	rep := runner.Run(ctx, t, info, runner.CaseItems(cases), opts)
	rep.Closed(t.Close())
	return rep, nil
}

// scripted is a target that answers by case id.
type scripted struct {
	areas   []string
	answers map[string]runner.Outcome
}

func (s scripted) Start(context.Context) (runner.TargetInfo, error) {
	return runner.TargetInfo{Kind: "go", Implementation: runner.Implementation{Name: "scripted"}, Areas: s.areas}, nil
}

func (s scripted) Answer(_ context.Context, c conformance.Case) runner.Outcome {
	if o, ok := s.answers[c.ID]; ok {
		return o
	}
	return runner.Outcome{Answer: c.Expect}
}

func (scripted) Close() error { return nil }

func TestReportFormats(t *testing.T) {
	cases := jobsCases(t)[:3]
	target := scripted{areas: []string{"jobs"}, answers: map[string]runner.Outcome{cases[1].ID: {Answer: json.RawMessage(`{"text":"x"}`)}, cases[2].ID: {Verdict: runner.Timeout, Message: "no answer in 10s", Stderr: "hung\n"}}}
	rep, err := runCases(context.Background(), target, cases, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(js.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("JSON report has %d lines, want header + 3 + footer", len(lines))
	}
	var c JSONCase
	if err := json.Unmarshal([]byte(lines[2]), &c); err != nil || c.ID != cases[1].ID || c.Verdict != runner.Fail || c.Diff == "" || c.Area != "jobs" {
		t.Fatalf("case line %s (%v)", lines[2], err)
	}
	back, err := ReadJSON(strings.NewReader(js.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Results) != 3 || back.Results[2].Verdict != runner.Timeout || back.Results[0].Verdict != runner.Pass || back.Target.Implementation.Name != "scripted" {
		t.Fatalf("read back: %+v", back.Results)
	}
	cut := strings.Join(lines[:3], "\n") + "\n" + lines[3][:20]
	if _, err := ReadJSON(strings.NewReader(cut)); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("a report cut mid-line: %v", err)
	}
	var ju bytes.Buffer
	if err := WriteJUnit(&ju, rep); err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(ju.Bytes(), &parsed); err != nil {
		t.Fatalf("JUnit is not XML: %v\n%s", err, ju.String())
	}
	if parsed.Tests != 3 || parsed.Fail != 2 || len(parsed.Suites) != 1 || parsed.Suites[0].Cases[2].Error == nil || parsed.Suites[0].Cases[1].Failure == nil {
		t.Fatalf("JUnit: %+v", parsed)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| jobs | 3 | 1 | 2 | 0 | 0 |") || !strings.Contains(md.String(), "<details>") {
		t.Fatalf("markdown:\n%s", md.String())
	}
	if err := Write(&md, rep, "yaml", false); err == nil {
		t.Fatal("an unknown format writes")
	}
}
