package conformance

import (
	"github.com/LLeMbas/lembas-check/harness/jobs"
	"github.com/LLeMbas/lembas-check/harness/loop"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Loop is cases/loop.json: loop.json's rules of the agent loop — the wrap-up request, one step's
// calls run together, capacity, the wait for MCP servers, the history sent as it is, and the job
// registry (ids, the running and kept limits, the note's tail, the backstop, the lifecycle).
var Loop = Define("loop", "lembas-check",
	"the agent loop's rules of loop.json: the wrap-up request for a limit, how one step's tool calls run, "+
		"whether a subagent may start (capacity), the first request's wait for MCP servers, the history "+
		"sent as it is, and the job registry a session's background work lives in",
	answerLoop).WithSteps(steps.Loop)

// answerLoop is the reference with loop.json's numbers, read when a case is answered: reading them
// at init would parse the spec in every lembas-check start.
func answerLoop(c loopCase) (loopAnswer, error) {
	return loopReference(jobs.DefaultLimits(), loop.DefaultLimits(), loop.MCPWaitMS())(c)
}

// loopCase is one question; Op says which, the other fields are its.
type loopCase struct {
	About string `json:"about,omitempty"`
	Op    string `json:"op"`
	// wrap_up: the limit reached (as the message names it), the session's tools, the reply's calls.
	Limit *string  `json:"limit,omitempty"`
	Tools []string `json:"tools,omitempty"`
	Calls []string `json:"calls,omitempty"`
	// parallel: one step's calls.
	Step []loopCall `json:"step,omitempty"`
	// capacity: the connections, the prompt's model, the running subagents' and the one to start.
	Connections map[string]loopConnection `json:"connections,omitempty"`
	Prompt      *loopModel                `json:"prompt,omitempty"`
	Running     []loopModel               `json:"running,omitempty"`
	Start       *loopModel                `json:"start,omitempty"`
	// mcp: the servers the session is configured with.
	Servers []loopServer `json:"servers,omitempty"`
	// history: the session's turns as recorded.
	Turns []loopTurn `json:"turns,omitempty"`
	// jobs: what happens to the session's jobs, in order.
	Events []loopEvent `json:"events,omitempty"`
}

type loopCall struct {
	Tool string `json:"tool"`
	File string `json:"file,omitempty"`
	// Fails: the tool answers an error.
	Fails bool `json:"fails,omitempty"`
}

type loopConnection struct {
	OneModel   bool `json:"one_model"`
	OneRequest bool `json:"one_request"`
}

type loopModel struct {
	Connection string `json:"connection"`
	Model      string `json:"model"`
}

type loopServer struct {
	Name string `json:"name"`
	// ConnectMS is when it connects, from the session's start; Never: it does not.
	ConnectMS int  `json:"connect_ms,omitempty"`
	Never     bool `json:"never,omitempty"`
}

type loopTurn struct {
	Role      string  `json:"role"`
	Content   string  `json:"content"`
	Reasoning *string `json:"reasoning,omitempty"`
}

type loopEvent struct {
	Op       string `json:"op"`
	Kind     string `json:"kind,omitempty"`
	By       string `json:"by,omitempty"`
	Job      string `json:"job,omitempty"`
	Text     string `json:"text,omitempty"`
	Times    int    `json:"times,omitempty"`
	N        int    `json:"n,omitempty"`
	Finished bool   `json:"finished,omitempty"`
}

// loopAnswer is exactly one of its fields, the one of the case's op.
type loopAnswer struct {
	WrapUp   *loopWrapUp    `json:"wrap_up,omitempty"`
	Parallel *loopParallel  `json:"parallel,omitempty"`
	Start    *bool          `json:"start,omitempty"`
	MCP      *loopMCP       `json:"mcp,omitempty"`
	Sent     *[]loopTurn    `json:"sent,omitempty"`
	Results  *[]jobs.Result `json:"results,omitempty"`
}

type loopWrapUp struct {
	Message string   `json:"message"`
	Tools   []string `json:"tools"`
	Run     []string `json:"run"`
}

// loopParallel is the batches the step's calls run in (indexes into step, each batch together,
// one after another) and whether the prompt goes on to its next step.
type loopParallel struct {
	Batches  [][]int `json:"batches"`
	NextStep bool    `json:"next_step"`
}

// loopMCP is when the first request goes, the servers whose tools it lists, and the servers that
// add theirs later, in the order they connect.
type loopMCP struct {
	FirstRequestMS int      `json:"first_request_ms"`
	With           []string `json:"with"`
	Later          []string `json:"later"`
}

func loopReference(jl jobs.Limits, pl loop.Limits, waitMS int) func(loopCase) (loopAnswer, error) {
	return func(c loopCase) (loopAnswer, error) {
		switch c.Op {
		case "wrap_up":
			w := loop.WrapUpFor(*c.Limit, c.Tools, c.Calls)
			return loopAnswer{WrapUp: &loopWrapUp{Message: w.Message, Tools: nonNil(w.Tools), Run: w.Run}}, nil
		case "parallel":
			calls := make([]loop.Call, len(c.Step))
			for i, s := range c.Step {
				calls[i] = loop.Call{Tool: s.Tool, File: s.File}
			}
			// A failing call's error is its result: the step runs whole and the prompt goes on.
			return loopAnswer{Parallel: &loopParallel{Batches: loop.Schedule(calls, pl), NextStep: true}}, nil
		case "capacity":
			return answerCapacity(c), nil
		case "mcp":
			return answerMCP(c, waitMS), nil
		case "history":
			return answerHistory(c), nil
		}
		events := make([]jobs.Event, len(c.Events))
		for i, e := range c.Events {
			events[i] = jobs.Event(e)
		}
		res := jobs.Run(jl, events)
		return loopAnswer{Results: &res}, nil
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func answerCapacity(c loopCase) loopAnswer {
	conns := map[string]loop.Connection{}
	for k, v := range c.Connections {
		conns[k] = loop.Connection(v)
	}
	running := make([]loop.Model, len(c.Running))
	for i, m := range c.Running {
		running[i] = loop.Model(m)
	}
	ok := loop.CanStart(conns, loop.Model(*c.Prompt), running, loop.Model(*c.Start))
	return loopAnswer{Start: &ok}
}

func answerMCP(c loopCase, waitMS int) loopAnswer {
	servers := make([]loop.Server, len(c.Servers))
	for i, s := range c.Servers {
		servers[i] = loop.Server(s)
	}
	at, with, later := loop.FirstRequest(servers, waitMS)
	return loopAnswer{MCP: &loopMCP{FirstRequestMS: at, With: nonNil(with), Later: nonNil(later)}}
}

func answerHistory(c loopCase) loopAnswer {
	turns := make([]loop.Turn, len(c.Turns))
	for i, t := range c.Turns {
		turns[i] = loop.Turn(t)
	}
	sent := []loopTurn{}
	for _, t := range loop.History(turns) {
		sent = append(sent, loopTurn(t))
	}
	return loopAnswer{Sent: &sent}
}
