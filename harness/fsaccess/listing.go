package fsaccess

import (
	"strings"
)

// listText is a directory's listing as the tool shows it (filesystem.md *A listing*): read's is
// the directory's own entries; list's a tree depth levels deep (0: the default, above the most:
// the most), each level indented further, a directory's entries right after it. An empty
// directory is its own text; past the cap, the cap's line ends it. A file given to read is ok
// (nil text); to list, Not a directory.
func (v *View) listText(p string, isRead bool, depth int) (*string, *Error) {
	t := SpecTexts()
	k, ok := v.visible(p)
	switch {
	case !ok:
		return nil, v.unseen(p)
	case k == File && isRead:
		return nil, nil
	case k == File:
		return nil, fail(NotADirectory, p)
	}
	if isRead {
		depth = 1
	} else if depth <= 0 {
		depth = t.DepthDefault
	}
	depth = min(depth, t.DepthMax)
	// The text is written as the tree is walked; the walk stops at the first line past the cap,
	// which only says there is more.
	var sb strings.Builder
	lines := 0
	var walk func(dir string, level int)
	walk = func(dir string, level int) {
		for _, e := range v.entries(dir) {
			if lines == t.MaxLines {
				lines++
				return
			}
			if lines > 0 {
				sb.WriteByte('\n')
			}
			lines++
			for range t.Indent * level {
				sb.WriteByte(' ')
			}
			sb.WriteString(e)
			if level+1 >= depth {
				continue
			}
			if name, _, isDir := strings.Cut(e, t.DirSuffix); isDir {
				if q := Join(dir, name); v.nodes[q].kind.IsDir() {
					walk(q, level+1)
				}
			}
			if lines > t.MaxLines {
				return
			}
		}
	}
	walk(p, 0)
	var text string
	switch {
	case lines == 0 && isRead:
		text = t.EmptyRead
	case lines == 0:
		text = t.EmptyList
	case lines > t.MaxLines:
		sb.WriteByte('\n')
		sb.WriteString(t.MoreLine)
		text = sb.String()
	default:
		text = sb.String()
	}
	return &text, nil
}

// edit checks p may be changed in place: a visible file at stage or above (a missing one is No
// such file or directory, as for every tool that needs it to exist), read in this session and not
// changed since (filesystem.md *Errors*, the second table). The view's level comes first: a file
// the session may not change is refused for that, read or not.
func (v *View) edit(p string, reads, changed map[string]bool) *Error {
	k, ok := v.visible(p)
	switch {
	case !ok:
		return v.unseen(p)
	case k.IsDir():
		return fail(IsADirectory, p)
	case v.level(p) < Stage:
		return fail(ReadOnly, p)
	case !reads[p]:
		return fail(NotRead, p)
	case changed[p]:
		return fail(ChangedSinceRead, p)
	}
	return nil
}

// resolveAll is a set of paths, resolved.
func (v *View) resolveAll(ps []string) map[string]bool {
	out := make(map[string]bool, len(ps))
	for _, p := range ps {
		out[v.Resolve(p)] = true
	}
	return out
}
