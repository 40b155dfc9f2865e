package conformance

import (
	"errors"
	"fmt"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsview"
	"github.com/LLeMbas/lembas-check/harness/search"
)

// Search is cases/search.json: `search` over a session's view (filesystem.md, A search).
var Search = Define("search", "lembas-check", "search: passages ranked by meaning and by words fused by rank, filtered by the session's view after scoring, in the result form (filesystem.md, A search)", answerSearch)

type searchCase struct {
	About    string            `json:"about,omitempty"`
	Tree     []string          `json:"tree"`
	Mounts   []string          `json:"mounts"`
	Grants   map[string]string `json:"grants"`
	Floor    map[string]string `json:"floor"`
	Cwd      *string           `json:"cwd"`
	Passages []searchPassage   `json:"passages"`
	Path     *string           `json:"path"`
	Limit    *int              `json:"limit"`
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
	if c.Tree == nil {
		return Fieldf("tree", "missing: the nodes, a directory ending with / (a list)")
	}
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
		if k, ok := v.Node(p.Path); !ok || k != fsview.File || fsview.Resolve("/", p.Path) != p.Path {
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
	t := search.SpecTexts()
	if c.Limit != nil && (*c.Limit < t.MinLimit || *c.Limit > t.MaxLimit) {
		return Fieldf("limit", "%d: the tool's limit is %d to %d (tools/search.json)", *c.Limit, t.MinLimit, t.MaxLimit)
	}
	return nil
}

// view is the session's view; grants absent are everything readable (/ at ro).
func (c searchCase) view() (*fsview.View, error) {
	cfg := fsview.Config{Tree: c.Tree, Mounts: c.Mounts}
	var err error
	if c.Grants == nil {
		cfg.Grants = map[string]fsview.Level{"/": fsview.RO}
	} else if cfg.Grants, err = levels("grants", c.Grants); err != nil {
		return nil, err
	}
	if cfg.Floor, err = levels("floor", c.Floor); err != nil {
		return nil, err
	}
	if c.Cwd != nil {
		if !strings.HasPrefix(*c.Cwd, "/") {
			return nil, Fieldf("cwd", "%q is not absolute: the start directory begins with /", *c.Cwd)
		}
		cfg.Cwd = *c.Cwd
	}
	v, err := fsview.New(cfg)
	if err != nil {
		var ce *fsview.ConfigError
		if errors.As(err, &ce) {
			return nil, Fieldf(ce.Field, "%s", ce.Msg)
		}
		return nil, err
	}
	return v, nil
}

// searchAnswer is {results: [each "path:start-end\npassage"]} or {error}.
type searchAnswer struct {
	Results *[]string `json:"results,omitempty"`
	Error   *string   `json:"error,omitempty"`
}

func (a searchAnswer) Validate() error {
	if (a.Results == nil) == (a.Error == nil) {
		return Fieldf("", `the answer is {"results": […]} or {"error": "…"}`)
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
		ps[i] = search.Passage{Path: p.Path, Start: p.Lines[0], End: p.Lines[1], Text: *p.Text, Meaning: p.Meaning, Words: p.Words}
	}
	q := search.Query{}
	if c.Path != nil {
		q.Path = *c.Path
	}
	if c.Limit != nil {
		q.Limit = *c.Limit
	}
	found, err := search.Search(v, ps, q)
	var fe *fsview.Error
	if errors.As(err, &fe) {
		msg := fe.Error()
		return searchAnswer{Error: &msg}, nil
	}
	if err != nil {
		return searchAnswer{}, err
	}
	results := make([]string, len(found))
	for i, p := range found {
		results[i] = search.Result(p)
	}
	return searchAnswer{Results: &results}, nil
}
