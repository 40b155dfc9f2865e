package chat

import (
	"strconv"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/lazyre"
)

// PathAt is the JSON path, relative to raw's root, of the innermost value holding byte off:
// `.content`, `.tool_calls[0].function.arguments`, "" for the root itself. An offset between
// members (a comma, a key) names the container; one past the end names the root.
func PathAt(raw []byte, off int) string {
	if off < 0 || off >= len(raw) {
		return ""
	}
	path := ""
	i := jsonx.SkipSpace(raw, 0)
	for depth := 0; depth < maxDepth; depth++ {
		if i >= len(raw) {
			return path
		}
		switch raw[i] {
		case '{':
			next, child := -1, ""
			skipObject(raw, i, 0, func(key []byte, s, e int) error {
				if next < 0 && off >= s && off < e {
					k, _ := stringValue(key)
					next, child = s, memberPath(k)
				}
				return nil
			})
			if next < 0 {
				return path
			}
			path, i = path+child, next
		case '[':
			next, child := -1, ""
			skipArray(raw, i, 0, func(n, s, e int) error {
				if next < 0 && off >= s && off < e {
					next, child = s, "["+strconv.Itoa(n)+"]"
				}
				return nil
			})
			if next < 0 {
				return path
			}
			path, i = path+child, next
		default:
			return path
		}
	}
	return path
}

var plainKey = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// memberPath writes a key as `.key`, or `["a key"]` when it is not a plain name.
func memberPath(k string) string {
	if plainKey().MatchString(k) {
		return "." + k
	}
	return "[" + strconv.Quote(k) + "]"
}
