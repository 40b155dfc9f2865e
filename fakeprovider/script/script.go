// Package script is what the fake provider answers: an ordered list of replies, rules that pick a
// reply from the request, and a default policy that drives an agent it knows nothing about ("call
// the offered file-read tool on FILE, then answer TEXT"). docs/fakeprovider.md documents the
// format; Parse reads it strictly, naming the line of any mistake.
package script

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Script is a parsed script.
type Script struct {
	// Name is the file it came from, for messages.
	Name string
	// Models are the model ids the fake serves; empty leaves it to the server's default.
	Models  []string
	Replies []Reply
	Rules   []Rule
	// Default answers once the replies are used up (and no rule matched); nil: a request then
	// gets a 500 saying the script ran out.
	Default *Policy
	// Compaction is the summary POST /v1/responses/compact gives back ("": a default).
	Compaction string
}

// Policy is "for the person's latest words, call the agent's file-read tool on Read, then on
// each of Then, one call per tool result come back; then answer Answer".
type Policy struct {
	Read, Answer string
	Line         int
	// Then are more files to read after Read (a profile's policy: several calls per prompt).
	Then []string
	// Tools are the agent's own ways of reading a file (its profile's), tried in order before
	// the read tool found by its name: for a tool whose path is nested (cline's read_files) or
	// that only runs commands (codex's exec_command).
	Tools []ToolShape
	// Dir, when set, makes every path absolute under it, for agents that refuse relative ones.
	Dir string
}

// ToolShape is one tool that reads a file: its name, and its arguments as JSON in which the
// strings "{path}" and "{qpath}" (the path quoted for a POSIX shell) stand for the file — or,
// for a custom tool, its free-form Input, in which they stand for the file JSON-escaped (so that
// "{path}" may sit inside a string literal: codex's exec runs JavaScript).
type ToolShape struct {
	Name      string
	Arguments json.RawMessage
	Input     string
}

// Default is what the fake serves without a script: read README.md, then say done.
func Default() *Script {
	return &Script{Name: "(default policy)", Default: &Policy{Read: "README.md", Answer: "done"}}
}

// Reply is one scripted answer, or a fault in its place.
type Reply struct {
	// Line is where it stands in the script.
	Line      int
	Text      string
	Reasoning string
	ToolCalls []wire.ToolCall
	// Read calls the offered file-read tool, whatever the agent named it, on this path.
	Read         string
	FinishReason string
	// Chunk is the characters a stream delta carries (0: a word each).
	Chunk int
	// Delay comes before the first byte, Interval between chunks; KeepAlive, when set, sends an
	// SSE comment (": keep-alive") at that period while a stream waits.
	Delay, Interval, KeepAlive time.Duration
	Fault                      *Fault
}

// Fault is what goes wrong instead of, or in the middle of, a reply.
type Fault struct {
	// Status answers with this HTTP status and an OpenAI-style error body, and no reply.
	Status                     int
	Message, Type, Param, Code string
	// RetryAfter is the Retry-After header's value, as written.
	RetryAfter string
	// Drop cuts the connection after DropAfter chunks (0: before any byte).
	Drop      bool
	DropAfter int
	// MalformedAt sends that chunk (from 1) cut short, not valid JSON; 0: none.
	MalformedAt int
	// Stall stops the stream after StallAfter chunks, for Stall or, with StallForever, until the
	// client hangs up.
	Stall        time.Duration
	StallForever bool
	StallAfter   int
	// ErrorAfter, with Status, sends that many events of a stream, then the error as the API
	// sends one in the middle of a stream (Anthropic's `event: error`); 0: the error instead of
	// the answer. A non-streamed request gets the error at once.
	ErrorAfter int
}

// Stalls says whether the fault stalls the stream.
func (f *Fault) Stalls() bool { return f != nil && (f.Stall > 0 || f.StallForever) }

