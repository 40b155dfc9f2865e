package live

import (
	"slices"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/runner"
)

// The ids-shown verdict from what the client was shown and what the model was sent: a shown text
// is paired with a result by its body (or the whole of it), never by call id; a pair without the
// bracket fails, naming the call, the bracket and how the text begins; what was not compared is
// a skip, never a pass.
func TestJudgeIDsShown(t *testing.T) {
	readme := "[#0001 README.md lines 1-2 of 2 sha 1c9e04ab]\nThe project reads files.\nIt has notes.\n"
	short := "[#0002]\nok"
	cases := []struct {
		name, driven string
		shown        []acp.Shown
		sent         []string
		want         runner.Verdict
		says         string
	}{
		{"one-shot", "one-shot", []acp.Shown{sh("t1", readme)}, []string{readme}, runner.Skip, "only ACP"},
		{"nothing shown", "acp", nil, []string{readme}, runner.Skip, "no tool call's text"},
		{"no ids sent", "acp", []acp.Shown{sh("t1", "The project reads files.\nIt has notes.\n")},
			[]string{"The project reads files.\nIt has notes.\n"}, runner.Skip, "id bracket"},
		{"not a result", "acp", []acp.Shown{sh("t1", "Reading README.md")}, []string{readme}, runner.Skip,
			"is a result the model was sent"},
		{"short body, not equal", "acp", []acp.Shown{sh("t1", "ok")}, []string{short}, runner.Skip,
			"is a result the model was sent"},
		{"as sent", "acp", []acp.Shown{sh("call_9", readme), sh("t2", "Reading")}, []string{readme}, runner.Pass,
			"1 tool results shown to the client carry the ids"},
		{"short, equal", "acp", []acp.Shown{sh("t1", short)}, []string{short}, runner.Pass, "carry the ids"},
		{"wrapped", "acp", []acp.Shown{sh("t1", "```\n"+readme+"```")}, []string{readme}, runner.Pass,
			"carry the ids"},
		{"id dropped", "acp", []acp.Shown{sh("t1", "The project reads files.\nIt has notes.\n")}, []string{readme},
			runner.Fail, `tool call t1 shows a result the model was sent as "[#0001 README.md lines 1-2 of 2 sha ` +
				`1c9e04ab]" without that id: it begins "The project reads files."`},
		{"another id", "acp", []acp.Shown{sh("t1", "[#0007]\nThe project reads files.\nIt has notes.\n")},
			[]string{readme}, runner.Fail, `it begins "[#0007]"`},
	}
	for _, c := range cases {
		_, v, msg, _ := judgeIDsShown(c.driven, c.shown, c.sent)
		if v != c.want || !strings.Contains(msg, c.says) {
			t.Errorf("%s: %s %q, want %s saying %q", c.name, v, msg, c.want, c.says)
		}
	}
}

func sh(id, text string) acp.Shown { return acp.Shown{ToolCallID: id, Text: text} }

// The results the model was sent, read from each API's shape: a chat completions tool message, a
// Responses function_call_output, Anthropic's tool_result blocks, Gemini's functionResponse parts
// (whose output string is the text); the person's words are none, and a result sent again counts
// once.
func TestSentResultsEachAPI(t *testing.T) {
	bodies := map[string]string{
		"chat": `{"model":"m","messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,` +
			`"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"c1","content":"[#0001]\nchat"}]}`,
		"responses": `{"model":"m","input":[{"role":"user","content":"go"},{"type":"function_call","call_id":"c1",` +
			`"name":"read","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"[#0001]\nresponses"}]}`,
		"anthropic": `{"model":"m","max_tokens":9,"messages":[{"role":"user","content":"go"},{"role":"assistant",` +
			`"content":[{"type":"tool_use","id":"t1","name":"read","input":{}}]},{"role":"user","content":[` +
			`{"type":"tool_result","tool_use_id":"t1","content":"[#0001]\nanthropic"},{"type":"text","text":"more"}]}]}`,
		"gemini": `{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":` +
			`{"name":"read","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"read","response":` +
			`{"output":"[#0001]\ngemini"}}}]}]}`,
	}
	for api, body := range bodies {
		r, err := chat.Parse([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", api, err)
		}
		reqs := []request{{seq: 1, r: r}, {seq: 2, r: r}}
		got := sentResults(reqs, map[int]bool{1: true, 2: true})
		if want := []string{"[#0001]\n" + api}; !slices.Equal(got, want) {
			t.Errorf("%s: sent %q, want %q", api, got, want)
		}
	}
}
