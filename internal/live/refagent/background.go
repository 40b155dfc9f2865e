package refagent

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/jobs"
	"github.com/LLeMbas/lembas-check/harness/search"
)

// jobRecord is a background job that ended, as _lembas/configure's `job` gives it (the fields of
// conformance/jobs.json's record). lembas-check's own: in the seed a job is started by the model's
// bash or task call and ends by itself, which the fake cannot make end with a chosen record; the
// record stands in for the registry's, and what is checked is the note and where it lands.
type jobRecord struct {
	Kind        string `json:"kind"`
	ID          string `json:"id"`
	Command     string `json:"command"`
	Exit        *int   `json:"exit"`
	Seconds     int    `json:"seconds"`
	Unread      string `json:"unread"`
	Agent       string `json:"agent"`
	Description string `json:"description"`
	Report      string `json:"report"`
	Steps       int    `json:"steps"`
	Tools       int    `json:"tools"`
	Reason      string `json:"reason"`
	Error       string `json:"error"`
	Worktree    string `json:"worktree"`
	Text        string `json:"text"`
}

// jobEnded queues the note of a job that ended: loop.json `jobs` gives it "while a prompt runs,
// as a user message at the next step boundary". This agent starts no machine turn of its own, so
// a job that ends while the session is idle is refused, and so is a note to a subagent (it runs
// none). Called with mu held.
func (s *session) jobEnded(r jobRecord) error {
	if r.Kind == jobs.KindToSubagent {
		return &sdk.RequestError{Code: -32602, Message: "job: this agent runs no subagent to give a message to"}
	}
	if !s.busy {
		return &sdk.RequestError{Code: -32602, Message: "job: a note is given at a step boundary of a turn " +
			"running, and this agent starts no turn of its own"}
	}
	note, err := jobs.Note(jobs.Record{Kind: r.Kind, ID: r.ID, Command: r.Command, Exit: r.Exit, Unread: r.Unread,
		Agent: r.Agent, Description: r.Description, Report: r.Report, Steps: r.Steps, Tools: r.Tools,
		Reason: r.Reason, Error: r.Error, Worktree: r.Worktree, Seconds: r.Seconds, Text: r.Text})
	if err != nil {
		return &sdk.RequestError{Code: -32602, Message: "job: " + err.Error()}
	}
	s.notes = append(s.notes, note)
	if r.Kind == jobs.KindCommand || r.Kind == jobs.KindSubagent {
		s.ended = append(s.ended, endedJob{r: r, at: time.Now()})
	}
	return nil
}

// takeNotes are the job notes due at this step boundary, each a user message. Called with mu held.
func (s *session) takeNotes() []message {
	var out []message
	for _, n := range s.notes {
		out = append(out, text("user", n))
	}
	s.notes = nil
	return out
}

// indexPassage is one passage the session's search index holds for the next query, with the two
// scores it got (_lembas/configure's `index`, in the view's terms: "/" the boundary).
// lembas-check's own: the index is the harness's (embeddings and full text), and the scores stand
// in for what it would make; what is checked is the fusion, the view's filter and the result.
type indexPassage struct {
	Path    string   `json:"path"`
	Lines   [2]int   `json:"lines"`
	Text    string   `json:"text"`
	Meaning *float64 `json:"meaning"`
	Words   *float64 `json:"words"`
}

// setIndex takes the index; it is what makes the session offer search, so it is fixed when the
// session starts. Called with mu held.
func (s *session) setIndex(ps []indexPassage) error {
	if s.started {
		return &sdk.RequestError{Code: -32602, Message: "index: the index is given before the session's first turn"}
	}
	s.index = []search.Passage{}
	for _, p := range ps {
		s.index = append(s.index, search.Passage{Path: fsaccess.Resolve("/", p.Path), Start: p.Lines[0],
			End: p.Lines[1], Text: p.Text, Meaning: p.Meaning, Words: p.Words})
	}
	return nil
}

// offerable are the tools the session could offer: search only with an index to search.
func (s *session) offerable() []string {
	names := toolNames()
	if s.index == nil {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "search" })
	}
	return names
}

// searchIndex is a search call (filesystem.md, A search): the index's passages ranked under the view,
// each result naming its real path, separated by a blank line. Called with mu held.
func (s *session) searchIndex(a args) (string, error) {
	v, err := s.disk.view()
	if err != nil {
		return "", err
	}
	q := search.Query{Limit: a.Limit}
	if a.Path != "" {
		_, vp, pv, msg := s.disk.resolve(a.Path)
		if msg != "" {
			return "", failure(msg)
		}
		q.Path, v = vp, pv
	}
	found, err := search.Search(v, s.index, q)
	if err != nil {
		return "", s.viewErr(err)
	}
	var out []string
	for _, p := range found {
		p.Path = filepath.ToSlash(s.disk.real(p.Path))
		out = append(out, search.Result(p))
	}
	return strings.Join(out, "\n\n"), nil
}
