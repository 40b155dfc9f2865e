package live

import "github.com/LLeMbas/lembas-check/runner"

// evidence is what a verdict rests on, for `live -v` (runner.Result.Evidence): a pass's own
// message, which says what was compared and where a note was found. Whatever else a verdict
// says is its Message.
func evidence(v runner.Verdict, msg string) string {
	if v != runner.Pass {
		return ""
	}
	return msg
}
