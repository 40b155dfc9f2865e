// Package jobs is the reference of area jobs: the notes a session is given about its background
// work (harness spec loop.json `jobs`, conformance/jobs.json): a finished command, a finished
// subagent, a message from a subagent, and one to a subagent. Every note begins with its mark, said
// rather than hidden, so a model does not refuse it as an injection. Pure: no clock, no I/O.
package jobs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Kinds of note, as conformance/jobs.json names them (and loop.json `jobs.marks` keys them).
const (
	KindCommand    = "command"
	KindSubagent   = "subagent"
	KindMessage    = "message"
	KindToSubagent = "to_subagent"
)

// Record is what a note is composed from: a job's record, as the spec's case carries it.
type Record struct {
	Kind string
	ID   string
	// A command's: its command line(s), exit code (nil: stopped by a signal), and the output the
	// model had not read (already cut to note_tail_chars by the registry).
	Command string
	Exit    *int
	Unread  string
	// A subagent's: its agent, what it was asked, its report, its step and tool-call counts, why
	// it ended (stop, stopped, steps, budget, error) with the error's text, and its worktree line.
	Agent       string
	Description string
	Report      string
	Steps       int
	Tools       int
	Reason      string
	Error       string
	Worktree    string
	Seconds     int
	// A message's text (from or to a subagent).
	Text string
}

// Note is the message the session is given: the mark on the first line, then the note. Every
// word comes from the vendored spec: the marks from loop.json, the rest from extra/jobs.json.
func Note(r Record) (string, error) {
	marks := spec.LoopJSON().Jobs.Marks
	switch r.Kind {
	case KindCommand:
		how := text("jobs.command.signal", nil)
		if r.Exit != nil {
			how = text("jobs.command.exit", vars{"exit": strconv.Itoa(*r.Exit)})
		}
		note := text("jobs.command", vars{"id": r.ID, "command": commandLine(r.Command), "how": how,
			"duration": Duration(r.Seconds)})
		if strings.TrimSpace(r.Unread) != "" {
			note += text("jobs.command.unread", vars{"unread": strings.TrimSuffix(r.Unread, "\n")})
		} else {
			note += text("jobs.command.nothing_unread", nil)
		}
		return marks.Command + "\n" + note, nil
	case KindSubagent:
		head := text("jobs.subagent", vars{"id": r.ID, "agent": r.Agent, "description": r.Description,
			"ended": ended(r.Reason), "duration": Duration(r.Seconds)})
		report := strings.TrimSpace(r.Report)
		if report == "" {
			report = text("jobs.subagent.no_report", nil)
		}
		note := marks.Subagent + "\n" + head + "\n" + report + "\n\n" + SubagentTail(r.Agent, r.Steps, r.Tools,
			r.Reason, r.Error)
		if r.Worktree != "" {
			note += text("jobs.subagent.worktree", vars{"worktree": r.Worktree})
		}
		return note, nil
	case KindMessage:
		return marks.Message + "\n" + text("jobs.message", vars{"id": r.ID, "agent": r.Agent,
			"description": r.Description, "text": r.Text}), nil
	case KindToSubagent:
		return marks.ToSubagent + "\n" + r.Text, nil
	}
	return "", fmt.Errorf("no note for a job of kind %q", r.Kind)
}

type vars = map[string]string

func text(key string, v vars) string { return spec.MustRender(spec.Text(key), v) }

// commandLine is a command's first line, as notes and lists name it, cut at the CLI's length.
func commandLine(command string) string {
	first, _, _ := strings.Cut(command, "\n")
	max, err := strconv.Atoi(spec.Text("jobs.command_line_max"))
	if err != nil {
		panic("harness/spec/extra/jobs.json: jobs.command_line_max is not a number")
	}
	if utf8.RuneCountInString(first) <= max {
		return first
	}
	return string([]rune(first)[:max])
}

// ended says why a subagent ended, in the words of its note's first line.
func ended(reason string) string {
	if t, ok := spec.Extras().Texts["jobs.subagent.ended."+reason]; ok && reason != "other" {
		return t.Text
	}
	return text("jobs.subagent.ended.other", vars{"reason": reason})
}

// SubagentTail is the line under a subagent's report: steps, tool calls, and how it ended when
// it did not end of its own accord.
func SubagentTail(agent string, steps, tools int, reason, errText string) string {
	end := ""
	switch {
	case reason == "stop":
	case reason == "error" && errText != "":
		end = text("jobs.subagent.tail.ended_error", vars{"error": errText})
	default:
		end = text("jobs.subagent.tail.ended", vars{"reason": reason})
	}
	return text("jobs.subagent.tail", vars{
		"agent": agent, "steps": strconv.Itoa(steps), "step_word": plural(steps, "jobs.subagent.tail.step"),
		"tools": strconv.Itoa(tools), "tool_word": plural(tools, "jobs.subagent.tail.tool"), "ended": end,
	})
}

// plural is the singular text for one, the plural (the key with an s) otherwise.
func plural(n int, key string) string {
	if n == 1 {
		return spec.Text(key)
	}
	return spec.Text(key + "s")
}

// Duration writes a number of seconds as both projects do: "5s", "1m 05s", "2h 03m" — the two
// largest units, the second with two digits (conformance/jobs.json's about).
func Duration(seconds int) string {
	if seconds < 0 {
		seconds = 0
	}
	switch {
	case seconds < 60:
		return fmt.Sprintf("%ds", seconds)
	case seconds < 3600:
		return fmt.Sprintf("%dm %02ds", seconds/60, seconds%60)
	default:
		return fmt.Sprintf("%dh %02dm", seconds/3600, seconds%3600/60)
	}
}
