package jobs

import (
	"slices"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Limits are the job registry's numbers (loop.json jobs.*.default).
type Limits struct {
	NoteTailChars, FinishedKept, RunningMax, SubagentSteps int
}

// DefaultLimits are loop.json's defaults.
func DefaultLimits() Limits {
	j := spec.LoopJSON().Jobs
	return Limits{NoteTailChars: j.NoteTailChars.Default, FinishedKept: j.FinishedKept.Default,
		RunningMax: j.RunningMax.Default, SubagentSteps: j.SubagentSteps.Default}
}

// Main is who a job was started by when the session's own agent started it (Event.By's zero).
const Main = "main"

// Event is one thing that happens to a session's jobs; Op says which, the other fields are its.
//
//	start    Kind (command, subagent) started by By, Times over; Finished: each ends at once
//	output   Text (Times over) added to Job's output
//	read     job_output of Job, by By
//	finish   Job ends of its own
//	steps    the subagent Job takes N steps
//	list     job_list, by By
//	prompt   Text "start" or "end": a prompt of the session starts or ends
//	session  Text "close", "resume" or "delete"
//	exit     the front end is asked to exit; Text "ask" (a person to ask) or "nobody"
type Event struct {
	Op       string
	Kind     string
	By       string
	Job      string
	Text     string
	Times    int
	N        int
	Finished bool
}

// Listed is one job as job_list shows it.
type Listed struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	State string `json:"state"`
}

// Result is what one event shows; only the fields of its op are set.
type Result struct {
	// start: the ids given, and how many starts bash refused (past running_max).
	Started *[]string `json:"started,omitempty"`
	Refused int       `json:"refused,omitempty"`
	// read: the output not read before; Unknown: no such job for the one asking (or forgotten).
	Output  *string `json:"output,omitempty"`
	Unknown bool    `json:"unknown,omitempty"`
	// A job's end: where its note goes — "step" (a user message at the owner's next step
	// boundary), "turn" (a new turn, Role machine) or "held" (the session is not open) — to whom,
	// with which mark, the unread output's tail it carries (a command's), the subagent's own
	// commands its end stopped, and (steps) how many steps it took and why it ended.
	Wake   string    `json:"wake,omitempty"`
	To     string    `json:"to,omitempty"`
	Role   string    `json:"role,omitempty"`
	Mark   string    `json:"mark,omitempty"`
	Unread *string   `json:"unread,omitempty"`
	Ended  string    `json:"ended,omitempty"`
	Steps  int       `json:"steps,omitempty"`
	Jobs   *[]Listed `json:"jobs,omitempty"`
	// resume: the held notes given now, each a turn of its own (Role machine).
	Delivered *[]string `json:"delivered,omitempty"`
	// delete, exit, a subagent's end: the jobs stopped; exit: whether the person is asked, and
	// the jobs waited for.
	Stopped *[]string `json:"stopped,omitempty"`
	Asks    *bool     `json:"asks,omitempty"`
	Waited  *[]string `json:"waited,omitempty"`
}

type job struct {
	id, kind, by string
	running      bool
	prompt       int
	unread       string
	steps        int
}

// Registry is one session's jobs: a pure state machine, fed events.
type Registry struct {
	lim      Limits
	seq      int
	jobs     map[string]*job
	finished []string // kept finished jobs, in the order they finished
	prompts  int
	inPrompt bool
	closed   bool
	held     []string
}

// NewRegistry is an empty session's registry.
func NewRegistry(lim Limits) *Registry { return &Registry{lim: lim, jobs: map[string]*job{}} }

// Run plays events on a new registry and gives each one's result.
func Run(lim Limits, events []Event) []Result {
	r := NewRegistry(lim)
	out := make([]Result, len(events))
	for i, e := range events {
		out[i] = r.Apply(e)
	}
	return out
}

// Apply plays one event.
func (r *Registry) Apply(e Event) Result {
	by := e.By
	if by == "" {
		by = Main
	}
	switch e.Op {
	case "start":
		return r.start(e.Kind, by, max(e.Times, 1), e.Finished)
	case "output":
		if j := r.jobs[e.Job]; j != nil && j.running {
			j.unread += strings.Repeat(e.Text, max(e.Times, 1))
			return Result{}
		}
		return Result{Unknown: true}
	case "read":
		j := r.visible(e.Job, by)
		if j == nil {
			return Result{Unknown: true}
		}
		out := j.unread
		j.unread = ""
		return Result{Output: &out}
	case "finish":
		if j := r.jobs[e.Job]; j != nil && j.running {
			return r.end(j, "")
		}
		return Result{Unknown: true}
	case "steps":
		return r.step(e.Job, e.N)
	case "list":
		return r.list(by)
	case "prompt":
		r.inPrompt = e.Text == "start"
		if r.inPrompt {
			r.prompts++
		}
		return Result{}
	case "session":
		return r.session(e.Text)
	case "exit":
		return r.exit(e.Text == "ask")
	}
	return Result{Unknown: true}
}

