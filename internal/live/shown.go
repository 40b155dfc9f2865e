package live

import (
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/runner"
)

// minBody is the shortest result body a shown text is paired by: a shorter one ("ok", "") is in
// too many texts to say which result a client was shown.
const minBody = 16

// sentResults are the texts of the tool results the session's requests sent the model, each
// once, in the order first sent: chat completions' tool messages, Responses' function_call_output
// items, Anthropic's tool_result blocks, Gemini's functionResponse parts (chat.Turns).
func sentResults(reqs []request, main map[int]bool) []string {
	var out []string
	seen := map[string]bool{}
	// Each request sends the history again: a message already read, byte for byte, holds no
	// result not seen, so it is not decoded again.
	read := map[string]bool{}
	for _, q := range reqs {
		if !main[q.seq] {
			continue
		}
		for _, m := range q.r.Messages {
			if read[string(m.Raw)] {
				continue
			}
			read[string(m.Raw)] = true
			for _, t := range chat.Turns(m) {
				if t.Role == "tool" && !seen[t.Text] {
					seen[t.Text] = true
					out = append(out, t.Text)
				}
			}
		}
	}
	return out
}

// judgeIDsShown: each tool result the client was shown, paired by its content with a result the
// model was sent (the call ids of ACP and of the model may differ), carries that result's first
// line, its id bracket, as sent (context.md, Over the link).
func judgeIDsShown(driven string, shown []acp.Shown, sent []string) (string, runner.Verdict, string, string) {
	if driven != "acp" {
		return RuleIDsShown, runner.Skip,
			"not checked: driven " + driven + "; only ACP shows a client the tool calls", ""
	}
	if len(shown) == 0 {
		return RuleIDsShown, runner.Skip, "not checked: the agent showed the client no tool call's text", ""
	}
	var withID []string
	for _, r := range sent {
		if strings.HasPrefix(r, "[#") {
			withID = append(withID, r)
		}
	}
	if len(withID) == 0 {
		return RuleIDsShown, runner.Skip,
			fmt.Sprintf("not checked: none of the %d tool results the model was sent begins with an id bracket [#",
				len(sent)), ""
	}
	var wrong []string
	paired := 0
	for _, s := range shown {
		var brackets []string
		for _, r := range withID {
			head, body, _ := strings.Cut(r, "\n")
			if s.Text == r || len(body) >= minBody && strings.Contains(s.Text, body) {
				brackets = append(brackets, head)
			}
		}
		if len(brackets) == 0 {
			continue
		}
		paired++
		if !containsAny(s.Text, brackets) {
			first, _, _ := strings.Cut(s.Text, "\n")
			wrong = append(wrong, fmt.Sprintf("tool call %s shows a result the model was sent as %s without that id: "+
				"it begins %s", s.ToolCallID, format.Quote([]byte(brackets[0])), format.Quote([]byte(first))))
		}
	}
	switch {
	case len(wrong) > 0:
		return RuleIDsShown, runner.Fail, fmt.Sprintf("%d of %d tool results shown to the client: %s", len(wrong),
			paired, strings.Join(wrong, "; ")), ""
	case paired == 0:
		return RuleIDsShown, runner.Skip, fmt.Sprintf("not checked: none of the %d tool-call texts shown to the "+
			"client is a result the model was sent", len(shown)), ""
	}
	return RuleIDsShown, runner.Pass, fmt.Sprintf("%d tool results shown to the client carry the ids the model was "+
		"sent (of %d shown texts, %d results with an id)", paired, len(shown), len(withID)), ""
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