// Rule serves its reply to a request that matches all its conditions.
type Rule struct {
	Line int
	// ToolResult: the last message is (true) or is not (false) a tool result.
	ToolResult *bool
	// ToolResults: the request holds exactly this many tool results (the agent's Nth round).
	ToolResults *int
	// ToolOffered: a tool of this name is offered.
	ToolOffered string
	// UserMatches: the last user message's text matches.
	UserMatches *regexp.Regexp
	// InputMatches: the text of the whole input matches (every message, the turns a Responses
	// request continues included).
	InputMatches *regexp.Regexp
	// Times is how often the rule may fire; 0: every time it matches.
	Times int
	Reply Reply
}

// Matches says whether a request meets the rule's conditions.
func (r *Rule) Matches(q *wire.Request) bool {
	if r.ToolResult != nil && *r.ToolResult != q.LastIsToolResult {
		return false
	}
	if r.ToolResults != nil && *r.ToolResults != q.ToolResults {
		return false
	}
	if r.ToolOffered != "" && !q.Offers(r.ToolOffered) {
		return false
	}
	if r.UserMatches != nil && !r.UserMatches.MatchString(q.LastUserText) {
		return false
	}
	if r.InputMatches != nil && !r.InputMatches.MatchString(q.Text()) {
		return false
	}
	return true
}

// Picker hands out a script's replies, request after request. Safe for concurrent use.
type Picker struct {
	s      *Script
	mu     sync.Mutex
	n      int
	next   int
	fired  []int
	warned bool
	// ruleSource and replySource are each rule's and reply's Pick.Source, made once: formatted
	// under mu at every request, they held the lock 64 clients wait on.
	ruleSource, replySource []string
	// spent marks a rule that has fired its times, so that the match before the lock skips it.
	spent []atomic.Bool
}

// NewPicker starts a script from its first reply.
func NewPicker(s *Script) *Picker {
	p := &Picker{s: s, fired: make([]int, len(s.Rules)), spent: make([]atomic.Bool, len(s.Rules))}
	for i, r := range s.Rules {
		p.ruleSource = append(p.ruleSource, fmt.Sprintf("rule %d (line %d)", i+1, r.Line))
	}
	for i, r := range s.Replies {
		p.replySource = append(p.replySource, fmt.Sprintf("reply %d (line %d)", i+1, r.Line))
	}
	return p
}

// Script is the script being served.
func (p *Picker) Script() *Script { return p.s }

// Pick is the reply chosen for a request.
type Pick struct {
	// N is the request's number among those the script answered, from 1.
	N int
	// Reply is the reply as written (its timing and fault).
	Reply *Reply
	// Answer is what to send: the reply with `read` turned into a call of the offered tool.
	Answer wire.Answer
	// Source says where the reply came from: "reply 3 (line 12)", "rule 1 (line 30)", "default".
	Source string
	// Warning, said once per script, is the default policy finding no tool it can use in a
	// request that offers tools: the agent is answered at once instead of being driven.
	Warning string
}

// RanOut is a request that came after the script's last reply, with no default policy.
type RanOut struct {
	Script  string
	N       int
	Replies int
}

func (e *RanOut) Error() string {
	return fmt.Sprintf("script %s ran out at request %d: its %d replies are used up, no rule matched, and it sets no "+
		"default policy (add replies, or a `default:`)", e.Script, e.N, e.Replies)
}

// NoReadTool is a `read` reply to a request that offers no tool that reads files.
type NoReadTool struct {
	Script, Source string
	N              int
	Offered        []string
}

func (e *NoReadTool) Error() string {
	off := "no tools"
	if len(e.Offered) > 0 {
		off = "tools " + strings.Join(e.Offered, ", ")
	}
	return fmt.Sprintf("script %s, request %d: %s calls the file-read tool, but the request offers %s, none of which "+
		"reads a file by path", e.Script, e.N, e.Source, off)
}

