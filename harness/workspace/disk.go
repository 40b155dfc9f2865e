// Package workspace is the reference of area workspace: per-session workspace roots, the design
// of seeds/002 ("Session Workspaces"): an allowlist of roots (the serve default and those
// registered), the "/" sentinel that means the default at session/new and the stored root at
// session/load, a root fixed at creation, and containment — a path the session uses must really
// be inside its root, symlinks followed (by fsaccess.Real). It is the one harness package that
// touches a real disk: a case's tree is held in memory (Memory), which answers as that disk would,
// or, where that is not sure, made in a temporary directory, links and all, resolved there, and
// removed; answers name paths as the case does, never the temporary directory.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Limits a tree is held to, so a case cannot ask the disk for more than a case needs.
const (
	maxEntries = 1000
	maxName    = 255 // bytes, the common file system limit
	maxDepth   = 32
)

// TreeError is a tree that cannot be made, naming the entry as a case names it.
type TreeError struct {
	Field string
	Msg   string
}

func (e *TreeError) Error() string { return e.Field + ": " + e.Msg }

// CheckTree says whether Materialize can make tree (absolute paths, a directory ending with `/`,
// parents implied) and links (absolute path → target as written), without touching a disk.
func CheckTree(tree []string, links map[string]string) error {
	if len(tree)+len(links) > maxEntries {
		return &TreeError{"tree", fmt.Sprintf("%d entries; at most %d", len(tree)+len(links), maxEntries)}
	}
	kind := map[string]string{"/": "dir"}
	add := func(field, p, k string) error {
		if err := checkPath(p); err != nil {
			return &TreeError{field, err.Error()}
		}
		c := path.Clean(p)
		for q := path.Dir(c); q != "/"; q = path.Dir(q) {
			switch kind[q] {
			case "file", "link":
				return &TreeError{field, fmt.Sprintf("%s is below %s, a %s", c, q, kind[q])}
			}
			kind[q] = "dir"
		}
		if have, ok := kind[c]; ok && (have != k || k != "dir") {
			return &TreeError{field, fmt.Sprintf("%s is a %s and a %s", c, have, k)}
		}
		kind[c] = k
		return nil
	}
	for i, p := range tree {
		k := "file"
		if strings.HasSuffix(p, "/") {
			k = "dir"
		}
		if err := add(fmt.Sprintf("tree[%d]", i), p, k); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(links))
	for p := range links {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		field := fmt.Sprintf("links[%q]", p)
		t := links[p]
		if t == "" || strings.ContainsRune(t, 0) || len(t) > 4096 {
			return &TreeError{field, "want a target: a non-empty path"}
		}
		if path.Clean(p) == "/" {
			return &TreeError{field, "/ is a directory, not a link"}
		}
		if err := add(field, p, "link"); err != nil {
			return err
		}
	}
	// A directory implied below a link (a tree entry under it) was caught above only when the
	// link came first; check again now that every link is known.
	for _, p := range tree {
		c := path.Clean(p)
		for q := path.Dir(c); q != "/"; q = path.Dir(q) {
			if _, ok := links[q]; ok {
				return &TreeError{"tree", fmt.Sprintf("%s is below %s, a link", c, q)}
			}
		}
	}
	return nil
}

func checkPath(p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("%q is not absolute", p)
	}
	if strings.ContainsRune(p, 0) {
		return fmt.Errorf("%q holds a NUL", p)
	}
	depth := 0
	for _, name := range strings.Split(p, "/") {
		switch {
		case name == "":
			continue
		case name == "." || name == "..":
			return fmt.Errorf("%q: a tree path may not name . or .. as a part", p)
		case len(name) > maxName:
			return fmt.Errorf("%q: a name of %d bytes; at most %d", p, len(name), maxName)
		}
		depth++
	}
	if depth > maxDepth {
		return fmt.Errorf("%q: %d levels deep; at most %d", p, depth, maxDepth)
	}
	return nil
}

// Disk is a tree made on the real disk, below a temporary directory that stands for `/`.
type Disk struct {
	top string
}

