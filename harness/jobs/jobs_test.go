package jobs

import (
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

func TestDuration(t *testing.T) {
	for s, want := range map[int]string{0: "0s", 5: "5s", 59: "59s", 60: "1m 00s", 65: "1m 05s", 125: "2m 05s", 3599: "59m 59s", 3600: "1h 00m", 7325: "2h 02m", 7380: "2h 03m", 90061: "25h 01m", -3: "0s"} {
		if got := Duration(s); got != want {
			t.Errorf("Duration(%d) = %q, want %q", s, got, want)
		}
	}
}

func TestEveryNoteBeginsWithItsMarkFromLoopJSON(t *testing.T) {
	marks := spec.LoopJSON().Jobs.Marks
	for kind, mark := range map[string]string{KindCommand: marks.Command, KindSubagent: marks.Subagent, KindMessage: marks.Message, KindToSubagent: marks.ToSubagent} {
		text, err := Note(Record{Kind: kind, ID: "job1", Reason: "stop"})
		if err != nil {
			t.Fatal(err)
		}
		if mark == "" || !strings.HasPrefix(text, mark+"\n") {
			t.Errorf("%s note %q does not begin with its mark %q", kind, text, mark)
		}
	}
	if _, err := Note(Record{Kind: "daemon"}); err == nil {
		t.Error("a note of an unknown kind: no error")
	}
}

func TestCommandLineIsTheFirstLineCutAt120Runes(t *testing.T) {
	long := strings.Repeat("é", 130) + "\nsecond"
	if got := commandLine(long); got != strings.Repeat("é", 120) {
		t.Errorf("commandLine cut to %d runes", len([]rune(got)))
	}
}

func TestSubagentTailSaysOneStepAndOneCall(t *testing.T) {
	if got, want := SubagentTail("explore", 1, 1, "budget", ""), "[explore subagent · 1 step · 1 tool call · ended: budget]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := SubagentTail("general", 2, 0, "error", ""), "[general subagent · 2 steps · 0 tool calls · ended: error]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
