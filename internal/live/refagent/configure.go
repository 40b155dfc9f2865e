package refagent

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// configure is _lembas/configure's params as this agent reads them. The seed fixes `model` and
// `effort` (CLI src/acp/agent.ts); the rest are the person's other settings a LLeMbas client
// changes (what context.md §10 says the prompt is made from: the mode, the plan, what is
// remembered, the personality, MCP servers' instructions), lembas-check's extension of it where
// the seed names no method: each nil is left as it is.
type configure struct {
	SessionID   string             `json:"sessionId"`
	Model       string             `json:"model"`
	Effort      string             `json:"effort"`
	Mode        *string            `json:"mode"`
	Plan        *string            `json:"plan"`
	Memory      *string            `json:"memory"`
	Personality *string            `json:"personality"`
	MCP         *map[string]string `json:"mcp"`
	// MCPServers are MCP servers by name (name → URL, MCP's streamable HTTP): the agent connects
	// to each, and their instructions join MCP's (the whole set when MCP is nil).
	MCPServers map[string]string `json:"mcp_servers"`
	// Grants and Floor (path → level) and Mounts are the person's permission rules over the
	// session's boundary ("/" is the boundary), as filesystem.md's view takes them; Grants
	// present replaces the default of stage everywhere.
	Grants *map[string]string `json:"grants"`
	Floor  map[string]string  `json:"floor"`
	Mounts []string           `json:"mounts"`
	// Forge is, per mount, what the user's own forge account may do there (lembas-check's own
	// field): the level there never goes above it (filesystem.md, Access levels).
	Forge map[string]string `json:"forge"`
	// Files are instruction texts by path or heading (the whole set; {} for none), after those the
	// session reads from disk.
	Files *map[string]string `json:"files"`
	// Met is what the session meets now of what it could (`display`: the client shows files), as
	// harness/prefix takes it; nil leaves it.
	Met *[]string `json:"met"`
	// Cap is the cap on a result's output in place of loop.json's (a conformance case's
	// `limits`), fixed when the session starts.
	Cap *spec.Cap `json:"cap"`
	// Job is a background job of the session that ended (its note is given at the next step).
	Job *jobRecord `json:"job"`
	// Index is what the session's search index holds for the next query, before its first turn.
	Index *[]indexPassage `json:"index"`
	// Steps is the step limit of the turn running or the next one: after so many rounds of calls
	// its last request is the wrap-up (loop.json wrap_up).
	Steps *int `json:"steps"`
	// PlanAnswer is how the person answers the session's next plans where the agent cannot ask
	// the client (A2A, which has no request from agent to client): _lembas/plan's answer, ahead.
	PlanAnswer *planAnswer `json:"plan_answer"`
}

// levels parses a path → level map; a bad level is -32602 naming it.
func levels(field string, m map[string]string) (map[string]fsaccess.Level, error) {
	out := map[string]fsaccess.Level{}
	for p, l := range m {
		lv, err := fsaccess.ParseLevel(l)
		if err != nil {
			return nil, &sdk.RequestError{Code: -32602, Message: fmt.Sprintf("%s[%q]: %v", field, p, err)}
		}
		out[p] = lv
	}
	return out, nil
}

// setAccess applies the permission rules; the view is checked now, so that rules it cannot be
// made of are refused here and not at the first call. Called with mu held.
func (s *session) setAccess(c configure) error {
	if c.Grants == nil && c.Floor == nil && c.Mounts == nil && c.Forge == nil {
		return nil
	}
	a := &access{grants: map[string]fsaccess.Level{"/": fsaccess.Stage}, mounts: c.Mounts}
	var err error
	if c.Grants != nil {
		if a.grants, err = levels("grants", *c.Grants); err != nil {
			return err
		}
	}
	if a.floor, err = levels("floor", c.Floor); err != nil {
		return err
	}
	if a.forge, err = levels("forge", c.Forge); err != nil {
		return err
	}
	d := s.disk
	d.access = a
	if _, err := d.view(); err != nil {
		return &sdk.RequestError{Code: -32602, Message: "the permission rules: " + err.Error()}
	}
	s.disk = d
	return nil
}

