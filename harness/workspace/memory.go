package workspace

import (
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Memory is a tree held in memory that answers Lstat and Readlink as the tree Materialize makes
// answers them on Linux, without a file made or removed: fsaccess.Real only ever asks a disk
// those two things, of a name in a directory that is there, so the answers are the same. Where
// the disk's answer could depend on the host — a name longer than the kernel takes, a path long
// enough that the temporary directory's own length counts, a NUL, an absolute link target whose
// `..` climbs above `/` (the disk then reads back a host path) — Memory does not guess: it
// refuses the lookup with ErrUnsure and remembers it (Unsure), and the case is answered on a
// real disk instead (Materialize).
type Memory struct {
	kinds  map[string]fsaccess.Entry
	links  map[string]string // a link's target, as Disk.Readlink reads it back
	unsure bool
}

// ErrUnsure is a lookup Memory cannot answer as a real disk surely would.
var ErrUnsure = errors.New("this path needs a real disk")

// Bounds within which a path's answer does not depend on the host: the kernel's NAME_MAX, and a
// path short enough that it stays under PATH_MAX (4096) below any temporary directory of a sane
// length.
const (
	memoryMaxName = 255
	memoryMaxPath = 2048
)

// InMemory holds tree and links (checked by CheckTree, as Materialize checks them) in memory.
// A tree Memory cannot hold as the disk would is Unsure from the start.
func InMemory(tree []string, links map[string]string) (*Memory, error) {
	if err := CheckTree(tree, links); err != nil {
		return nil, err
	}
	m := &Memory{kinds: map[string]fsaccess.Entry{}, links: map[string]string{}}
	for _, p := range tree {
		k := fsaccess.FileEntry
		if strings.HasSuffix(p, "/") {
			k = fsaccess.DirEntry
		}
		m.add(path.Clean(p), k)
	}
	names := make([]string, 0, len(links))
	for p := range links {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		c := path.Clean(p)
		m.add(c, fsaccess.LinkEntry)
		target, ok := readBack(links[p])
		m.unsure = m.unsure || !ok
		m.links[c] = target
	}
	return m, nil
}

// add puts an entry and the directories above it.
func (m *Memory) add(c string, k fsaccess.Entry) {
	if len(c) > memoryMaxPath {
		m.unsure = true
	}
	if c != "/" {
		m.kinds[c] = k
	}
	for q := path.Dir(c); q != "/"; q = path.Dir(q) {
		m.kinds[q] = fsaccess.DirEntry
	}
}

// readBack is a link's target as Disk.Readlink reads it back: a relative one as written; an
// absolute one was written below the tree's top (filepath.Join, which cleans it) and is read
// back relative to that top — `/.` for the top itself. ok is false when that is not sure: a
// target whose `..` leaves the top (read back as a host path), or one long enough to pass the
// kernel's limit once the top is before it.
func readBack(target string) (string, bool) {
	if len(target) > memoryMaxPath {
		return target, false
	}
	if !strings.HasPrefix(target, "/") {
		return target, true
	}
	depth := 0
	for _, name := range strings.Split(target, "/") {
		switch name {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return target, false
			}
		default:
			depth++
		}
	}
	if c := path.Clean(target); c != "/" {
		return c, true
	}
	return "/.", true
}

// Unsure says some lookup (or the tree itself) needed a real disk: the answers made on m are
// not to be trusted, and the case is to be answered again on Materialize's disk.
func (m *Memory) Unsure() bool { return m.unsure }

// Lstat is what is at the path p itself (fsaccess.Links).
func (m *Memory) Lstat(p string) (fsaccess.Entry, error) {
	if len(p) > memoryMaxPath || strings.ContainsRune(p, 0) || longName(p) {
		m.unsure = true
		return fsaccess.NoEntry, ErrUnsure
	}
	return m.kinds[p], nil // NoEntry when absent
}

// Readlink is the target of the link at p (fsaccess.Links).
func (m *Memory) Readlink(p string) (string, error) {
	t, ok := m.links[p]
	if !ok {
		m.unsure = true
		return "", ErrUnsure
	}
	return t, nil
}

func longName(p string) bool {
	for len(p) > 0 {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			i = len(p)
		}
		if i > memoryMaxName {
			return true
		}
		p = p[min(i+1, len(p)):]
	}
	return false
}
