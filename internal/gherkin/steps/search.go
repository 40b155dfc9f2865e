package steps

import (
	"fmt"
	"strconv"
	"strings"
)

// One of lembas-check's own areas (filesystem.md, A search).

// search: one search (or one grep) over a session's view. Givens lay out the view (as
// fs_access's) and the passages the index holds with their scores; the When is the search or the
// grep; Thens say the results or the matches.

type searchBuilder struct {
	fields   map[string]any
	searched bool
}

func (b *searchBuilder) Case() (map[string]any, error) {
	if _, ok := b.fields["tree"]; !ok {
		return nil, fmt.Errorf("no tree: lay it out with `Given the tree:`")
	}
	if _, ok := b.fields["passages"]; !ok {
		return nil,
			fmt.Errorf("no passages: say what the index holds with `Given the passages:` (or `Given no passages`)")
	}
	if !b.searched {
		return nil, fmt.Errorf("no search: a When says it, e.g. `When the session searches everything` or " +
			"`When the session greps for \"TEXT\"`")
	}
	return b.fields, nil
}

func (b *searchBuilder) search(p *string, limit int) error {
	if b.searched {
		return fmt.Errorf("this scenario already searches: a case is one search or one grep")
	}
	b.searched = true
	if p != nil {
		b.fields["path"] = *p
	}
	if limit > 0 {
		b.fields["limit"] = limit
	}
	return nil
}

// grep makes the case a grep for text (a regular expression with pattern), under p when set.
func (b *searchBuilder) grep(p *string, text string, pattern bool) error {
	if err := b.search(p, 0); err != nil {
		return err
	}
	b.fields["grep"] = text
	if pattern {
		b.fields["pattern"] = true
	}
	return nil
}

// score reads a score cell: a number, or empty when that search did not return the passage.
func score(cell string) (any, bool, error) {
	cell = strings.TrimSpace(cell)
	if cell == "" || cell == "-" {
		return nil, false, nil
	}
	f, err := strconv.ParseFloat(cell, 64)
	if err != nil {
		return nil, false, fmt.Errorf("score %q is not a number (leave the cell empty when that search did not "+
			"return the passage)", cell)
	}
	return f, true, nil
}

// result is a search result as the answer writes it: the passage's place, a line break, the text.
func result(where, text string) string { return where + "\n" + text }

// Search is the vocabulary of area search: rank fusion filtered by the view.
var Search = &Vocabulary{newBuilder: func() builder { return &searchBuilder{fields: map[string]any{}} },
	define: searchSteps}

func searchSteps() []stepDef {
	type B = searchBuilder
	steps := viewSteps(func(b *B) map[string]any { return b.fields })
	steps = append(steps,
		step(Given, "the passages:", tableArg,
			"what the index holds for the query: path, lines (start-end), meaning and words scores (empty: not "+
				"returned by that search), text (\\n for a line break)",
			func(b *B, a *args) error {
				rows, err := a.rows(5)
				if err != nil {
					return err
				}
				ps := []any{}
				for i, r := range rows {
					var start, end int
					if _, err := fmt.Sscanf(strings.TrimSpace(r[1]), "%d-%d", &start, &end); err != nil {
						return fmt.Errorf("row %d: lines %q: want START-END", i+1, r[1])
					}
					p := map[string]any{"path": strings.TrimSpace(r[0]), "lines": []int{start, end}, "text": r[4]}
					for _, s := range []struct {
						key, cell string
					}{{"meaning", r[2]}, {"words", r[3]}} {
						v, ok, err := score(s.cell)
						if err != nil {
							return fmt.Errorf("row %d: %v", i+1, err)
						}
						if ok {
							p[s.key] = v
						}
					}
					ps = append(ps, p)
				}
				b.fields["passages"] = ps
				return nil
			}, "path", "lines", "meaning", "words", "text"),
		step(Given, "no passages", noArg, "the index holds nothing for the query",
			func(b *B, a *args) error { b.fields["passages"] = []any{}; return nil }),
		step(When, "the session searches everything", noArg, "a search without path or limit",
			func(b *B, a *args) error { return b.search(nil, 0) }),
		step(When, "the session searches everything for {int:limit} results", noArg,
			"a search without path, with a limit",
			func(b *B, a *args) error { return b.search(nil, a.num(0)) }),
		step(When, "the session searches {string:path}", noArg, "a search of one directory",
			func(b *B, a *args) error { p := a.str(0); return b.search(&p, 0) }),
		step(When, "the session searches {string:path} for {int:limit} results", noArg,
			"a search of one directory, with a limit",
			func(b *B, a *args) error { p := a.str(0); return b.search(&p, a.num(1)) }),
		thenPart[B]("the results are, best first:", tableArg,
			"every result in order: its path and line range (PATH:START-END), and the passage",
			nil, field("results", tableWant(2, func(r []string) string {
				return result(strings.TrimSpace(r[0]),
					r[1])
			})), "result", "passage"),
		thenPart[B]("there are no results", noArg, `the answer is {"results": []}`, nil,
			is(map[string]any{"results": []string{}})),
		thenPart[B]("there are {int:n} results", noArg, "how many results", path{"results", length}, valWant(0)),
		step(Then, "result {int:n} is {string:where}", noArg,
			"the first line of one result (PATH:START-END), counting from 1",
			func(b *B, a *args) error {
				n, err := a.counted(0, "results")
				if err != nil {
					return err
				}
				return a.expect(path{"results", n, firstLine}, a.str(1))
			}),
		failsWith[B](),
	)
	return append(steps, grepSteps()...)
}

// grepSteps make the case a grep, the search's exact counterpart, and read its matches.
func grepSteps() []stepDef {
	type B = searchBuilder
	return []stepDef{
		step(When, "the session greps for {string:text}", noArg,
			"a grep of everything the session sees for the text as written (not a pattern)",
			func(b *B, a *args) error { return b.grep(nil, a.str(0), false) }),
		step(When, "the session greps {string:path} for {string:text}", noArg, "a grep of one directory",
			func(b *B, a *args) error { p := a.str(0); return b.grep(&p, a.str(1), false) }),
		step(When, "the session greps for the pattern {string:pattern}", noArg,
			"a grep of everything for a regular expression (RE2)",
			func(b *B, a *args) error { return b.grep(nil, a.str(0), true) }),
		step(When, "the session greps {string:path} for the pattern {string:pattern}", noArg,
			"a grep of one directory for a regular expression",
			func(b *B, a *args) error { p := a.str(0); return b.grep(&p, a.str(1), true) }),
		thenPart[B]("the matches are:", tableArg, "every line the grep found, in order (by path, then line): PATH:LINE",
			nil, field("matches", tableWant(1, func(r []string) string { return strings.TrimSpace(r[0]) })), "match"),
		thenPart[B]("there are no matches", noArg, `the answer is {"matches": []}`, nil,
			is(map[string]any{"matches": []string{}})),
	}
}
