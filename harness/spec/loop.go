package spec

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// Loop is the part of loop.json the seed shows whole (loop.partial.json): the wrap-up, parallel
// calls, capacity, background jobs and context hygiene.
type Loop struct {
	WrapUp struct {
		About   string `json:"about"`
		Message string `json:"message"`
	} `json:"wrap_up"`
	Parallel struct {
		About string `json:"about"`
		Max   int    `json:"max"`
	} `json:"parallel"`
	Capacity string  `json:"capacity"`
	Jobs     Jobs    `json:"jobs"`
	Context  Context `json:"context"`
}

// Default is a number with its explanation (loop.json's `{about, default}` pairs).
type Default struct {
	About   string `json:"about"`
	Default int    `json:"default"`
}

// Jobs is loop.json `jobs`.
type Jobs struct {
	About string `json:"about"`
	Marks struct {
		Command    string `json:"command"`
		Subagent   string `json:"subagent"`
		Message    string `json:"message"`
		ToSubagent string `json:"to_subagent"`
	} `json:"marks"`
	NoteTailChars Default `json:"note_tail_chars"`
	FinishedKept  Default `json:"finished_kept"`
	RunningMax    Default `json:"running_max"`
	SubagentSteps Default `json:"subagent_steps"`
	Lifecycle     string  `json:"lifecycle"`
}

// Cap is loop.json `context.cap`: the limits of a result kept on the way in.
type Cap struct {
	MaxLines  int `json:"max_lines"`
	MaxChars  int `json:"max_chars"`
	HeadLines int `json:"head_lines"`
	HeadChars int `json:"head_chars"`
	TailLines int `json:"tail_lines"`
	TailChars int `json:"tail_chars"`
}

// Context is loop.json `context`.
type Context struct {
	About string `json:"about"`
	IDs   struct {
		About  string `json:"about"`
		Digits int    `json:"digits"`
	} `json:"ids"`
	ReadHeader      string `json:"read_header"`
	ReadHeaderEmpty string `json:"read_header_empty"`
	EditHeader      string `json:"edit_header"`
	Header          string `json:"header"`
	Unchanged       string `json:"unchanged"`
	SameResult      string `json:"same_result"`
	Elided          string `json:"elided"`
	Created         string `json:"created"`
	NoResult        string `json:"no_result"`
	RecallHeader    string `json:"recall_header"`
	SHADigits       int    `json:"sha_digits"`
	Cap             struct {
		About string `json:"about"`
		Cap
	} `json:"cap"`
	Dedupe struct {
		About    string   `json:"about"`
		ByHash   []string `json:"by_hash"`
		ByResult []string `json:"by_result"`
	} `json:"dedupe"`
	Compaction struct {
		About   string `json:"about"`
		Heading string `json:"heading"`
		Line    string `json:"line"`
		Rows    int    `json:"rows"`
	} `json:"compaction"`
	Reasoning string `json:"reasoning"`
	Note      Note   `json:"note"`
	MCPWaitMS int    `json:"mcp_wait_ms"`
}

// Note is loop.json `context.note`: the session note's frame and its blocks.
type Note struct {
	About       string `json:"about"`
	Open        string `json:"open"`
	Close       string `json:"close"`
	Date        string `json:"date"`
	Mode        string `json:"mode"`
	PlanEnded   string `json:"plan_ended"`
	Plan        string `json:"plan"`
	PlanOwn     string `json:"plan_own"`
	Memory      string `json:"memory"`
	Instr       string `json:"instructions"`
	Personal    string `json:"personal"`
	Personality string `json:"personality"`
	MCP         string `json:"mcp"`
	Empty       string `json:"empty"`
}

var (
	loopOnce sync.Once
	loop     Loop
)

// LoopJSON is the decoded loop.partial.json: the table `go generate` wrote of it (decoded.go;
// TestDecodedIsRead holds the two equal), so a process decodes no JSON for it.
func LoopJSON() *Loop {
	loopOnce.Do(func() { loop = decodedLoop() })
	return &loop
}

// readLoop decodes loop.partial.json, which decoded.go is made of.
func readLoop() Loop {
	var l Loop
	if err := json.Unmarshal(loopBytes(), &l); err != nil {
		panic(fmt.Sprintf("harness/spec/files/loop.partial.json: %v", err))
	}
	return l
}

func loopBytes() []byte {
	b, err := fs.ReadFile(Files, "loop.partial.json")
	if err != nil {
		panic(err)
	}
	return b
}

// NoteOrder is the order of the note's blocks: the keys of loop.json `context.note` between
// `close` and `empty` as the file lists them ("in the order context.note lists them", context.md
// §10 rule 3). Read from the file's own key order, not restated here (decoded.go holds what
// readNoteOrder reads).
func NoteOrder() []string { return decodedNoteOrder() }

func readNoteOrder() []string {
	var raw struct {
		Context struct {
			Note json.RawMessage `json:"note"`
		} `json:"context"`
	}
	if err := json.Unmarshal(loopBytes(), &raw); err != nil {
		panic(err)
	}
	keys, err := objectKeys(raw.Context.Note)
	if err != nil {
		panic(err)
	}
	var out []string
	for _, k := range keys {
		switch k {
		case "about", "open", "close", "empty", "personal":
			continue // the frame, the empty value and a {{path}} value: not blocks
		}
		out = append(out, k)
	}
	return out
}

// objectKeys lists a JSON object's keys in the order they are written.
func objectKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Tool is what lembas-check reads of a tool: its name, what it requires and what a call answers
// while that is not met.
type Tool struct {
	Name        string   `json:"name"`
	Scope       string   `json:"scope"`
	Sessions    string   `json:"sessions"`
	Requires    []string `json:"requires"`
	Unavailable string   `json:"unavailable"`
	// Whole is false for a tool the seed shows only in part (its requires come from extra/tools.json).
	Whole bool `json:"-"`
}

var (
	toolsOnce sync.Once
	tools     map[string]Tool
)

// Tools is every tool the vendored spec knows whole (tools/*.json) plus the parts extra/tools.json
// carries of the others.
func Tools() map[string]Tool {
	toolsOnce.Do(func() { tools = decodedTools() })
	return tools
}

// readTools decodes tools/*.json and adds extra/'s partly shown tools, which decoded.go is made
// of.
func readTools() map[string]Tool {
	out := map[string]Tool{}
	entries, err := fs.ReadDir(Files, "tools")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(Files, "tools/"+e.Name())
		if err != nil {
			panic(err)
		}
		var t Tool
		if err := json.Unmarshal(b, &t); err != nil {
			panic(fmt.Sprintf("harness/spec/files/tools/%s: %v", e.Name(), err))
		}
		t.Whole = true
		out[t.Name] = t
	}
	for name, x := range readExtras().Tools {
		if _, dup := out[name]; dup {
			panic(fmt.Sprintf("harness/spec/extra: tool %s is vendored whole; take it from tools/", name))
		}
		out[name] = Tool{Name: name, Requires: x.Requires, Unavailable: x.Unavailable}
	}
	return out
}

// ToolNames is Tools' names, sorted.
func ToolNames() []string {
	var out []string
	for n := range Tools() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