// Next picks the reply for a request: the first rule that matches (and has firings left), else
// the next reply of the list, else the default policy.
func (p *Picker) Next(q *wire.Request) (Pick, error) {
	// Which rules match is read before the lock (a pattern over the request's text, under it,
	// was work the other requests waited on): up to the first that matches and always fires. A
	// rule once spent stays spent, so skipping it here agrees with the count under the lock.
	matched := make([]bool, 0, 8)
	for i := range p.s.Rules {
		m := !p.spent[i].Load() && p.s.Rules[i].Matches(q)
		matched = append(matched, m)
		if m && p.s.Rules[i].Times == 0 {
			break
		}
	}
	p.mu.Lock()
	p.n++
	n := p.n
	var rep *Reply
	var source string
	for i, m := range matched {
		r := &p.s.Rules[i]
		if m && (r.Times == 0 || p.fired[i] < r.Times) {
			p.fired[i]++
			if r.Times != 0 && p.fired[i] >= r.Times {
				p.spent[i].Store(true)
			}
			rep, source = &r.Reply, p.ruleSource[i]
			break
		}
	}
	if rep == nil && p.next < len(p.s.Replies) {
		rep, source = &p.s.Replies[p.next], p.replySource[p.next]
		p.next++
	}
	p.mu.Unlock()
	if rep == nil {
		if p.s.Default == nil {
			return Pick{N: n}, &RanOut{Script: p.s.Name, N: n, Replies: len(p.s.Replies)}
		}
		return p.policy(q, n), nil
	}
	return p.serve(q, n, rep, source)
}

// Serve answers q with rep, a reply its caller chose itself (fakeprovider.Config.Turn: a Go
// program playing the model turn by turn), as Next answers with one it picked: calls without an
// id get one, a `read` becomes a call of the offered read tool.
func (p *Picker) Serve(q *wire.Request, rep *Reply, source string) (Pick, error) {
	p.mu.Lock()
	p.n++
	n := p.n
	p.mu.Unlock()
	return p.serve(q, n, rep, source)
}

func (p *Picker) serve(q *wire.Request, n int, rep *Reply, source string) (Pick, error) {
	a := wire.Answer{Text: rep.Text, Reasoning: rep.Reasoning, FinishReason: rep.FinishReason, Chunk: rep.Chunk}
	for i, c := range rep.ToolCalls {
		if c.ID == "" {
			c.ID = callID(n, i)
		}
		a.ToolCalls = append(a.ToolCalls, c)
	}
	if rep.Read != "" {
		t, ok := FindReadTool(q.Tools)
		if !ok {
			return Pick{N: n, Reply: rep, Source: source}, &NoReadTool{Script: p.s.Name, Source: source, N: n,
				Offered: toolNames(q.Tools)}
		}
		a.ToolCalls = append(a.ToolCalls, wire.ToolCall{ID: callID(n, len(a.ToolCalls)), Name: t.Name,
			Arguments: readArgs(t, rep.Read)})
	}
	return Pick{N: n, Reply: rep, Answer: a, Source: source}, nil
}

