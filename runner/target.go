// Package runner hands conformance cases to a target — the builtin reference, an adapter process,
// a Go implementation's own functions — and turns its answers into verdicts (Run, one pool for
// every work item). How a report is written is internal/report's; which cases run, internal/selection's.
package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// ToolVersion is lembas-check's own version, written into every report: the module version it was
// built as (`go install …@v1.2.0`, or the pseudo-version `go build` stamps in a clone), else the
// VCS revision it was built from, else "devel" (a test binary). A release build stamps its own
// (releaseVersion, set by cmd/release through -ldflags -X), which wins: a binary built from a
// tagged archive has no module version to read.
var ToolVersion = stampedOr(releaseVersion, buildVersion(debug.ReadBuildInfo()))

// releaseVersion is set at link time by cmd/release (-X …/runner.releaseVersion=v1.2.3).
var releaseVersion string

func stampedOr(stamped, built string) string {
	if stamped != "" {
		return stamped
	}
	return built
}

func buildVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+dirty"
	}
	return "devel-" + rev
}

// Verdict is what became of one case.
type Verdict string

// The verdicts of the adapter protocol (docs/protocol.md), and interrupted.
const (
	Pass          Verdict = "pass"
	Fail          Verdict = "fail"
	Skip          Verdict = "skip"
	Error         Verdict = "error"
	Timeout       Verdict = "timeout"
	Crashed       Verdict = "crashed"
	ProtocolError Verdict = "protocol error"
	XFail         Verdict = "xfail"
	XPass         Verdict = "xpass"
	// UnlistedSkip is a skip an expectations file (--expect) does not list: the case was not
	// checked, and the run fails until the file says why or the target answers it.
	UnlistedSkip Verdict = "unlisted skip"
	// Interrupted is a case the run did not finish (Ctrl-C, SIGTERM): not passed, and the run
	// that has one is unfinished.
	Interrupted Verdict = "interrupted"
	// Malformed is a case (or a whole case file, or a scenario) that could not be read or built:
	// it was not sent, so nothing was checked, and it fails the run until the suite is mended.
	Malformed Verdict = "malformed"
)

// Verdicts are every verdict, in the order counts of them are listed.
var Verdicts = []Verdict{Pass, Fail, XFail, XPass, Skip, UnlistedSkip, Error, Timeout, Crashed, ProtocolError,
	Malformed, Interrupted}

// Failed says whether a verdict fails the run.
func (v Verdict) Failed() bool {
	switch v {
	case Pass, Skip, XFail:
		return false
	}
	return true
}

// Implementation is what a target says of itself (the adapter's hello answer, or the builtin's).
type Implementation struct {
	Name        string `json:"name"`
	Version     string `json:"version,omitempty"`
	Language    string `json:"language,omitempty"`
	HarnessSpec string `json:"harness_spec,omitempty"`
	Homepage    string `json:"homepage,omitempty"`
}

// TargetInfo is a started target: who it is and which areas it answers.
type TargetInfo struct {
	// Kind is "builtin", "adapter", "go" or "report".
	Kind string `json:"kind"`
	// Command is the adapter's argv as given, for an adapter.
	Command        string         `json:"command,omitempty"`
	Implementation Implementation `json:"implementation"`
	// Areas the target answers; a case of any other area is skipped unsent.
	Areas []string `json:"areas"`
}

// Outcome is a target's answer to one case: an answer, or why there is none.
type Outcome struct {
	Answer json.RawMessage
	// Verdict is empty when Answer is set; else Skip, Error, Timeout, Crashed, ProtocolError or Interrupted.
	Verdict Verdict
	// Message is the skip reason, the implementation's error, or what broke.
	Message string
	// Stderr is the tail of an adapter's stderr, shown with a failure.
	Stderr string
}

// Target answers cases. Start is called once before the first case, Close once after the last.
// Answer may be called from several goroutines when the target says it can (Parallel).
type Target interface {
	Start(ctx context.Context) (TargetInfo, error)
	Answer(ctx context.Context, c conformance.Case) Outcome
	Close() error
}

// Builtin is the reference implementation in harness/, answering in-process.
type Builtin struct{}

// Start implements Target.
func (Builtin) Start(context.Context) (TargetInfo, error) {
	var areas []string
	for _, a := range conformance.All() {
		areas = append(areas, a.Name)
	}
	return TargetInfo{Kind: "builtin", Implementation: Implementation{
		Name: "lembas-check reference", Version: ToolVersion, Language: "go", HarnessSpec: specVersion(),
	}, Areas: areas}, nil
}

// Answer implements Target.
func (Builtin) Answer(_ context.Context, c conformance.Case) (out Outcome) {
	area, ok := conformance.ByName(c.Area)
	if !ok {
		return Outcome{Verdict: Skip, Message: "area not implemented"}
	}
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Verdict: Error, Message: fmt.Sprintf("the reference panicked: %v", r)}
		}
	}()
	decoded, err := c.Decode()
	if err != nil {
		return Outcome{Verdict: Error, Message: err.Error()}
	}
	got, err := area.Reference(decoded)
	if err != nil {
		return Outcome{Verdict: Error, Message: err.Error()}
	}
	b, err := jsonx.Marshal(got) // a report shows the spec's < and > as they are
	if err != nil {
		return Outcome{Verdict: Error, Message: err.Error()}
	}
	return Outcome{Answer: b}
}

// Close implements Target.
func (Builtin) Close() error { return nil }

// Funcs is a Go implementation's own functions, one per area it implements: each takes a case's
// JSON (without "expect") and returns its answer's JSON. It lets a Go project run the suite inside
// its own `go test` (runnertest.TestTarget; see ExampleRun).
type Funcs struct {
	Implementation Implementation
	Areas          map[string]func(caseJSON []byte) (answerJSON []byte, err error)
}

// Start implements Target.
func (f Funcs) Start(context.Context) (TargetInfo, error) {
	info := TargetInfo{Kind: "go", Implementation: f.Implementation}
	for name := range f.Areas {
		info.Areas = append(info.Areas, name)
	}
	return info, nil
}

// Answer implements Target.
func (f Funcs) Answer(_ context.Context, c conformance.Case) (out Outcome) {
	fn, ok := f.Areas[c.Area]
	if !ok {
		return Outcome{Verdict: Skip, Message: "area not implemented"}
	}
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Verdict: Crashed, Message: fmt.Sprintf("panic: %v", r)}
		}
	}()
	b, err := fn(c.Input)
	if err != nil {
		return Outcome{Verdict: Error, Message: err.Error()}
	}
	if !json.Valid(b) {
		return Outcome{Verdict: ProtocolError, Message: "the answer is not JSON: " + format.Quote(b)}
	}
	return Outcome{Answer: b}
}

// Close implements Target.
func (Funcs) Close() error { return nil }
