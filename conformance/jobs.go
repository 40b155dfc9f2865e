package conformance

import (
	"encoding/json"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/jobs"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Jobs is conformance/jobs.json: the note composed from a job's record.
var Jobs = Define("jobs", "spec", "the note a session is given about its background work (loop.json jobs.marks)",
	answerJobs).WithSteps(steps.Jobs)

type jobsCase struct {
	About       string  `json:"about,omitempty"`
	Kind        string  `json:"kind"`
	ID          *string `json:"id"`
	Command     *string `json:"command"`
	Exit        exitVal `json:"exit"`
	Seconds     *int    `json:"seconds"`
	Unread      *string `json:"unread"`
	Agent       *string `json:"agent"`
	Description *string `json:"description"`
	Report      *string `json:"report"`
	Steps       *int    `json:"steps"`
	Tools       *int    `json:"tools"`
	Reason      *string `json:"reason"`
	Error       *string `json:"error"`
	Worktree    *string `json:"worktree"`
	Text        *string `json:"text"`
}

// exitVal is a command's exit: a number, or null when a signal stopped it; absent is neither.
type exitVal struct {
	Set  bool
	Code *int
}

func (e *exitVal) UnmarshalJSON(b []byte) error {
	e.Set = true
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &e.Code)
}

func (c jobsCase) Validate() error {
	need := map[string][]string{
		jobs.KindCommand:    {"id", "command", "exit", "seconds", "unread"},
		jobs.KindSubagent:   {"id", "agent", "description", "report", "steps", "tools", "reason", "seconds"},
		jobs.KindMessage:    {"id", "agent", "description", "text"},
		jobs.KindToSubagent: {"text"},
	}
	fields, ok := need[c.Kind]
	if !ok {
		return Fieldf("kind", "%q is not a kind of job note; want command, subagent, message or to_subagent", c.Kind)
	}
	has := map[string]bool{
		"id": c.ID != nil, "command": c.Command != nil, "exit": c.Exit.Set, "seconds": c.Seconds != nil,
		"unread": c.Unread != nil, "agent": c.Agent != nil, "description": c.Description != nil,
		"report": c.Report != nil, "steps": c.Steps != nil, "tools": c.Tools != nil, "reason": c.Reason != nil,
		"text": c.Text != nil,
	}
	for _, f := range fields {
		if !has[f] {
			return Fieldf(f, "missing: a %s note needs %s", c.Kind, strings.Join(fields, ", "))
		}
	}
	return nil
}

type jobsAnswer struct {
	Text *string `json:"text"`
}

func (a jobsAnswer) Validate() error {
	if a.Text == nil {
		return Fieldf("text", "missing: the answer is {\"text\": …}")
	}
	return nil
}

func answerJobs(c jobsCase) (jobsAnswer, error) {
	s, n := orZero[string], orZero[int]
	text, err := jobs.Note(jobs.Record{
		Kind: c.Kind, ID: s(c.ID), Command: s(c.Command), Exit: c.Exit.Code, Unread: s(c.Unread),
		Agent: s(c.Agent), Description: s(c.Description), Report: s(c.Report), Steps: n(c.Steps),
		Tools: n(c.Tools), Reason: s(c.Reason), Error: s(c.Error), Worktree: s(c.Worktree),
		Seconds: n(c.Seconds), Text: s(c.Text),
	})
	return jobsAnswer{Text: &text}, err
}

// JSONSchema: an exit is an integer, or null when a signal stopped the command.
func (exitVal) JSONSchema() map[string]any {
	return map[string]any{"type": []string{"integer", "null"}}
}
