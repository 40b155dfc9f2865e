package refagent

import (
	"encoding/json"
	"fmt"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/jobs"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// endedJob is a job of the session that ended (_lembas/configure's `job`), kept for the client's
// _lembas/jobs and _lembas/job/* (acp.md, capability jobs): this agent runs no job of its own,
// so every job it lists has ended.
type endedJob struct {
	r  jobRecord
	at time.Time
}

// info is the job as acp.md's JobInfo: `state` done, or for a subagent stopped or error as its
// reason says; `started` and `ended` in milliseconds since the epoch (lembas-check's reading: the
// seed gives no unit), started its seconds before it ended; `unread` the characters of output the
// model has not read.
func (j endedJob) info() map[string]any {
	r := j.r
	state := "done"
	if r.Kind == jobs.KindSubagent && (r.Reason == "stopped" || r.Reason == "error") {
		state = r.Reason
	}
	ended := j.at.UnixMilli()
	m := map[string]any{"id": r.ID, "kind": r.Kind, "state": state, "description": r.Description,
		"started": ended - int64(r.Seconds)*1000, "ended": ended, "unread": len(r.Unread)}
	if r.Kind == jobs.KindCommand {
		m["command"], m["exit"] = r.Command, r.Exit
		if r.Description == "" {
			m["description"] = commandFirstLine(r.Command)
		}
	} else {
		m["agent"], m["steps"], m["tools"] = r.Agent, r.Steps, r.Tools
	}
	return m
}

// output is what the job wrote as the client reads it: a command's output the model had not read
// (all this agent was given), a subagent's report.
func (j endedJob) output() string {
	if j.r.Kind == jobs.KindCommand {
		return j.r.Unread
	}
	return j.r.Report
}

func commandFirstLine(c string) string {
	for i, ch := range c {
		if ch == '\n' {
			return c[:i]
		}
	}
	return c
}

// jobMethod answers _lembas/jobs, _lembas/job/output and _lembas/job/stop (acp.md).
func (s *session) jobMethod(method string, params json.RawMessage) (any, error) {
	var p struct {
		ID    string `json:"id"`
		Since *int   `json:"since"`
	}
	json.Unmarshal(params, &p)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case spec.Text("acp.method.jobs"):
		list := []map[string]any{}
		for _, j := range s.ended {
			list = append(list, j.info())
		}
		return map[string]any{"jobs": list}, nil
	}
	var job *endedJob
	for i := range s.ended {
		if s.ended[i].r.ID == p.ID {
			job = &s.ended[i]
		}
	}
	if job == nil {
		return nil, &sdk.RequestError{Code: -32602, Message: fmt.Sprintf("no job %s in this session", p.ID)}
	}
	state := job.info()["state"]
	if method == spec.Text("acp.method.job_stop") {
		return map[string]any{"state": state}, nil // it has ended: the state it already had
	}
	out := []rune(job.output())
	from := 0
	if p.Since != nil {
		from = min(max(*p.Since, 0), len(out))
	}
	return map[string]any{"text": string(out[from:]), "length": len(out), "state": state}, nil
}
