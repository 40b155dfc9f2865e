package conformance

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/search"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
)

// Search is cases/search.json: `search` over a session's view (filesystem.md, A search).
var Search = Define("search", "lembas-check",
	"search: passages ranked by meaning and by words fused by rank, filtered by the session's view after scoring, in "+
		"the result form (filesystem.md, A search)", answerSearch).WithSteps(steps.Search)

type searchCase struct {
	About string `json:"about,omitempty"`
	viewFields
	Passages []searchPassage `json:"passages"`
	Path     *string         `json:"path"`
	Limit    *int            `json:"limit"`
	// Grep (lembas-check's own field) makes the case a grep for this text — with Pattern, a regular
	// expression (RE2) — over the same passages and view; the scores are not read.
	Grep    *string `json:"grep,omitempty"`
	Pattern bool    `json:"pattern,omitempty"`
}

// searchPassage is an indexed passage and its two scores for the query: `meaning` (similarity,
// higher nearer) and `words` (full-text, higher better), each absent or null when that search
// did not return it.
type searchPassage struct {
	Path    string   `json:"path"`
	Lines   []int    `json:"lines"`
	Text    *string  `json:"text"`
	Meaning *float64 `json:"meaning"`
	Words   *float64 `json:"words"`
}

func (c searchCase) Validate() error {
	v, err := c.view()
	if err != nil {
		return err
	}
	if c.Passages == nil {
		return Fieldf("passages", "missing: the indexed passages with their scores ([] for none)")
	}
	seen := map[string]int{}
	for i, p := range c.Passages {
		at := fmt.Sprintf("passages[%d]", i)
		if k, ok := v.Node(p.Path); !ok || k != fsaccess.File || fsaccess.Resolve("/", p.Path) != p.Path {
			return Fieldf(at+".path", "%q is not a file of the tree, written absolute and resolved", p.Path)
		}
		if len(p.Lines) != 2 || p.Lines[0] < 1 || p.Lines[1] < p.Lines[0] {
			return Fieldf(at+".lines", "want [start, end]: lines from 1, start ≤ end")
		}
		if p.Text == nil {
			return Fieldf(at+".text", "missing: the passage")
		}
		key := fmt.Sprintf("%s:%d-%d", p.Path, p.Lines[0], p.Lines[1])
		if j, dup := seen[key]; dup {
			return Fieldf(at, "the same passage as passages[%d]", j)
		}
		seen[key] = i
	}
	if len(c.Passages) > search.MaxPassages {
		return Fieldf("passages", "%d passages; at most %d", len(c.Passages), search.MaxPassages)
	}
	if c.Path != nil && *c.Path == "" {
		return Fieldf("path", "empty: leave it out to search everything the session can see")
	}
	if err := c.validateGrep(); err != nil {
		return err
	}
	t := search.SpecTexts()
	if c.Limit != nil && (*c.Limit < t.MinLimit || *c.Limit > t.MaxLimit) {
		return Fieldf("limit", "%d: the tool's limit is %d to %d (tools/search.json)", *c.Limit, t.MinLimit, t.MaxLimit)
	}
	return nil
}

func (c searchCase) validateGrep() error {
	switch {
	case c.Grep == nil && c.Pattern:
		return Fieldf("pattern", "is grep's: give the pattern as grep")
	case c.Grep == nil:
		return nil
	case *c.Grep == "":
		return Fieldf("grep", "empty: the text (or, with pattern, the pattern) grep looks for")
	case c.Limit != nil:
		return Fieldf("limit", "is search's: grep gives every line that matches")
	}
	if c.Pattern {
		if _, err := regexp.Compile(*c.Grep); err != nil {
			return Fieldf("grep", "not a pattern (RE2): %v", err)
		}
	}
	return nil
}

// view is the session's view; grants absent are everything readable (/ at ro), as in
// instructions.json.
func (c searchCase) view() (*fsaccess.View, error) {
	return c.viewFields.view(map[string]fsaccess.Level{"/": fsaccess.RO})
}

// searchAnswer is {results: [each "path:start-end\npassage"]}, grep's {matches: [each
// "path:line"]}, or {error}.
type searchAnswer struct {
	Results *[]string `json:"results,omitempty"`
	Matches *[]string `json:"matches,omitempty"`
	Error   *string   `json:"error,omitempty"`
}

func (a searchAnswer) Validate() error {
	n := 0
	for _, set := range []bool{a.Results != nil, a.Matches != nil, a.Error != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return Fieldf("", `the answer is {"results": […]}, {"matches": […]} or {"error": "…"}`)
	}
	return nil
}

func answerSearch(c searchCase) (searchAnswer, error) {
	v, err := c.view()
	if err != nil {
		return searchAnswer{}, err
	}
	ps := make([]search.Passage, len(c.Passages))
	for i, p := range c.Passages {
		ps[i] = search.Passage{Path: p.Path, Start: p.Lines[0], End: p.Lines[1], Text: *p.Text, Meaning: p.Meaning,
			Words: p.Words}
	}
	if c.Grep != nil {
		return answerGrep(c, v, ps)
	}
	q := search.Query{}
	if c.Path != nil {
		q.Path = *c.Path
	}
	if c.Limit != nil {
		q.Limit = *c.Limit
	}
	found, err := search.Search(v, ps, q)
	if err != nil {
		return viewRefused(err)
	}
	results := make([]string, len(found))
	for i, p := range found {
		results[i] = search.Result(p)
	}
	return searchAnswer{Results: &results}, nil
}

// viewRefused is a search's or a grep's error: the view's refusal is the answer, with its text;
// anything else is the reference's own failure.
func viewRefused(err error) (searchAnswer, error) {
	var fe *fsaccess.Error
	if errors.As(err, &fe) {
		msg := fe.Error()
		return searchAnswer{Error: &msg}, nil
	}
	return searchAnswer{}, err
}

func answerGrep(c searchCase, v *fsaccess.View, ps []search.Passage) (searchAnswer, error) {
	found, err := search.Grep(v, ps, orZero(c.Path), *c.Grep, c.Pattern)
	if err != nil {
		return viewRefused(err)
	}
	matches := make([]string, len(found))
	for i, m := range found {
		matches[i] = m.String()
	}
	return searchAnswer{Matches: &matches}, nil
}