// policy is the default policy's answer to request n.
func (p *Picker) policy(q *wire.Request, n int) Pick {
	d := p.s.Default
	pick := Pick{N: n, Reply: &Reply{}, Source: "default", Answer: wire.Answer{Text: d.Answer}}
	files := append([]string{d.Read}, d.Then...)
	// The calls in a row come from the request itself, never from what the server answered
	// before: an agent that adds a user message after each tool result (a reminder) still gets
	// its answer, and the same request gets the same answer under any concurrency.
	k := q.ResultsSinceUser
	if k >= len(files) || q.CallsInARow >= len(files) {
		return pick
	}
	if c, ok := d.call(q.Tools, d.path(files[k])); ok {
		c.ID = callID(n, 0)
		pick.Answer = wire.Answer{ToolCalls: []wire.ToolCall{c}}
		return pick
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(q.Tools) > 0 && !p.warned {
		p.warned = true
		pick.Warning = fmt.Sprintf("request %d offers the tools %s, and the default policy can use none of them to "+
			"read a file: the agent is answered %q at once, not driven through tool calls (give its read tool's "+
			"shape in its profile, or a script)", n, strings.Join(toolNames(q.Tools), ", "), d.Answer)
	}
	return pick
}

// path is a file as the policy names it: under Dir when the agent wants absolute paths.
func (d *Policy) path(f string) string {
	if d.Dir == "" || strings.HasPrefix(f, "/") {
		return f
	}
	return strings.TrimSuffix(d.Dir, "/") + "/" + f
}

// call is the call that reads file: with the first of the policy's shapes the request offers,
// else with the read tool found by its name.
func (d *Policy) call(tools []wire.Tool, file string) (wire.ToolCall, bool) {
	for _, sh := range d.Tools {
		for _, t := range tools {
			if t.Name == sh.Name && sh.Input != "" {
				return wire.ToolCall{Name: sh.Name, Arguments: fillPath(json.RawMessage(sh.Input), file),
					Custom: true}, true
			}
			if t.Name == sh.Name {
				return wire.ToolCall{Name: sh.Name, Arguments: fillPath(sh.Arguments, file)}, true
			}
		}
	}
	if t, ok := FindReadTool(tools); ok {
		return wire.ToolCall{Name: t.Name, Arguments: readArgs(t, file)}, true
	}
	return wire.ToolCall{}, false
}

// fillPath puts the file into a shape's arguments, every "{path}" and "{qpath}" in its strings,
// keeping the rest as written (keys in their order).
func fillPath(args json.RawMessage, file string) string {
	esc := func(s string) string {
		b, _ := jsonx.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	q := "'" + strings.ReplaceAll(file, "'", `'\''`) + "'"
	return strings.NewReplacer("{path}", esc(file), "{qpath}", esc(q)).Replace(string(args))
}

// callID names a call by the request and its place, so a recording is the same from run to run.
func callID(n, i int) string { return fmt.Sprintf("call_%d_%d", n, i) }

func toolNames(ts []wire.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// Tool names that read a file, compared without case, '_', '-' and '.', best first.
var readNames = []string{"read", "readfile", "fileread", "view", "viewfile", "cat", "openfile", "readtextfile",
	"getfile", "readfilecontent", "filereadtool", "readtool"}

// Properties that name a file's path, best first.
var pathProps = []string{"path", "filepath", "file", "filename", "absolutepath", "targetfile", "relativepath", "uri",
	"fullpath"}

func norm(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// ReadTool is an offered tool that reads files, and the property its path goes in.
type ReadTool struct {
	Name, Prop string
}

// FindReadTool finds the offered tool that reads a file by path, whatever the agent calls it:
// a known read name (read, read_file, Read, view, cat, …) with a path-like property (path,
// file_path, filename, …), else any tool whose name says read with such a property.
func FindReadTool(tools []wire.Tool) (ReadTool, bool) {
	type cand struct {
		t          ReadTool
		name, prop int
	}
	var cs []cand
	for _, t := range tools {
		prop := -1
		var propName string
		for _, p := range t.Props {
			if i := index(pathProps, norm(p)); i >= 0 && (prop < 0 || i < prop) {
				prop, propName = i, p
			}
		}
		if prop < 0 {
			continue
		}
		n := norm(t.Name)
		name := index(readNames, n)
		if name < 0 {
			if !strings.Contains(n, "read") {
				continue
			}
			name = len(readNames)
		}
		cs = append(cs, cand{ReadTool{t.Name, propName}, name, prop})
	}
	if len(cs) == 0 {
		return ReadTool{}, false
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].name != cs[j].name {
			return cs[i].name < cs[j].name
		}
		return cs[i].prop < cs[j].prop
	})
	return cs[0].t, true
}

func index(list []string, s string) int {
	for i, x := range list {
		if norm(x) == s {
			return i
		}
	}
	return -1
}

func readArgs(t ReadTool, path string) string {
	b, _ := jsonx.Marshal(map[string]string{t.Prop: path})
	return string(b)
}
