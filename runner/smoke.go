package runner

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
)

// Statuses of a smoke check.
const (
	SmokeOK   = "ok"
	SmokeWarn = "warn"
	SmokeFail = "FAIL"
)

// SmokeCheck is one finding of Smoke: a step, how it went, and in plain words what is wrong.
type SmokeCheck struct {
	// Step is "hello", "harness_spec", "areas", a case id, or "bye".
	Step   string
	Status string
	Detail string
	Stderr string
}

// Smoke checks an adapter itself, not the implementation behind it: that it says hello, lists
// areas lembas-check knows, answers the simplest case of each in the protocol's shape, and exits
// on bye. A wrong answer is only a warning here (`run` is for those); a fault of the protocol is a
// FAIL. cases are the suite the trivial cases are picked from.
func Smoke(ctx context.Context, a *Adapter, cases []conformance.Case) []SmokeCheck {
	var l smokeLog
	info, err := a.Start(ctx)
	if err != nil {
		l.add("hello", SmokeFail, "%v", err)
		return l.out
	}
	l.hello(info.Implementation)
	trivial := trivialCases(cases)
	for _, name := range l.areas(info.Areas, trivial) {
		l.answer(trivial[name], a.Answer(ctx, trivial[name]))
	}
	if err := a.Close(); err != nil {
		l.add("bye", SmokeFail, "%v", err)
	} else {
		l.add("bye", SmokeOK, "exited with status 0")
	}
	return l.out
}

// smokeLog is the checks made so far, in order.
type smokeLog struct{ out []SmokeCheck }

func (l *smokeLog) add(step, status, format string, args ...any) *SmokeCheck {
	l.out = append(l.out, SmokeCheck{Step: step, Status: status, Detail: fmt.Sprintf(format, args...)})
	return &l.out[len(l.out)-1]
}

// hello names who answered, and warns when it implements another version of the spec.
func (l *smokeLog) hello(impl Implementation) {
	who := impl.Name
	if impl.Version != "" {
		who += " " + impl.Version
	}
	if impl.Language != "" {
		who += " (" + impl.Language + ")"
	}
	l.add("hello", SmokeOK, "%s speaks protocol %d", who, Protocol)
	if impl.HarnessSpec != "" && impl.HarnessSpec != specVersion() {
		l.add("harness_spec", SmokeWarn, "it implements harness spec %s; this lembas-check checks %s, "+
			"so answers may differ where the spec changed", impl.HarnessSpec, specVersion())
	}
}

// areas checks the areas hello listed against those lembas-check has, and returns the ones both
// have, sorted: the areas whose trivial case is sent.
func (l *smokeLog) areas(listedAreas []string, trivial map[string]conformance.Case) []string {
	var known []string
	for name := range trivial {
		known = append(known, name)
	}
	sort.Strings(known)
	listed := map[string]bool{}
	var unknown []string
	for _, name := range listedAreas {
		listed[name] = true
		if _, ok := trivial[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	var answers, others []string
	for _, name := range known {
		if listed[name] {
			answers = append(answers, name)
		} else {
			others = append(others, name)
		}
	}
	switch {
	case len(listedAreas) == 0:
		l.add("areas", SmokeFail, `it lists no areas, so every case would be skipped unsent: `+
			`list the areas it answers in hello's "areas"`)
	case len(answers) == 0:
		l.add("areas", SmokeFail, "it lists no area lembas-check has (%s): every case would be skipped unsent",
			strings.Join(known, ", "))
	default:
		msg := "answers " + strings.Join(answers, ", ")
		if len(others) > 0 {
			msg += "; the others (" + strings.Join(others, ", ") + ") are skipped unsent"
		}
		l.add("areas", SmokeOK, "%s", msg)
	}
	for _, name := range unknown {
		l.add("areas", SmokeWarn, "lembas-check has no area %q (it has %s): a typo? its cases would never be sent",
			name, strings.Join(known, ", "))
	}
	return answers
}

// answer judges the adapter's answer to an area's trivial case: its shape is the protocol's (a
// FAIL when not), its content only a warning.
func (l *smokeLog) answer(c conformance.Case, o Outcome) {
	switch o.Verdict {
	case "":
		area, _ := conformance.ByName(c.Area)
		if _, err := area.DecodeAnswer(o.Answer); err != nil {
			l.add(c.ID, SmokeFail, "the answer is not a %s answer (%v): an answer has the shape of the case's "+
				"\"expect\" (docs/areas.md): %s", c.Area, err, format.Quote(o.Answer))
		} else if conformance.Diff(c.Expect, o.Answer) == "" {
			l.add(c.ID, SmokeOK, "answered as the spec expects")
		} else {
			l.add(c.ID, SmokeWarn, "answered, but not as the spec expects: "+
				"`lembas-check run --impl … --run %s` shows the diff", c.ID)
		}
	case Skip:
		l.add(c.ID, SmokeWarn, "skipped it (%q) though hello lists %s", o.Message, c.Area)
	case Error:
		l.add(c.ID, SmokeWarn, "the implementation answered error: %q", o.Message)
	default:
		l.add(c.ID, SmokeFail, "%s: %s", o.Verdict, o.Message).Stderr = o.Stderr
	}
}

// trivialCases picks, for each area, the case with the shortest input (then the smallest id).
func trivialCases(cases []conformance.Case) map[string]conformance.Case {
	m := map[string]conformance.Case{}
	for _, c := range cases {
		prev, ok := m[c.Area]
		if !ok || len(c.Input) < len(prev.Input) || len(c.Input) == len(prev.Input) && c.ID < prev.ID {
			m[c.Area] = c
		}
	}
	return m
}
