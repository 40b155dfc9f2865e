package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"go.yaml.in/yaml/v3"
)

// Error is a mistake in a script, at a line and column.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Load reads a script file (YAML, or JSON).
func Load(path string) (*Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(filepath.Base(path), b)
}

// maxNodes bounds the work of a script whose aliases repeat one another.
const maxNodes = 1 << 20

// Parse reads a script strictly: an unknown key, a value of the wrong type or a reply that says
// nothing is an error naming its line. JSON is read as the YAML it also is, after checking it
// is JSON, so both get the same checks and line numbers.
func Parse(name string, data []byte) (*Script, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') || strings.HasSuffix(name, ".json") {
		if err := checkJSON(name, data); err != nil {
			return nil, err
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: name,
			Msg: "the script is empty: give replies, rules or a default (docs/fakeprovider.md)"}
	}
	if expanded(doc.Content[0], map[*yaml.Node]int{}) > maxNodes {
		return nil, &Error{File: name, Line: 1, Col: 1, Msg: "the script is too large once its aliases are expanded"}
	}
	d := &dec{file: name}
	s, err := d.script(doc.Content[0])
	if err != nil {
		return nil, err
	}
	s.Name = name
	return s, nil
}

func checkJSON(name string, data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return nil
	}
	if se, ok := err.(*json.SyntaxError); ok {
		line, col := wire.LineCol(data, wire.ErrorOffset(data, se))
		return &Error{File: name, Line: line, Col: col, Msg: "not valid JSON: " + se.Error()}
	}
	return &Error{File: name, Msg: "not valid JSON: " + err.Error()}
}

type dec struct {
	file  string
	nodes int
}

func (d *dec) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: d.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// expanded counts the nodes n stands for once its aliases are expanded, stopping past maxNodes.
// An anchor's count is kept, so that aliases repeating one another cost the script's size, not
// its expansion: the decoder's own count (resolve) would first walk a million nodes.
func expanded(n *yaml.Node, memo map[*yaml.Node]int) int {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if c, ok := memo[n]; ok {
		return c
	}
	memo[n] = maxNodes + 1 // an alias inside its own anchor counts as too many
	c := 1
	for _, k := range n.Content {
		if c += expanded(k, memo); c > maxNodes {
			break
		}
	}
	memo[n] = c
	return c
}

// resolve follows an alias, counting the nodes read so repeated aliases cannot blow up.
func (d *dec) resolve(n *yaml.Node) (*yaml.Node, error) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	d.nodes++
	if d.nodes > maxNodes {
		return nil, d.errf(n, "the script is too large once its aliases are expanded")
	}
	return n, nil
}

// fields reads a mapping whose keys must be among known; it returns the values by key, in order.
func (d *dec) fields(n *yaml.Node, what string, known ...string) ([]string, map[string]*yaml.Node, error) {
	n, err := d.resolve(n)
	if err != nil {
		return nil, nil, err
	}
	if n.Kind != yaml.MappingNode {
		return nil, nil, d.errf(n, "%s: want a mapping of %s, got %s", what, strings.Join(known, ", "), kind(n))
	}
	var order []string
	m := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, nil, d.errf(k, "%s: a key must be a plain name", what)
		}
		if !contains(known, k.Value) {
			return nil, nil, d.errf(k, "%s: unknown key %q (known: %s)", what, k.Value, strings.Join(known, ", "))
		}
		if _, dup := m[k.Value]; dup {
			return nil, nil, d.errf(k, "%s: key %q given twice", what, k.Value)
		}
		order = append(order, k.Value)
		m[k.Value] = v
	}
	return order, m, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("%s %s", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "nothing"
}

func (d *dec) seq(n *yaml.Node, what string) ([]*yaml.Node, error) {
	n, err := d.resolve(n)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, "%s: want a list, got %s", what, kind(n))
	}
	return n.Content, nil
}

// each calls item on every element of the list n, with its path (what[i]); the first error ends
// it.
func (d *dec) each(n *yaml.Node, what string, item func(it *yaml.Node, what string) error) error {
	items, err := d.seq(n, what)
	if err != nil {
		return err
	}
	for i, it := range items {
		if err := item(it, fmt.Sprintf("%s[%d]", what, i)); err != nil {
			return err
		}
	}
	return nil
}

