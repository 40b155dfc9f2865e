package live

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// JSONPath is what a JSON path of an HTTP profile selects in doc: every match, strings as they
// are and other values as JSON, joined by "" — $.id, $.parts[*].text, $.info.id, $[0].id, $[-1].id
// (the last). A path that is not of that small grammar is an error; one that matches nothing gives "".
func JSONPath(doc []byte, path string) (string, error) {
	if !strings.HasPrefix(path, "$") {
		return "", fmt.Errorf("JSON path %q: want $.…", path)
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return "", fmt.Errorf("the answer is not JSON: %v", err)
	}
	return selectPath(v, path)
}

// selectPath is JSONPath on a decoded document (an event read against several paths is decoded
// once).
func selectPath(v any, path string) (string, error) {
	if !strings.HasPrefix(path, "$") {
		return "", fmt.Errorf("JSON path %q: want $.…", path)
	}
	cur := []any{v}
	rest := path[1:]
	for rest != "" {
		var next []any
		switch {
		case strings.HasPrefix(rest, "."):
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			key := rest[1 : 1+end]
			if key == "" {
				return "", fmt.Errorf("JSON path %q: an empty name (.. is not taken)", path)
			}
			rest = rest[1+end:]
			for _, c := range cur {
				if m, ok := c.(map[string]any); ok {
					if x, ok := m[key]; ok {
						next = append(next, x)
					}
				}
			}
		case strings.HasPrefix(rest, "["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return "", fmt.Errorf("JSON path %q: an unclosed [", path)
			}
			idx := rest[1:end]
			rest = rest[end+1:]
			for _, c := range cur {
				a, ok := c.([]any)
				if !ok {
					continue
				}
				if idx == "*" {
					next = append(next, a...)
					continue
				}
				i, err := strconv.Atoi(idx)
				if err != nil {
					return "", fmt.Errorf("JSON path %q: [%s]: want an index or *", path, idx)
				}
				if i < 0 { // from the end: [-1] is the last
					i += len(a)
				}
				if i >= 0 && i < len(a) {
					next = append(next, a[i])
				}
			}
		default:
			return "", fmt.Errorf("JSON path %q: unexpected %q", path, rest)
		}
		cur = next
	}
	var b strings.Builder
	for _, c := range cur {
		if s, ok := c.(string); ok {
			b.WriteString(s)
		} else if c != nil {
			j, _ := json.Marshal(c)
			b.Write(j)
		}
	}
	return b.String(), nil
}
