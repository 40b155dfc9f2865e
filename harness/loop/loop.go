// Package loop is the reference of area loop: the agent loop's rules of loop.json that are not the
// job registry's (harness/jobs) — the wrap-up request for a limit, how one step's tool calls are
// scheduled, whether a subagent may start beside the models already serving (capacity), how long
// the first request waits for MCP servers, and the history sent as it is (context.reasoning).
// Every text and number comes from the vendored loop.partial.json. Pure: no clock, no I/O.
package loop

import (
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// WrapUp is the one more request made when a prompt reaches a limit: the user message, the tool
// list (the session's, unchanged) and the calls of that reply that run (none).
type WrapUp struct {
	Message string
	Tools   []string
	Run     []string
}

// WrapUpFor is the wrap-up request for limit (its name as the message says it, "step limit") in a
// session offering tools; calls are the tool calls the model's reply makes, none of them run.
func WrapUpFor(limit string, tools, calls []string) WrapUp {
	msg := spec.MustRender(spec.LoopJSON().WrapUp.Message, map[string]string{"limit": limit})
	return WrapUp{Message: msg, Tools: slices.Clone(tools), Run: []string{}}
}

// Call is one tool call of a step: its tool and the file it works on ("" for none).
type Call struct {
	Tool string
	File string
}

// Limits are the numbers the scheduler keeps: at most Max calls run together.
type Limits struct{ Max int }

// DefaultLimits are loop.json's: parallel.max.
func DefaultLimits() Limits { return Limits{Max: spec.LoopJSON().Parallel.Max} }

var userTools = lazyre.New(`waits on the user \(([^)]*)\)`)

// WaitsOnUser are the tools whose call waits on the person, as parallel.about names them.
func WaitsOnUser() []string {
	m := userTools().FindStringSubmatch(spec.LoopJSON().Parallel.About)
	if m == nil {
		panic("harness/spec/files/loop.partial.json: parallel.about names no tool that waits on the user")
	}
	var out []string
	for _, t := range strings.Split(m[1], ",") {
		out = append(out, strings.TrimSpace(t))
	}
	return out
}

// Schedule is the batches one step's calls run in, each a list of indexes into calls that run
// together, the batches one after another. The calls keep the order the model gave them: a batch
// closes when it holds lim.Max calls, before a call on a file a call of the batch works on (two
// calls on one file run in order), and around a call that waits on the user (it runs alone).
func Schedule(calls []Call, lim Limits) [][]int {
	alone := WaitsOnUser()
	var out [][]int
	var cur []int
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	for i, c := range calls {
		if slices.Contains(alone, c.Tool) {
			flush()
			out = append(out, []int{i})
			continue
		}
		if len(cur) >= lim.Max || c.File != "" && slices.ContainsFunc(cur, func(j int) bool {
			return calls[j].File == c.File
		}) {
			flush()
		}
		cur = append(cur, i)
	}
	flush()
	return out
}

// Connection is a model server as capacity reads it: whether it holds one model at a time, and
// whether a model of it serves one request at a time.
type Connection struct {
	OneModel   bool
	OneRequest bool
}

// Model is a model on a connection.
type Model struct {
	Connection string
	Model      string
}

// CanStart says whether a subagent may start on model start beside the prompt's own model and the
// models of the subagents already running (capacity): not when one of them is another model of a
// connection that holds one model at a time, or the same model when it serves one request at a
// time.
func CanStart(conns map[string]Connection, prompt Model, running []Model, start Model) bool {
	for _, m := range append([]Model{prompt}, running...) {
		if m.Connection != start.Connection {
			continue
		}
		c := conns[m.Connection]
		if m.Model != start.Model && c.OneModel || m.Model == start.Model && c.OneRequest {
			return false
		}
	}
	return true
}

// Server is an MCP server the session is configured with, and when it connects (ms from the
// session's start; Never: it does not).
type Server struct {
	Name      string
	ConnectMS int
	Never     bool
}

// FirstRequest is when the first request goes (ms from the start) and the servers whose tools it
// lists: it waits up to context.mcp_wait_ms for the servers, and goes as soon as all have
// connected. A server connected at the wait's last millisecond is in; a later one adds its tools
// when it connects, the rest of them in Later in the order they connect.
func FirstRequest(servers []Server, waitMS int) (at int, with, later []string) {
	for _, s := range servers {
		if s.Never || s.ConnectMS > waitMS {
			at = waitMS
		} else {
			at = max(at, s.ConnectMS)
		}
	}
	var late []Server
	for _, s := range servers {
		switch {
		case !s.Never && s.ConnectMS <= at:
			with = append(with, s.Name)
		case !s.Never:
			late = append(late, s)
		}
	}
	slices.SortStableFunc(late, func(a, b Server) int { return a.ConnectMS - b.ConnectMS })
	for _, s := range late {
		later = append(later, s.Name)
	}
	return at, with, later
}

// MCPWaitMS is loop.json's context.mcp_wait_ms.
func MCPWaitMS() int { return spec.LoopJSON().Context.MCPWaitMS }

// Turn is one message of a session's history as the harness recorded it.
type Turn struct {
	Role      string
	Content   string
	Reasoning *string
}

// History is what the next request sends of the earlier turns: the history as it is
// (context.reasoning: the chat template decides what reasoning it keeps, not the harness).
func History(turns []Turn) []Turn { return slices.Clone(turns) }
