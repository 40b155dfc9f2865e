package livetarget

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// modulesFile is a modules case's file as the live target writes it: a string, or a padded file
// {text, pad, size} (text, then pad up to size bytes), made whole on disk as the case has it.
func modulesFile(fp string, raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var p struct {
		Text string `json:"text"`
		Pad  string `json:"pad"`
		Size int    `json:"size"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || len(p.Pad) != 1 || p.Size < len(p.Text) {
		return "", fmt.Errorf("%s: a padded file is {\"text\", \"pad\", \"size\"}, pad one character", fp)
	}
	return p.Text + strings.Repeat(p.Pad, p.Size-len(p.Text)), nil
}

// modulesLinks is a case's links as the session directory holds them (an absolute target under
// its root, as writeLinks makes it), or why not: a relative target that climbs above /, whose
// real place would be outside the session directory.
func modulesLinks(links map[string]json.RawMessage) (map[string]string, error) {
	out := map[string]string{}
	for l, raw := range links {
		var t string
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("links[%q]: a link's target is a path", l)
		}
		if !strings.HasPrefix(t, "/") && fsaccess.AboveRoot(path.Dir(l), t) {
			return nil, skipf("the link %s → %s climbs above /, which from a session directory leaves it", l, t)
		}
		out[l] = t
	}
	return out, nil
}

// gitAt is where the repository's marker goes for a project root: through a link the root is,
// to where it leads, since the files are written before the links are made.
func gitAt(root string, links map[string]string) string {
	for range len(links) + 1 { // a chain of links is followed, a loop is not
		t, ok := links[strings.TrimSuffix(root, "/")]
		if !ok {
			return root
		}
		if !strings.HasPrefix(t, "/") {
			t = path.Join(path.Dir(root), t)
		}
		root = t
	}
	return root
}

// outsideTouch says why a case's answer shows nothing: a touch of a path not below the Project
// root as the session names it (outside it, or below the real place a linked root leads to) is a
// read the harness refused (its view ends at the root by its text), so nothing was touched and the
// rule about such a touch was not put to it.
func outsideTouch(e *env, root string, reads map[string]string, q *request) error {
	var refused []string
	for id, tp := range reads {
		r := fsaccess.Resolve("/", tp)
		if r == root || strings.HasPrefix(r, strings.TrimSuffix(root, "/")+"/") {
			continue
		}
		if res, ok := q.result(id); ok && isFSError(strings.TrimSpace(withoutBracket(e.casePaths(res)))) {
			refused = append(refused, tp)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	slices.Sort(refused)
	return skipf("the harness refused the read of %s, not below the Project root %s as the session names it, "+
		"so nothing was touched: a harness whose reads reach such a path would show the rule",
		strings.Join(refused, ", "), root)
}