func (d *dec) str(n *yaml.Node, what string) (string, error) {
	n, err := d.resolve(n)
	if err != nil {
		return "", err
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return "", d.errf(n, "%s: want a string, got %s (quote it if it is meant as text)", what, kind(n))
	}
	return n.Value, nil
}

func (d *dec) int(n *yaml.Node, what string, min int) (int, error) {
	n, err := d.resolve(n)
	if err != nil {
		return 0, err
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		return 0, d.errf(n, "%s: want a whole number, got %s", what, kind(n))
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < min {
		return 0, d.errf(n, "%s: want a whole number of at least %d, got %s", what, min, n.Value)
	}
	return v, nil
}

func (d *dec) bool(n *yaml.Node, what string) (bool, error) {
	n, err := d.resolve(n)
	if err != nil {
		return false, err
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, d.errf(n, "%s: want true or false, got %s", what, kind(n))
	}
	return n.Value == "true" || n.Value == "True" || n.Value == "TRUE", nil
}

// duration reads "250ms", "1.5s", "2m".
func (d *dec) duration(n *yaml.Node, what string) (time.Duration, error) {
	n, err := d.resolve(n)
	if err != nil {
		return 0, err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		if v, err := time.ParseDuration(n.Value); err == nil && v >= 0 {
			return v, nil
		}
	}
	return 0, d.errf(n, "%s: want a duration such as 250ms or 1.5s, got %s", what, kind(n))
}

func (d *dec) script(n *yaml.Node) (*Script, error) {
	n, err := d.resolve(n)
	if err != nil {
		return nil, err
	}
	s := &Script{}
	if n.Kind == yaml.SequenceNode {
		// A bare list is the replies alone.
		s.Replies, err = d.replies(n, "replies")
		return s, err
	}
	_, m, err := d.fields(n, "script", "models", "replies", "rules", "default", "compaction")
	if err != nil {
		return nil, err
	}
	if v, ok := m["models"]; ok {
		err := d.each(v, "models", func(it *yaml.Node, what string) error {
			id, err := d.str(it, what)
			if err != nil {
				return err
			}
			if id == "" {
				return d.errf(it, "%s: a model id cannot be empty", what)
			}
			s.Models = append(s.Models, id)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if v, ok := m["replies"]; ok {
		if s.Replies, err = d.replies(v, "replies"); err != nil {
			return nil, err
		}
	}
	if v, ok := m["rules"]; ok {
		err := d.each(v, "rules", func(it *yaml.Node, what string) error {
			r, err := d.rule(it, what)
			s.Rules = append(s.Rules, r)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if v, ok := m["default"]; ok {
		if s.Default, err = d.policy(v); err != nil {
			return nil, err
		}
	}
	if v, ok := m["compaction"]; ok {
		if s.Compaction, err = d.str(v, "compaction"); err != nil {
			return nil, err
		}
	}
	if len(s.Replies) == 0 && len(s.Rules) == 0 && s.Default == nil {
		return nil, d.errf(n, "the script gives no replies, no rules and no default: it could answer nothing")
	}
	return s, nil
}

func (d *dec) replies(n *yaml.Node, what string) ([]Reply, error) {
	out := []Reply{}
	err := d.each(n, what, func(it *yaml.Node, what string) error {
		r, err := d.reply(it, what)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (d *dec) policy(n *yaml.Node) (*Policy, error) {
	_, m, err := d.fields(n, "default", "read", "answer")
	if err != nil {
		return nil, err
	}
	p := &Policy{Line: n.Line, Read: "README.md", Answer: "done"}
	if v, ok := m["read"]; ok {
		if p.Read, err = d.str(v, "default.read"); err != nil {
			return nil, err
		}
		if p.Read == "" {
			return nil, d.errf(v, "default.read: name the file the agent should read")
		}
	}
	if v, ok := m["answer"]; ok {
		if p.Answer, err = d.str(v, "default.answer"); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (d *dec) rule(n *yaml.Node, what string) (Rule, error) {
	_, m, err := d.fields(n, what, "when", "reply", "times")
	if err != nil {
		return Rule{}, err
	}
	r := Rule{Line: n.Line}
	w, ok := m["when"]
	if !ok {
		return Rule{}, d.errf(n,
			"%s: a rule needs `when` (tool_result, tool_results, tool_offered, user_matches, input_matches)", what)
	}
	_, c, err := d.fields(w, what+".when", "tool_result", "tool_results", "tool_offered", "user_matches",
		"input_matches")
	if err != nil {
		return Rule{}, err
	}
	if len(c) == 0 {
		return Rule{}, d.errf(w,
			"%s.when: give at least one condition (tool_result, tool_results, tool_offered, user_matches, "+
				"input_matches)", what)
	}
	if v, ok := c["tool_result"]; ok {
		b, err := d.bool(v, what+".when.tool_result")
		if err != nil {
			return Rule{}, err
		}
		r.ToolResult = &b
	}
	if v, ok := c["tool_results"]; ok {
		n, err := d.int(v, what+".when.tool_results", 0)
		if err != nil {
			return Rule{}, err
		}
		r.ToolResults = &n
	}
	if v, ok := c["tool_offered"]; ok {
		if r.ToolOffered, err = d.str(v, what+".when.tool_offered"); err != nil {
			return Rule{}, err
		}
	}
	for _, k := range []struct {
		key string
		re  **regexp.Regexp
	}{{"user_matches", &r.UserMatches}, {"input_matches", &r.InputMatches}} {
		v, ok := c[k.key]
		if !ok {
			continue
		}
		pat, err := d.str(v, what+".when."+k.key)
		if err != nil {
			return Rule{}, err
		}
		if *k.re, err = regexp.Compile(pat); err != nil {
			return Rule{}, d.errf(v, "%s.when.%s: %v", what, k.key, err)
		}
	}
	if v, ok := m["times"]; ok {
		if r.Times, err = d.int(v, what+".times", 1); err != nil {
			return Rule{}, err
		}
	}
	rv, ok := m["reply"]
	if !ok {
		return Rule{}, d.errf(n, "%s: a rule needs `reply`", what)
	}
	if r.Reply, err = d.reply(rv, what+".reply"); err != nil {
		return Rule{}, err
	}
	return r, nil
}

var replyKeys = []string{"text", "reasoning", "tool_calls", "read", "finish_reason", "chunk", "delay", "interval",
	"keepalive", "fault"}

func (d *dec) reply(n *yaml.Node, what string) (Reply, error) {
	_, m, err := d.fields(n, what, replyKeys...)
	if err != nil {
		return Reply{}, err
	}
	r := Reply{Line: n.Line}
	for _, f := range []struct {
		k string
		p *string
	}{{"text", &r.Text}, {"reasoning", &r.Reasoning}, {"read", &r.Read}, {"finish_reason", &r.FinishReason}} {
		if v, ok := m[f.k]; ok {
			if *f.p, err = d.str(v, what+"."+f.k); err != nil {
				return Reply{}, err
			}
		}
	}
	if v, ok := m["read"]; ok && r.Read == "" {
		return Reply{}, d.errf(v, "%s.read: name the file the agent should read", what)
	}
	if v, ok := m["finish_reason"]; ok && r.FinishReason == "" {
		return Reply{}, d.errf(v,
			"%s.finish_reason: give a reason (stop, length, tool_calls, content_filter) or leave it out", what)
	}
	for _, f := range []struct {
		k string
		p *time.Duration
	}{{"delay", &r.Delay}, {"interval", &r.Interval}, {"keepalive", &r.KeepAlive}} {
		if v, ok := m[f.k]; ok {
			if *f.p, err = d.duration(v, what+"."+f.k); err != nil {
				return Reply{}, err
			}
		}
	}
	if v, ok := m["keepalive"]; ok && r.KeepAlive == 0 {
		return Reply{}, d.errf(v, "%s.keepalive: a period of 0 would never end; give one such as 1s, or leave it out",
			what)
	}
	if v, ok := m["chunk"]; ok {
		if r.Chunk, err = d.int(v, what+".chunk", 0); err != nil {
			return Reply{}, err
		}
	}
	if v, ok := m["tool_calls"]; ok {
		err := d.each(v, what+".tool_calls", func(it *yaml.Node, what string) error {
			c, err := d.call(it, what)
			r.ToolCalls = append(r.ToolCalls, c)
			return err
		})
		if err != nil {
			return Reply{}, err
		}
	}
	if v, ok := m["fault"]; ok {
		if r.Fault, err = d.fault(v, what+".fault"); err != nil {
			return Reply{}, err
		}
	}
	says := r.Text != "" || r.Reasoning != "" || len(r.ToolCalls) > 0 || r.Read != ""
	if r.Fault != nil && r.Fault.Status != 0 && r.Fault.ErrorAfter == 0 && (says || r.FinishReason != "") {
		return Reply{}, d.errf(n,
			"%s: a fault with a status answers with an error body only (or, with error_after, cuts the reply's "+
				"stream with it); move the reply to its own entry", what)
	}
	if !says && r.Fault == nil {
		if _, hasText := m["text"]; !hasText {
			return Reply{}, d.errf(n,
				"%s: the reply says nothing: give text, reasoning, tool_calls, read or fault (text: \"\" for an "+
					"empty answer)", what)
		}
	}
	if r.Fault != nil && r.Fault.Status == 0 && !says {
		if _, hasText := m["text"]; !hasText {
			// A stream fault needs a stream to break: say a little by default.
			r.Text = "this reply is cut short on purpose"
		}
	}
	return r, nil
}

func (d *dec) call(n *yaml.Node, what string) (wire.ToolCall, error) {
	_, m, err := d.fields(n, what, "id", "name", "arguments", "input", "namespace")
	if err != nil {
		return wire.ToolCall{}, err
	}
	if _, both := m["input"]; both {
		if _, args := m["arguments"]; args {
			return wire.ToolCall{}, d.errf(n,
				"%s: a call has arguments (a function tool) or input (a custom tool), not both", what)
		}
	}
	var c wire.ToolCall
	v, ok := m["name"]
	if !ok {
		return c, d.errf(n, "%s: a tool call needs `name`", what)
	}
	if c.Name, err = d.str(v, what+".name"); err != nil {
		return c, err
	}
	if v, ok := m["id"]; ok {
		if c.ID, err = d.str(v, what+".id"); err != nil {
			return c, err
		}
	}
	if v, ok := m["namespace"]; ok {
		if c.Namespace, err = d.str(v, what+".namespace"); err != nil {
			return c, err
		}
	}
	if v, ok := m["input"]; ok {
		// A custom tool's free-form text, sent as written.
		c.Custom = true
		c.Arguments, err = d.str(v, what+".input")
		return c, err
	}
	c.Arguments = "{}"
	if v, ok := m["arguments"]; ok {
		rv, err := d.resolve(v)
		if err != nil {
			return c, err
		}
		if rv.Kind == yaml.ScalarNode && rv.Tag == "!!str" {
			c.Arguments = rv.Value // sent as written, valid JSON or not: a fault worth scripting
		} else {
			b, err := d.toJSON(rv, what+".arguments")
			if err != nil {
				return c, err
			}
			c.Arguments = string(b)
		}
	}
	return c, nil
}

// toJSON writes a YAML value as compact JSON, keeping the keys in the order written.
func (d *dec) toJSON(n *yaml.Node, what string) ([]byte, error) {
	n, err := d.resolve(n)
	if err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.MappingNode:
		b := []byte{'{'}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, d.errf(k, "%s: a key must be a plain name", what)
			}
			if i > 0 {
				b = append(b, ',')
			}
			kb, _ := jsonx.Marshal(k.Value)
			b = append(append(b, kb...), ':')
			vb, err := d.toJSON(n.Content[i+1], what+"."+k.Value)
			if err != nil {
				return nil, err
			}
			b = append(b, vb...)
		}
		return append(b, '}'), nil
	case yaml.SequenceNode:
		b := []byte{'['}
		for i, it := range n.Content {
			if i > 0 {
				b = append(b, ',')
			}
			vb, err := d.toJSON(it, fmt.Sprintf("%s[%d]", what, i))
			if err != nil {
				return nil, err
			}
			b = append(b, vb...)
		}
		return append(b, ']'), nil
	case yaml.ScalarNode:
		var v any
		switch n.Tag {
		case "!!null":
			v = nil
		case "!!bool":
			b, err := d.bool(n, what)
			if err != nil {
				return nil, err
			}
			v = b
		case "!!int", "!!float":
			if err := n.Decode(&v); err != nil {
				return nil, d.errf(n, "%s: %v", what, err)
			}
		default:
			v = n.Value // a string, or a date or other scalar kept as written
		}
		b, err := jsonx.Marshal(v)
		if err != nil {
			return nil, d.errf(n, "%s: %s cannot be written as JSON", what, kind(n))
		}
		return b, nil
	}
	return nil, d.errf(n, "%s: cannot be written as JSON", what)
}

func (d *dec) fault(n *yaml.Node, what string) (*Fault, error) {
	_, m, err := d.fields(n, what, "status", "message", "type", "param", "code", "retry_after", "drop_after",
		"malformed_at", "stall", "stall_after", "error_after")
	if err != nil {
		return nil, err
	}
	f := &Fault{}
	if err := d.faultBody(m, what, f); err != nil {
		return nil, err
	}
	streamKeys, err := d.faultStream(m, what, f)
	if err != nil {
		return nil, err
	}
	if f.Status != 0 && streamKeys > 0 {
		return nil, d.errf(n, "%s: a fault is either a status (an error body) or something done to the stream "+
			"(drop_after, malformed_at, stall), not both", what)
	}
	if f.Status == 0 && streamKeys == 0 {
		return nil, d.errf(n, "%s: say what goes wrong: status, drop_after, malformed_at or stall", what)
	}
	return f, nil
}

// faultBody reads what an error answer carries: its status, its body's fields, Retry-After, and
// how far a stream goes before the error (error_after).
func (d *dec) faultBody(m map[string]*yaml.Node, what string, f *Fault) error {
	var err error
	if v, ok := m["status"]; ok {
		if f.Status, err = d.int(v, what+".status", 400); err != nil {
			return err
		}
		if f.Status > 599 {
			return d.errf(v, "%s.status: want an HTTP error status, 400 to 599, got %d", what, f.Status)
		}
	}
	for _, s := range []struct {
		k string
		p *string
	}{{"message", &f.Message}, {"type", &f.Type}, {"param", &f.Param}, {"code", &f.Code}} {
		if v, ok := m[s.k]; ok {
			if f.Status == 0 {
				return d.errf(v, "%s.%s: only a fault with a status has an error body", what, s.k)
			}
			if *s.p, err = d.str(v, what+"."+s.k); err != nil {
				return err
			}
		}
	}
	if v, ok := m["retry_after"]; ok {
		if f.Status == 0 {
			return d.errf(v, "%s.retry_after: only a fault with a status sends Retry-After", what)
		}
		rv, err := d.resolve(v)
		if err != nil {
			return err
		}
		if rv.Kind != yaml.ScalarNode || (rv.Tag != "!!int" && rv.Tag != "!!str") || rv.Value == "" {
			return d.errf(v, "%s.retry_after: want seconds (2) or an HTTP date, got %s", what, kind(rv))
		}
		f.RetryAfter = rv.Value
	}
	if v, ok := m["error_after"]; ok {
		if f.Status == 0 {
			return d.errf(v, "%s.error_after: give the error's status too (529 for an overloaded API)", what)
		}
		if f.ErrorAfter, err = d.int(v, what+".error_after", 1); err != nil {
			return err
		}
	}
	return nil
}

// faultStream reads what is done to a stream (dropped, malformed, stalled) and counts those keys.
func (d *dec) faultStream(m map[string]*yaml.Node, what string, f *Fault) (int, error) {
	var err error
	streamKeys := 0
	if v, ok := m["drop_after"]; ok {
		if f.DropAfter, err = d.int(v, what+".drop_after", 0); err != nil {
			return 0, err
		}
		f.Drop = true
		streamKeys++
	}
	if v, ok := m["malformed_at"]; ok {
		if f.MalformedAt, err = d.int(v, what+".malformed_at", 1); err != nil {
			return 0, err
		}
		streamKeys++
	}
	if v, ok := m["stall"]; ok {
		rv, err := d.resolve(v)
		if err != nil {
			return 0, err
		}
		if rv.Kind == yaml.ScalarNode && rv.Value == "forever" {
			f.StallForever = true
		} else if f.Stall, err = d.duration(v, what+".stall"); err != nil {
			return 0, err
		} else if f.Stall == 0 {
			return 0, d.errf(v, "%s.stall: give a duration above 0, or forever", what)
		}
		streamKeys++
	}
	if v, ok := m["stall_after"]; ok {
		if _, has := m["stall"]; !has {
			return 0, d.errf(v, "%s.stall_after: give stall too", what)
		}
		if f.StallAfter, err = d.int(v, what+".stall_after", 0); err != nil {
			return 0, err
		}
	}
	return streamKeys, nil
}