func (r *Registry) start(kind, by string, times int, finished bool) Result {
	if by != Main {
		if o := r.jobs[by]; o == nil || !o.running || o.kind != KindSubagent {
			return Result{Unknown: true}
		}
	}
	started := []string{}
	refused := 0
	for range times {
		if kind == KindCommand && r.runningCommands() >= r.lim.RunningMax {
			refused++
			continue
		}
		r.seq++
		j := &job{id: "job" + strconv.Itoa(r.seq), kind: kind, by: by, running: true, prompt: r.prompts}
		if !r.inPrompt {
			j.prompt = -1
		}
		r.jobs[j.id] = j
		started = append(started, j.id)
		if finished {
			r.stop(j)
		}
	}
	return Result{Started: &started, Refused: refused}
}

func (r *Registry) runningCommands() int {
	n := 0
	for _, j := range r.jobs {
		if j.running && j.kind == KindCommand {
			n++
		}
	}
	return n
}

// stop ends a job without a note of its own, keeping finished_kept finished jobs.
func (r *Registry) stop(j *job) {
	j.running = false
	r.finished = append(r.finished, j.id)
	for len(r.finished) > r.lim.FinishedKept {
		delete(r.jobs, r.finished[0])
		r.finished = r.finished[1:]
	}
}

// end is a job's end with its note: a subagent's own running commands stop with it, and its
// report says so.
func (r *Registry) end(j *job, ended string) Result {
	res := Result{To: j.by, Ended: ended}
	marks := spec.LoopJSON().Jobs.Marks
	if j.kind == KindCommand {
		res.Mark = marks.Command
		tail := tailRunes(j.unread, r.lim.NoteTailChars)
		res.Unread = &tail
		j.unread = ""
	} else {
		res.Mark = marks.Subagent
		stopped := []string{}
		for _, c := range r.ids() {
			if o := r.jobs[c]; o.running && o.by == j.id {
				stopped = append(stopped, c)
			}
		}
		for _, c := range stopped {
			r.stop(r.jobs[c])
		}
		res.Stopped = &stopped
	}
	switch {
	case j.by != Main:
		res.Wake = "step"
	case r.closed:
		res.Wake = "held"
		r.held = append(r.held, j.id)
	case r.inPrompt:
		res.Wake = "step"
	default:
		res.Wake, res.Role = "turn", "machine"
	}
	r.stop(j)
	return res
}

// tailRunes is the last n characters of s.
func tailRunes(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[len(rs)-n:])
}

func (r *Registry) step(id string, n int) Result {
	j := r.jobs[id]
	if j == nil || !j.running || j.kind != KindSubagent {
		return Result{Unknown: true}
	}
	j.steps = min(j.steps+n, r.lim.SubagentSteps)
	if j.steps < r.lim.SubagentSteps {
		return Result{Steps: j.steps}
	}
	res := r.end(j, "steps")
	res.Steps = j.steps
	return res
}

// visible is a job the one asking may see: the main agent sees every job of the session, a
// subagent only those it started.
func (r *Registry) visible(id, by string) *job {
	j := r.jobs[id]
	if j == nil || by != Main && j.by != by {
		return nil
	}
	return j
}

// ids are the jobs kept, in the order they were started.
func (r *Registry) ids() []string {
	var out []string
	for id := range r.jobs {
		out = append(out, id)
	}
	slices.SortFunc(out, func(a, b string) int { return num(a) - num(b) })
	return out
}

func num(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "job"))
	return n
}

func (r *Registry) list(by string) Result {
	out := []Listed{}
	for _, id := range r.ids() {
		if j := r.visible(id, by); j != nil {
			state := "finished"
			if j.running {
				state = "running"
			}
			out = append(out, Listed{ID: id, Kind: j.kind, State: state})
		}
	}
	return Result{Jobs: &out}
}

func (r *Registry) running() []string {
	out := []string{}
	for _, id := range r.ids() {
		if r.jobs[id].running {
			out = append(out, id)
		}
	}
	return out
}

func (r *Registry) session(what string) Result {
	switch what {
	case "close":
		r.closed = true
	case "resume":
		r.closed = false
		held := append([]string{}, r.held...)
		r.held = nil
		return Result{Delivered: &held, Role: "machine"}
	case "delete":
		stopped := r.running()
		for _, id := range stopped {
			r.stop(r.jobs[id])
		}
		return Result{Stopped: &stopped}
	}
	return Result{}
}

// exit is the front end asked to exit: with a person to ask it asks while jobs run; with nobody,
// it waits for the running jobs the latest prompt started, then stops the rest.
func (r *Registry) exit(ask bool) Result {
	running := r.running()
	if ask {
		asks := len(running) > 0
		return Result{Asks: &asks}
	}
	waited, stopped := []string{}, []string{}
	for _, id := range running {
		if r.prompts > 0 && r.jobs[id].prompt == r.prompts {
			waited = append(waited, id)
		} else {
			stopped = append(stopped, id)
		}
	}
	for _, id := range running {
		r.stop(r.jobs[id])
	}
	return Result{Waited: &waited, Stopped: &stopped}
}
