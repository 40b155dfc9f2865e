package prefix

import (
	"fmt"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

var (
	orderOnce sync.Once
	order     []string
)

// noteOrder is spec.NoteOrder, read once: it parses loop.json each time it is called.
func noteOrder() []string {
	orderOnce.Do(func() { order = spec.NoteOrder() })
	return order
}

// ChatBlocks are the note's blocks only a chat says (loop.json context.note.about: plan_ended
// "for a session that leaves plan mode for a mode with no text of its own (a chat)", plan_own
// "for a session that does not resend earlier tool results (a chat)"); a Session started with
// Start.Chat says them in place of the mode and plan blocks.
var ChatBlocks = []string{"plan_ended", "plan_own"}

// Note is the note the next user message would carry now, without sending it: each change the
// model does not know of is one block, in the order loop.json context.note lists them, the blocks
// separated by a blank line inside the note's open and close lines; "" when nothing changed.
func (s *Session) Note() (string, error) {
	n := spec.LoopJSON().Context.Note
	var blocks []string
	add := func(tmpl string, vars map[string]string) error {
		b, err := spec.Render(tmpl, vars)
		blocks = append(blocks, b)
		return err
	}
	orEmpty := func(v string) string {
		if v == "" {
			return n.Empty
		}
		return v
	}
	for _, key := range noteOrder() {
		var err error
		switch key {
		case "date":
			if s.date != s.knownDate {
				err = add(n.Date, map[string]string{"date": s.date})
			}
		case "mode":
			if s.now.mode != s.known.mode && !s.planEnded() {
				var text string
				if text, err = ModeText(s.now.mode); err == nil {
					err = add(n.Mode, map[string]string{"mode": s.now.mode, "mode_text": text})
				}
			}
		case "plan_ended":
			if s.planEnded() {
				err = add(n.PlanEnded, nil)
			}
		case "plan":
			if s.now.plan != s.known.plan && !s.ownPlan {
				err = add(n.Plan, map[string]string{"plan": orEmpty(s.now.plan)})
			}
		case "plan_own":
			if s.now.plan != s.known.plan && s.ownPlan {
				err = add(n.PlanOwn, map[string]string{"plan": orEmpty(s.now.plan)})
			}
		case "memory":
			if s.now.memory != s.known.memory {
				err = add(n.Memory, map[string]string{"memory": orEmpty(s.now.memory)})
			}
		case "instructions":
			for _, p := range changedKeys(s.known.files, s.now.files) {
				if err = add(n.Instr, map[string]string{"path": p, "text": orEmpty(s.now.files[p])}); err != nil {
					break
				}
			}
		case "personality":
			if s.now.personality != s.known.personality {
				err = add(n.Personality, map[string]string{"personality": orEmpty(s.now.personality)})
			}
		case "mcp":
			err = s.mcpBlocks(add)
		default:
			err = fmt.Errorf("loop.json context.note lists a block %q this reference has no rule for", key)
		}
		if err != nil {
			return "", fmt.Errorf("note, %s block: %w", key, err)
		}
	}
	if len(blocks) == 0 {
		return "", nil
	}
	return n.Open + "\n" + strings.Join(blocks, "\n\n") + "\n" + n.Close, nil
}

// planEnded: a chat left plan mode, for a mode with no text of its own (every chat mode but plan),
// and the model does not know it yet — the mode block is then plan_ended.
func (s *Session) planEnded() bool {
	return s.chat && s.known.mode == PlanMode && s.now.mode != PlanMode
}

// ModeText is the body of the mode block: modes/<mode>.md with its variables filled. The seed
// carries plan's alone (extra/prefix.json mode.plan, filled with mode.plan.plan_dir); for any other
// mode this is an error naming the missing file, never a made-up text.
func ModeText(mode string) (string, error) {
	t, ok := spec.Extras().Texts["mode."+mode]
	if !ok || mode == "" || strings.Contains(mode, ".") {
		return "", fmt.Errorf("no vendored text for mode %q: the note's body is prompts/modes/%s.md, which the seed "+
			"does not carry (harness/spec/extra has mode.%s only)", mode, mode, PlanMode)
	}
	return spec.Render(t.Text, map[string]string{"plan_dir": spec.Text("mode.plan.plan_dir")})
}

// mcpBlocks adds one block per server whose instructions arrived: a server gone, or one with none,
// says nothing.
func (s *Session) mcpBlocks(add func(tmpl string, vars map[string]string) error) error {
	for _, name := range changedKeys(s.known.mcp, s.now.mcp) {
		text := s.now.mcp[name]
		if text == "" {
			continue
		}
		server, err := spec.Render(spec.Text("note.mcp_server"), map[string]string{"name": name,
			"instructions": text})
		if err != nil {
			return err
		}
		if err = add(spec.LoopJSON().Context.Note.MCP, map[string]string{"instructions": server}); err != nil {
			return err
		}
	}
	return nil
}
