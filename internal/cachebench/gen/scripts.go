package gen

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/harness/prefix"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// The small recordings: one conversation of a coding session, driven through harness/prefix (the
// reference for what each request sends), kept whole or broken on purpose.
var systemPrompt = `You are LLeMbas, a careful coding agent working in the user's repository.

Read before you edit. Keep changes small and explain them briefly. Run the tests after a change.
Never invent file contents: read them. When a command fails, read its output before trying again.
Prefer the project's own scripts to ad-hoc commands, and leave the tree as clean as you found it.`

func baseTools() []json.RawMessage {
	return []json.RawMessage{
		Tool("read", "Read a file of the workspace, with line numbers.", "path"),
		Tool("edit", "Replace an exact text of a file with another.", "path", "old", "new"),
		Tool("bash", "Run a shell command in the workspace and return its output.", "command"),
	}
}

const fileMain = `1: package main
2:
3: import "fmt"
4:
5: func main() {
6: 	fmt.Println(greet("world"))
7: }
8:
9: func greet(name string) string {
10: 	return "hello, " + nme
11: }`

const buildOut = `# example.com/hello
./main.go:10:21: undefined: nme
exit status 1`

// Breaks are what a script does to the prefix on purpose.
type Breaks struct {
	// DateInSystem puts the date at the head of the system prompt (the 3.0 behaviour), instead of
	// a note on the first user message of the day.
	DateInSystem bool
	// PruneAt shortens the old tool results in place on that request (compaction.prune of 1.x).
	PruneAt int
	// ToolAt adds an MCP server's tool on that request.
	ToolAt int
	// ModelAt moves the session to another model on that request.
	ModelAt int
	// Compact asks for a summary after the last turn and goes on from it.
	Compact bool
	// Interleave adds a title request after the first turn and a subagent in the middle.
	Interleave bool
	// Stream asks for streamed answers.
	Stream bool
}

// Script names the small recordings and what each does.
var Scripts = map[string]Breaks{
	"clean":          {},
	"date-in-system": {DateInSystem: true},
	"prune-results":  {PruneAt: 5},
	"tool-churn":     {ToolAt: 4},
	"model-change":   {ModelAt: 4},
	"compaction":     {Compact: true},
	"interleaved":    {Interleave: true, Stream: true},
}

