package refagent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// disk is a session's files: its boundary on disk, seen through an fsaccess view of one level
// (filesystem.md: on a device "the boundary is the project root"; the CLI's disk "is one level for
// the whole working directory"). Paths the model gives are resolved by their text against the
// start directory (filesystem.md, Paths); inside the boundary the view answers, with the spec's
// error texts naming the real path; outside it, everything is at none.
type disk struct {
	root string // the boundary, absolute and clean
	cwd  string // the start directory, absolute and clean
	// access is the levels the person's permission rules give (_lembas/configure's grants,
	// floor and mounts, in the view's terms); nil: stage everywhere in the boundary.
	access *access
}

// access is a session's grants, floor and mounts, as filesystem.md's view takes them.
type access struct {
	grants, floor, forge map[string]fsaccess.Level
	mounts               []string
}

// boundaryOf is the project root of a start directory: the nearest directory at or above it that
// holds .git (where a repository begins), else the start directory itself.
func boundaryOf(cwd string) string {
	for d := cwd; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return cwd
		}
	}
}

// abs is a path as the call gave it, made absolute against the start directory by its text.
func (d *disk) abs(p string) string {
	return fsaccess.Resolve(filepath.ToSlash(d.cwd), filepath.ToSlash(p))
}

// inView is an absolute path in the view's terms ("/" is the boundary), and whether it is inside.
func (d *disk) inView(abs string) (string, bool) {
	root := filepath.ToSlash(d.root)
	switch {
	case !fsaccess.Within(root, abs):
		return "", false
	case abs == root:
		return "/", true
	case root == "/":
		return abs, true
	}
	return abs[len(root):], true
}

// real is a view path on disk.
func (d *disk) real(vp string) string {
	if vp == "/" {
		return d.root
	}
	return filepath.Join(d.root, filepath.FromSlash(vp))
}

// text is an error of the view as the model is told it: the spec's words, naming the real path.
func (d *disk) text(e *fsaccess.Error) string {
	return fsaccess.SpecTexts().Errors[e.Code].Render(filepath.ToSlash(d.real(e.Path)))
}

// denied is the error for a path outside the boundary: not open to this session.
func denied(abs string) string {
	return fsaccess.SpecTexts().Errors[fsaccess.AccessDenied].Render(abs)
}

// view is the boundary's tree as it is now, at stage everywhere in it unless the person's
// permission rules say otherwise.
func (d *disk) view() (*fsaccess.View, error) {
	tree, err := d.walk()
	if err != nil {
		return nil, err
	}
	return d.viewOf(tree)
}

// listingView is the view a listing of vp reads: a device's (filesystem.md, A listing: "A device
// leaves out ignored and build directories (`.git`, `node_modules`, …, and what `.gitignore`
// says)"), the tree less what fsaccess.DeviceTree leaves out. Only listings leave them out: a
// read or a change of an ignored path still reaches it.
func (d *disk) listingView(vp string) (*fsaccess.View, error) {
	tree, err := d.walk()
	if err != nil {
		return nil, err
	}
	gitignore := map[string][]string{}
	for _, p := range tree {
		if fsaccess.Base(p) == fsaccess.GitignoreFile {
			if b, err := os.ReadFile(d.real(p)); err == nil {
				gitignore[p] = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			}
		}
	}
	return d.viewOf(fsaccess.DeviceTree(tree, gitignore, vp))
}

// walk is the boundary's tree in view terms (a directory ending with /).
func (d *disk) walk() ([]string, error) {
	var tree []string
	err := filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == d.root {
				return err
			}
			return nil // a directory that went while walking, or cannot be read: not seen
		}
		if p == d.root {
			return nil
		}
		rel := "/" + filepath.ToSlash(strings.TrimPrefix(p, d.root+string(filepath.Separator)))
		if e.IsDir() {
			rel += "/"
		}
		tree = append(tree, rel)
		return nil
	})
	return tree, err
}

// viewOf is the view of tree at stage everywhere, unless the person's permission rules say
// otherwise.
func (d *disk) viewOf(tree []string) (*fsaccess.View, error) {
	cwd, ok := d.inView(filepath.ToSlash(d.cwd))
	if !ok {
		return nil, errors.New("the start directory is outside the boundary")
	}
	c := fsaccess.Config{Tree: tree, Grants: map[string]fsaccess.Level{"/": fsaccess.Stage}, Cwd: cwd}
	if a := d.access; a != nil {
		c.Grants, c.Floor, c.Mounts, c.Forge = a.grants, a.floor, a.mounts, a.forge
	}
	return fsaccess.New(c)
}

// resolve is the call's path: absolute, in view terms, and the view; msg is the error the call
// answers instead (outside the boundary, or a tree that cannot be read).
func (d *disk) resolve(p string) (abs, vp string, v *fsaccess.View, msg string) {
	abs = d.abs(p)
	vp, ok := d.inView(abs)
	if !ok {
		return abs, "", nil, denied(abs)
	}
	v, err := d.view()
	if err != nil {
		return abs, vp, nil, err.Error()
	}
	return abs, vp, v, ""
}