// Materialize makes tree and links (checked by CheckTree) in a new temporary directory. An
// absolute link target is written below that directory, so every link stays in it; Close
// removes it all.
func Materialize(tree []string, links map[string]string) (d *Disk, err error) {
	if err := CheckTree(tree, links); err != nil {
		return nil, err
	}
	top, err := mkdirTemp()
	if err != nil {
		return nil, err
	}
	d = &Disk{top: top}
	defer func() {
		if err != nil {
			d.Close()
			d = nil
		}
	}()
	for _, p := range tree {
		host := d.host(path.Clean(p))
		if strings.HasSuffix(p, "/") {
			err = os.MkdirAll(host, 0o755)
		} else if err = os.MkdirAll(filepath.Dir(host), 0o755); err == nil {
			err = os.WriteFile(host, nil, 0o644)
		}
		if err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(links))
	for p := range links {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		target := links[p]
		if strings.HasPrefix(target, "/") {
			target = d.host(target)
		}
		host := d.host(path.Clean(p))
		if err = os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
			return nil, err
		}
		if err = os.Symlink(target, host); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// TempPrefix begins the name of every temporary tree.
const TempPrefix = "lembas-workspace-"

// memoryDir is where a tree is made when TMPDIR does not say: a memory-backed file system,
// where making and removing a small tree takes a fraction of a millisecond rather than the
// several a disk's metadata writes may cost per case. Links and lstat work there as anywhere.
const memoryDir = "/dev/shm"

// mkdirTemp makes the tree's top: under TMPDIR when it is set, else under memoryDir when that
// can be written, else under the system's temporary directory.
func mkdirTemp() (string, error) {
	if os.Getenv("TMPDIR") == "" {
		if top, err := os.MkdirTemp(memoryDir, TempPrefix); err == nil {
			return top, nil
		}
	}
	return os.MkdirTemp("", TempPrefix)
}

// Close removes the tree.
func (d *Disk) Close() error { return os.RemoveAll(d.top) }

// host is where a case's path is on the real disk.
func (d *Disk) host(p string) string { return filepath.Join(d.top, filepath.FromSlash(p)) }

// ErrLoop is a resolution that met more than fsaccess.MaxLinks links.
var ErrLoop = fsaccess.ErrLoop

// Real is where the case path p (absolute) really is, resolved on the disk by fsaccess.Real: a
// link's target is read from the disk and followed, `..` goes up from where the path has really
// led, and `..` at `/` stays there — the temporary directory is the top, never left. From the
// first name that is not there, the rest is appended as written (`..` read by its text), as a
// write to a new path needs. A `/` or `.` after a file changes nothing
// (fsaccess.SlashIgnored: "a trailing `/` changes nothing"). The answer is a case path.
func (d *Disk) Real(p string) (string, fsaccess.Entry, error) {
	return fsaccess.Real(d, p, fsaccess.SlashIgnored)
}

// Lstat is what is at the case path p itself (fsaccess.Links).
func (d *Disk) Lstat(p string) (fsaccess.Entry, error) {
	fi, err := os.Lstat(d.host(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fsaccess.NoEntry, nil
	case err != nil:
		return fsaccess.NoEntry, caseError(p, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fsaccess.LinkEntry, nil
	case fi.IsDir():
		return fsaccess.DirEntry, nil
	}
	return fsaccess.FileEntry, nil
}

// Readlink is the target of the link at the case path p, an absolute one as a case path
// (fsaccess.Links).
func (d *Disk) Readlink(p string) (string, error) {
	target, err := os.Readlink(d.host(p))
	if err != nil {
		return "", caseError(p, err)
	}
	if filepath.IsAbs(target) {
		return d.unhost(target), nil
	}
	return filepath.ToSlash(target), nil
}

// caseError names the case path instead of the host path an os error carries.
func caseError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", p, err)
}

// unhost turns a target Materialize wrote back into a case path.
func (d *Disk) unhost(target string) string {
	if rel, err := filepath.Rel(d.top, target); err == nil && rel != ".." && !strings.HasPrefix(rel,
		".."+string(filepath.Separator)) {
		return "/" + filepath.ToSlash(rel)
	}
	return filepath.ToSlash(target)
}