// ScriptNames lists Scripts sorted.
func ScriptNames() []string {
	var out []string
	for n := range Scripts {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Start is when every small recording's session begins: a little before midnight, so the date
// changes during it.
var Start = time.Date(2026, 11, 5, 23, 58, 0, 0, time.UTC)

// WriteScript writes the named small recording.
func WriteScript(name string, w io.Writer) error {
	br, ok := Scripts[name]
	if !ok {
		return fmt.Errorf("no script %q (have %s)", name, strings.Join(ScriptNames(), ", "))
	}
	rw, err := replay.NewWriter(w, replay.Header{Created: Start, Tool: "lembas-check cachebench/gen", Source: "fake",
		Script: name})
	if err != nil {
		return err
	}
	rec := &Recorder{W: rw, Sim: cachesim.New(2), Clock: Start, Gap: 20 * time.Second}
	return play(rec, br)
}

// player is a small recording's coding session as it is played: the session, its prefix
// state (the notes the user messages carry) and the requests sent so far.
type player struct {
	rec *Recorder
	br  Breaks
	ps  *prefix.Session
	s   *Session
	n   int
}

// play drives the coding session: two turns of three requests each, with the clock passing
// midnight between them, and a compaction when the script asks for one.
func play(rec *Recorder, br Breaks) error {
	ps, err := prefix.New(prefix.Start{Date: "2026-11-05", Mode: "edit"}, []string{"read", "edit", "bash"})
	if err != nil {
		return err
	}
	pl := &player{rec: rec, br: br, ps: ps, s: &Session{Model: "qwen3-coder", Stream: br.Stream, Tools: baseTools()}}
	pl.system("2026-11-05")
	if err := pl.firstTurn(); err != nil {
		return err
	}
	// Midnight passes: the date is the clock's, said in the next user message's note (3.1), or
	// written into the system prompt (3.0).
	next := "2026-11-06"
	if err := ps.Set(prefix.Change{Date: &next}); err != nil {
		return err
	}
	pl.system(next)
	if err := pl.secondTurn(); err != nil || !br.Compact {
		return err
	}
	return pl.compact()
}

// system sets the system prompt, with the date in it when the script puts it there.
func (pl *player) system(date string) {
	text := systemPrompt
	if pl.br.DateInSystem {
		// The date where 3.0 put it, in the words of the 3.1 note (loop.json context.note.date).
		text = spec.MustRender(spec.LoopJSON().Context.Note.Date,
			map[string]string{"date": date}) + "\n\n" + systemPrompt
	}
	pl.s.System = []json.RawMessage{Msg("system", text)}
}

// send sends the session's next request with the script's break, if it falls on it, applied.
func (pl *player) send(reply Reply) error {
	pl.n++
	s, br := pl.s, pl.br
	if pl.n == br.ToolAt {
		s.Tools = append(s.Tools, Tool("mcp__tickets__search",
			"Search the ticket tracker (an MCP server that connected late).", "query"))
	}
	if pl.n == br.ModelAt {
		s.Model = "qwen3-coder-large"
		pl.ps.Model()
	}
	if br.PruneAt > 0 && pl.n == br.PruneAt {
		pruneResults(s)
	}
	m, err := pl.rec.Send(s.Body(), reply, s.Stream)
	if err != nil {
		return err
	}
	s.Msgs = append(s.Msgs, m)
	return nil
}

// user adds a user message, with the note the prefix state gives it.
func (pl *player) user(text string) error {
	req, err := pl.ps.User()
	if err != nil {
		return err
	}
	if pl.br.DateInSystem {
		req.Note = "" // the date went into the system prompt instead
	}
	if req.Note != "" {
		text += "\n\n" + req.Note
	}
	pl.s.Msgs = append(pl.s.Msgs, Msg("user", text))
	return nil
}

func (pl *player) result(id, out string) { pl.s.Msgs = append(pl.s.Msgs, Result(id, out)) }

// steps runs each step until one fails.
func steps(each ...func() error) error {
	for _, f := range each {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// firstTurn is the turn before midnight, with the title request and the subagent of an
// interleaved script.
func (pl *player) firstTurn() error {
	firstAsk := "The build fails. Find out why."
	return steps(
		func() error { return pl.user(firstAsk) },
		func() error { return pl.send(Reply{Calls: []Call{{"call_1", "bash", `{"command":"go build ./..."}`}}}) },
		func() error {
			if !pl.br.Interleave {
				return nil
			}
			// The title request: another prompt, no tools, the person's first words as they were.
			title := &Session{Model: pl.s.Model, System: []json.RawMessage{Msg("system",
				"Write a title of five words or fewer for the conversation that starts with the user's message. "+
					"Answer with the title only.")},
				Msgs: []json.RawMessage{Msg("user", firstAsk)}}
			_, err := pl.rec.Send(title.Body(), Reply{Text: "Why the build fails"}, false)
			return err
		},
		func() error {
			pl.result("call_1", buildOut)
			return pl.send(Reply{Text: "The compiler names main.go line 10. Let me read it.", Calls: []Call{{"call_2",
				"read", `{"path":"main.go"}`}}})
		},
		func() error {
			pl.result("call_2", fileMain)
			if pl.br.Interleave {
				return subagent(pl.rec)
			}
			return nil
		},
		func() error {
			return pl.send(Reply{Text: "Line 10 uses `nme`, which is not defined: it should be `name`, the parameter " +
				"of greet."})
		},
	)
}

// secondTurn is the turn after midnight: the fix, and the build checked.
func (pl *player) secondTurn() error {
	return steps(
		func() error { return pl.user("Fix it, please, and check that it builds.") },
		func() error {
			return pl.send(Reply{Calls: []Call{{"call_3", "edit", `{"path":"main.go","old":"+ nme","new":"+ name"}`}}})
		},
		func() error {
			pl.result("call_3",
				"[#0004 main.go edited]\n@@ -10 +10 @@\n-\treturn \"hello, \" + nme\n+\treturn \"hello, \" + name")
			return pl.send(Reply{Calls: []Call{{"call_4", "bash", `{"command":"go build ./... && go run ."}`}}})
		},
		func() error {
			pl.result("call_4", "hello, world")
			return pl.send(Reply{Text: "Fixed: greet now uses its parameter, and the program builds and prints " +
				"`hello, world`."})
		},
	)
}

// compact is the compaction (context.md §7, 3.1): the same prompt and tools, every message,
// then the ask; the history replaced by the summary and the table of the reads it covers; then
// the next turn.
func (pl *player) compact() error {
	s := pl.s
	c := pl.ps.Compact()
	s.Msgs = append(s.Msgs, Msg("user", c.Ask))
	summary := "## What we are doing\nFixing the build of example.com/hello; done.\n\n## Decisions\nRenamed `nme` to " +
		"`name` in greet (main.go:10): the parameter's name.\n\n## Facts established\n`go build ./...` failed with " +
		"`./main.go:10:21: undefined: nme`; after the edit it builds and prints `hello, world`.\n\n## Files " +
		"touched\nmain.go: line 10 edited.\n\n## Open threads\nNone."
	if _, err := pl.rec.Send(s.Body(), Reply{Text: summary}, s.Stream); err != nil {
		return err
	}
	lp := spec.LoopJSON().Context.Compaction
	table := lp.Heading + "\n\n" + lp.Line + "\n\n| Path | Lines | sha | Result |\n|---|---|---|---|\n| main.go | " +
		"1-11 of 11 | 5d1e2a07 | #0002 |"
	s.Msgs = []json.RawMessage{Msg("user", summary+"\n\n"+table)}
	return steps(
		func() error { return pl.user("Now add a test for greet.") },
		func() error { return pl.send(Reply{Calls: []Call{{"call_5", "read", `{"path":"main_test.go"}`}}}) },
		func() error {
			pl.result("call_5", "[main_test.go does not exist]")
			return pl.send(Reply{Text: "There is no test file yet; I will create main_test.go with a table test for " +
				"greet."})
		},
	)
}

// pruneResults shortens every tool result but the newest in place, as compaction.prune of 1.x did.
func pruneResults(s *Session) {
	last := -1
	for i, m := range s.Msgs {
		if strings.HasPrefix(string(m), `{"role":"tool"`) {
			last = i
		}
	}
	for i, m := range s.Msgs {
		if i != last && strings.HasPrefix(string(m), `{"role":"tool"`) {
			var v struct {
				ID string `json:"tool_call_id"`
			}
			json.Unmarshal(m, &v)
			s.Msgs[i] = Result(v.ID, "[Old tool result content cleared]")
		}
	}
}

// subagent runs a subagent's two requests: its own prompt, a narrower tool list, its own task.
func subagent(rec *Recorder) error {
	s := &Session{Model: "qwen3-coder", Stream: true,
		System: []json.RawMessage{Msg("system",
			"You are a subagent of LLeMbas. Explore what you are asked to, read only, and report what you found in a "+
				"few lines.")},
		Tools: []json.RawMessage{Tool("read", "Read a file of the workspace, with line numbers.", "path")},
		Msgs:  []json.RawMessage{Msg("user", "Is greet called anywhere but main.go?")}}
	m, err := rec.Send(s.Body(), Reply{Calls: []Call{{"sub_1", "read", `{"path":"go.mod"}`}}}, true)
	if err != nil {
		return err
	}
	s.Msgs = append(s.Msgs, m, Result("sub_1", "module example.com/hello\n\ngo 1.26"))
	_, err = rec.Send(s.Body(), Reply{Text: "Only main.go: the module has one package and one file."}, true)
	return err
}
