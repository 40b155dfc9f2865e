package refagent

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/prefix"
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
	ch := prefix.Change{Plan: c.Plan, Memory: c.Memory, Personality: c.Personality}
	if c.Plan != nil {
		s.plan = *c.Plan
	}
	if c.Memory != nil {
		s.memory = *c.Memory
	}
	if c.Personality != nil {
		s.personality = *c.Personality
	}
	if c.MCP != nil {
		s.mcp = maps.Clone(*c.MCP)
		ch.MCP = maps.Clone(*c.MCP)
		if ch.MCP == nil {
			ch.MCP = map[string]string{}
		}
	}
	if s.started && (ch.Plan != nil || ch.Memory != nil || ch.Personality != nil || ch.MCP != nil) {
		if err := s.prefix.Set(ch); err != nil {
			return nil, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
		}
	}
	return map[string]any{"model": s.model, "effort": c.Effort, "mode": s.mode}, nil
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
	return c, nil
}
