package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Title is what reports name a case by beside its id: its "about", or for a case without one (the
// spec's own cases have none) a title made from what it asks, by its area's titler: "jobs: note
// for command `npm test`, exit 0 after 5s". A case of an area with no titler, or one its titler
// cannot read, is named by its area and the fields it gives; a case whose input is no JSON object
// (a live verdict's) has no title: "".
func (c Case) Title() string {
	if c.About != "" {
		return c.About
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(c.Input, &fields) != nil || len(fields) == 0 {
		return ""
	}
	if t, ok := titlers[c.Area]; ok {
		if s := t(fields); s != "" {
			return c.Area + ": " + s
		}
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return c.Area + ": a case of " + strings.Join(keys, ", ")
}

// titlers make the title of a case without "about", one per area, from the case's fields as
// JSON: what it asks in a few words, or "" when the fields are not the area's. They read the
// fields loosely, as a title needs, never as the area's Decode judges a case.
var titlers = map[string]func(map[string]json.RawMessage) string{
	"jobs":         jobsTitle,
	"chunk_tokens": chunkTokensTitle,
	"context":      contextTitle,
	"fs_access":    fsAccessTitle,
	"instructions": instructionsTitle,
	"prefix":       prefixTitle,
}

// str, num and quoted read one field for a title ("" or 0 when absent or of another type).
func str(f map[string]json.RawMessage, key string) string {
	var s string
	json.Unmarshal(f[key], &s)
	return s
}

func num(f map[string]json.RawMessage, key string) int {
	var n int
	json.Unmarshal(f[key], &n)
	return n
}

// quoted is a text for a title: its first line, cut at 40 characters, in backquotes.
func quoted(s string) string {
	s, _, more := strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 40 {
		s, more = string(r[:40]), true
	}
	if more {
		s += "…"
	}
	return "`" + s + "`"
}

// seconds is a job's time as a person reads it: "5s", "2m05s", "2h02m05s".
func seconds(n int) string {
	d := time.Duration(n) * time.Second
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", n)
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", n/60, n%60)
	}
	return fmt.Sprintf("%dh%02dm%02ds", n/3600, n/60%60, n%60)
}

func jobsTitle(f map[string]json.RawMessage) string {
	switch str(f, "kind") {
	case "command":
		exit := "stopped by a signal"
		if string(f["exit"]) != "null" {
			exit = "exit " + string(f["exit"])
		}
		return fmt.Sprintf("note for command %s, %s after %s", quoted(str(f, "command")), exit, seconds(num(f,
			"seconds")))
	case "subagent":
		return fmt.Sprintf("note for subagent %s %s, ended by %s after %s", str(f, "agent"), quoted(str(f,
			"description")),
			str(f, "reason"), seconds(num(f, "seconds")))
	case "message":
		return fmt.Sprintf("message from subagent %s %s", str(f, "agent"), quoted(str(f, "description")))
	case "to_subagent":
		return "message to a subagent " + quoted(str(f, "text"))
	}
	return ""
}

func chunkTokensTitle(f map[string]json.RawMessage) string {
	text := str(f, "text")
	paras := len(strings.Split(strings.TrimSpace(text), "\n\n"))
	return fmt.Sprintf("%d paragraph(s), %d characters, in pieces of %d %s, overlap %d", paras, len([]rune(text)),
		num(f, "size"), str(f, "tokenizer"), num(f, "overlap"))
}

func contextTitle(f map[string]json.RawMessage) string {
	var steps []struct{ Op, Path string }
	if json.Unmarshal(f["steps"], &steps) != nil || len(steps) == 0 {
		return ""
	}
	var parts []string
	for i, s := range steps {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("… (%d steps)", len(steps)))
			break
		}
		parts = append(parts, strings.TrimSpace(s.Op+" "+s.Path))
	}
	return strings.Join(parts, ", ")
}

func fsAccessTitle(f map[string]json.RawMessage) string {
	var grants map[string]string
	json.Unmarshal(f["grants"], &grants)
	paths := make([]string, 0, len(grants))
	for p := range grants {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for i, p := range paths {
		paths[i] = p + " " + grants[p]
	}
	op := str(f, "op")
	if op == "" {
		return ""
	}
	return fmt.Sprintf("%s %s, granted %s", op, str(f, "path"), strings.Join(paths, ", "))
}

func instructionsTitle(f map[string]json.RawMessage) string {
	var files []string
	json.Unmarshal(f["files"], &files)
	if str(f, "start") == "" {
		return ""
	}
	return fmt.Sprintf("files read from %s up to %s, of %d", str(f, "start"), str(f, "boundary"), len(files))
}

func prefixTitle(f map[string]json.RawMessage) string {
	var start struct{ Mode string }
	var steps []struct{ Op string }
	var tools []string
	json.Unmarshal(f["start"], &start)
	json.Unmarshal(f["steps"], &steps)
	json.Unmarshal(f["tools"], &tools)
	ops := make([]string, len(steps))
	for i, s := range steps {
		ops[i] = s.Op
	}
	return fmt.Sprintf("%s mode, steps %s, tools %s", start.Mode, strings.Join(ops, ", "), strings.Join(tools, ", "))
}

// Path is the file the case came from as a path in lembas-check's repository, which a CI can link
// to beside Line: an embedded case's suite file ("spec 3.1.0:jobs.json" is
// harness/spec/files/conformance/jobs.json, "lembas-check:chunk.json" conformance/cases/chunk.json);
// any other case's file as loaded, without the ":line" a scenario's carries.
func (l Label) Path() string {
	file := l.File
	if l.Line > 0 {
		file = strings.TrimSuffix(file, fmt.Sprintf(":%d", l.Line))
	}
	for _, s := range EmbeddedSuites() {
		if rest, ok := strings.CutPrefix(file, s.Name+":"); ok {
			return embeddedDirs[s.Name == "lembas-check"] + rest
		}
	}
	return file
}

// embeddedDirs are the embedded suites' folders in the repository: the spec's (false) and
// lembas-check's own (true, conformance/cases).
var embeddedDirs = map[bool]string{false: "harness/spec/files/conformance/", true: "conformance/cases/"}
