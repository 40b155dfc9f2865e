package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/selection"
)

// Expectations are known failures and known skips: a case id (or a glob of ids) and why it
// fails, or `skip` and why it is skipped. A listed case that fails is xfail; one that passes is
// xpass, which fails the run so the list is kept honest. A skip the list does not name is an
// unlisted skip, which fails the run too: a case checked last week and skipped today is a loss a
// CI must see. A case listed as skipped that passes is an xpass: take it off the list.
type Expectations struct {
	entries []expectation
}

type expectation struct {
	pattern string
	glob    *selection.Glob
	reason  string
	// skip: the entry lists a known skip ("ID skip WHY"), not a known failure.
	skip bool
	line int
	used bool
}

// skipWord starts a known skip's text: "chunk/* skip the CLI has no chunker".
const skipWord = "skip"

// LoadExpectations reads an expectations file: either a JSON object {"<id or glob>": "reason"},
// or lines "<id or glob> <reason>" with `#` comments and blank lines. In either, a reason whose
// first word is `skip` lists a known skip ("chunk/* skip no chunker yet"), any other a known
// failure.
func LoadExpectations(path string) (*Expectations, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	e, err := ParseExpectations(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}

// ParseExpectations parses the contents of an expectations file.
func ParseExpectations(b []byte) (*Expectations, error) {
	e := &Expectations{}
	add := func(pattern, reason string, line int) error {
		g, err := selection.CompileGlob(pattern)
		if err != nil {
			return fmt.Errorf("line %d: %q: %v", line, pattern, err)
		}
		x := expectation{pattern: pattern, glob: g, reason: strings.TrimSpace(reason), line: line}
		if word, rest, _ := strings.Cut(x.reason, " "); word == skipWord {
			x.skip, x.reason = true, strings.TrimSpace(rest)
		}
		if x.reason == "" {
			what := "fail"
			if x.skip {
				what = "be skipped"
			}
			return fmt.Errorf("line %d: %s has no reason: say why it is expected to %s", line, pattern, what)
		}
		e.entries = append(e.entries, x)
		return nil
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var m map[string]string
		if err := json.Unmarshal(t, &m); err != nil {
			return nil, fmt.Errorf("a JSON expectations file is an object of id → reason: %v", err)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := add(k, m[k], 0); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		if err := add(id, strings.TrimSpace(reason), n); err != nil {
			return nil, err
		}
	}
	return e, sc.Err()
}

// lookup finds the first entry that lists id, marking it used.
func (e *Expectations) lookup(id string) *expectation {
	if e == nil {
		return nil
	}
	for i := range e.entries {
		if e.entries[i].glob.Match(id) {
			e.entries[i].used = true
			return &e.entries[i]
		}
	}
	return nil
}

// Reason says whether an id is expected to fail, and why.
func (e *Expectations) Reason(id string) (string, bool) {
	if x := e.lookup(id); x != nil && !x.skip {
		return x.reason, true
	}
	return "", false
}

// Unused lists the patterns that matched no case of the run, for a warning: a stale entry hides
// nothing today but may hide a real failure tomorrow.
func (e *Expectations) Unused() []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, x := range e.entries {
		if !x.used {
			out = append(out, x.pattern)
		}
	}
	return out
}

// Apply turns a result the expectations list into an xfail (or, when it passed, an xpass), and
// a skip they do not list into an unlisted skip; an interrupted result stays as it is, and so
// does a listed skip (its Expected says why it was listed). Without expectations (nil) nothing
// changes. Targets whose results come from elsewhere (the live runner's verdicts) use it too.
func (e *Expectations) Apply(r *Result) {
	if e == nil || r.Verdict == Interrupted {
		return
	}
	x := e.lookup(r.Case.ID)
	switch {
	case x == nil:
		if r.Verdict == Skip {
			r.Verdict = UnlistedSkip
		}
	case x.skip:
		r.Expected = skipWord + ": " + x.reason
		if r.Verdict == Pass {
			r.Verdict = XPass
		}
	case r.Verdict == Skip:
	case r.Verdict == Pass:
		r.Expected, r.Verdict = x.reason, XPass
	default:
		r.Expected, r.Verdict = x.reason, XFail
	}
}

// WriteExpectations writes the expectations file that makes rep's run pass as it is (a
// baseline, `run --write-expect`): each failure's id with its verdict and message as the reason,
// each skip's id with `skip` and its reason. A result already listed keeps its listed reason.
func WriteExpectations(w io.Writer, rep *Report) error {
	fmt.Fprintf(w, "# lembas-check expectations, written by --write-expect from a run of %s\n", rep.Target.Name())
	fmt.Fprintf(w, "# <id or glob> <why it fails>, or <id or glob> skip <why it is skipped>: edit the reasons\n")
	for _, x := range rep.Results {
		var line string
		switch x.Verdict {
		case Skip, UnlistedSkip:
			line = skipWord + " " + oneLineReason(x.Expected, x.Message, "skipped")
		case XFail:
			line = oneLineReason(x.Expected, string(XFail))
		case Pass, XPass, Interrupted:
			continue // an xpass is listed no more: it passes
		default:
			line = oneLineReason(string(x.Verdict) + ": " + oneLineReason(x.Message,
				"the answer differs from the expectation"))
		}
		if _, err := fmt.Fprintf(w, "%s %s\n", x.Case.ID, line); err != nil {
			return err
		}
	}
	return nil
}

// oneLineReason is the first of its texts that is not empty, on one line (a reason is the rest of
// a line): listed's "skip: " taken off.
func oneLineReason(texts ...string) string {
	for _, t := range texts {
		t = strings.TrimPrefix(t, skipWord+": ")
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			return t
		}
	}
	return ""
}
