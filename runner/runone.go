package runner

import "context"

// RunOne runs one work item against a started target, as Run does for each: answers names the
// areas the target said it answers (others are skipped), expect its known failures. It is what
// runnertest's subtests call, one item each.
func RunOne(ctx context.Context, t Target, it Item, answers map[string]bool, expect *Expectations) Result {
	return runOne(ctx, t, it, answers, expect)
}