// configure applies the person's settings: before the session's first turn they are what it
// starts with (its prompt is made from them); after, the next user message's note says each
// change (harness/prefix) and the prompt keeps its bytes until it is made again.
func (s *session) configure(c configure) (map[string]any, error) {
	if c.Model != "" {
		s.moveModel(c.Model)
	}
	if c.Mode != nil {
		if err := s.setMode(*c.Mode); err != nil {
			return nil, &sdk.RequestError{Code: -32602, Message: "mode: " + err.Error()}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.setAccess(c); err != nil {
		return nil, err
	}
	if c.Cap != nil {
		if s.started {
			return nil, &sdk.RequestError{Code: -32602,
				Message: "cap: the cap is fixed when the session starts, and it has"}
		}
		s.cap = c.Cap
	}
	if err := s.setSettings(c); err != nil {
		return nil, err
	}
	if c.Index != nil {
		if err := s.setIndex(*c.Index); err != nil {
			return nil, err
		}
	}
	if c.Steps != nil {
		s.steps = *c.Steps
	}
	if c.PlanAnswer != nil {
		s.planAnswer = c.PlanAnswer
	}
	if c.Job != nil {
		if err := s.jobEnded(*c.Job); err != nil {
			return nil, err
		}
	}
	if c.Files != nil {
		s.given = maps.Clone(*c.Files)
		if s.started {
			if err := s.filesChanged(false); err != nil {
				return nil, &sdk.RequestError{Code: -32602, Message: err.Error()}
			}
		}
	}
	return map[string]any{"model": s.model, "effort": c.Effort, "mode": s.mode}, nil
}

// setSettings applies the plan, memory, personality, MCP instructions and what is met: after the
// first turn harness/prefix takes the change first (the next note says it), and a change it
// refuses leaves the session as it was. Called with mu held.
func (s *session) setSettings(c configure) error {
	ch := prefix.Change{Plan: c.Plan, Memory: c.Memory, Personality: c.Personality}
	if c.Met != nil {
		ch.Met = append([]string{}, *c.Met...)
	}
	if c.MCP != nil {
		ch.MCP = maps.Clone(*c.MCP)
		if ch.MCP == nil {
			ch.MCP = map[string]string{}
		}
	}
	if s.started && (ch.Plan != nil || ch.Memory != nil || ch.Personality != nil || ch.MCP != nil || ch.Met != nil) {
		if err := s.prefix.Set(ch); err != nil {
			return &sdk.RequestError{Code: -32602, Message: err.Error()}
		}
	}
	if ch.Met != nil {
		s.met = ch.Met
	}
	if c.Plan != nil {
		s.plan = *c.Plan
	}
	if c.Memory != nil {
		s.memory = *c.Memory
	}
	if c.Personality != nil {
		s.personality = *c.Personality
	}
	if ch.MCP != nil {
		s.mcp = maps.Clone(ch.MCP)
	}
	return nil
}

// settingsBlocks are the system prompt's blocks of the person's settings, made with the prompt:
// what is remembered, the personality, each MCP server's instructions by name. Called with mu held.
func (s *session) settingsBlocks(b *strings.Builder) {
	if s.memory != "" {
		b.WriteString("\n# Memory\n" + s.memory + "\n")
	}
	if s.personality != "" {
		b.WriteString("\n# Personality\n" + s.personality + "\n")
	}
	names := slices.Collect(maps.Keys(s.mcp))
	sort.Strings(names)
	for _, n := range names {
		if t := s.mcp[n]; t != "" {
			b.WriteString("\n# Instructions from the MCP server " + n + "\n" + strings.TrimRight(t, "\n") + "\n")
		}
	}
}

func decodeConfigure(params json.RawMessage) (configure, error) {
	var c configure
	if err := json.Unmarshal(params, &c); err != nil {
		return c, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if c.MCPServers != nil {
		got, err := mcpInstructions(c.MCPServers)
		if err != nil {
			return c, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
		}
		if c.MCP != nil {
			maps.Copy(got, *c.MCP)
		}
		c.MCP = &got
	}
	return c, nil
}
