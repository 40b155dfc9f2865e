package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/runner/selection"
)

// Expectations are known failures: a case id (or a glob of ids) and why it fails. A listed case
// that fails is xfail; one that passes is xpass, which fails the run so the list is kept honest.
type Expectations struct {
	entries []expectation
}

type expectation struct {
	pattern string
	glob    *selection.Glob
	reason  string
	line    int
	used    bool
}

// LoadExpectations reads an expectations file: either a JSON object {"<id or glob>": "reason"},
// or lines "<id or glob> <reason>" with `#` comments and blank lines.
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
		if strings.TrimSpace(reason) == "" {
			return fmt.Errorf("line %d: %s has no reason: say why it is expected to fail", line, pattern)
		}
		e.entries = append(e.entries, expectation{pattern: pattern, glob: g, reason: reason, line: line})
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

// Reason says whether an id is expected to fail, and why.
func (e *Expectations) Reason(id string) (string, bool) {
	if e == nil {
		return "", false
	}
	for i := range e.entries {
		if e.entries[i].glob.Match(id) {
			e.entries[i].used = true
			return e.entries[i].reason, true
		}
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

// Apply turns a result the expectations list into an xfail (or, when it passed, an xpass); a
// skipped or interrupted result stays as it is. Targets whose results come from elsewhere (the
// live runner's verdicts) use it too.
func (e *Expectations) Apply(r *Result) {
	if reason, ok := e.Reason(r.Case.ID); ok && r.Verdict != Skip && r.Verdict != Interrupted {
		r.Expected = reason
		if r.Verdict == Pass {
			r.Verdict = XPass
		} else {
			r.Verdict = XFail
		}
	}
}
