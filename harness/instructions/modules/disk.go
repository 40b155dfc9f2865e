package modules

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// Disk is the file system a resolver reads, as a value: file contents and symbolic links by
// absolute path, directories implied by what is below them. Links resolve as a kernel would
// (component by component, a relative target against the link's folder), which is what the
// seed's realpath checks need; nothing here reads a real disk.
type Disk struct {
	files map[string][]byte
	links map[string]string
	kids  map[string][]string // directory → names below it, sorted; nil when stale
}

// DiskError is a Disk that cannot be: a path that is not absolute, or one entry below another
// that is not a directory.
type DiskError struct {
	Path string
	Msg  string
}

func (e *DiskError) Error() string { return e.Path + ": " + e.Msg }

// NewDisk makes a disk of files (path → content) and links (path → target as written).
func NewDisk(files map[string][]byte, links map[string]string) (*Disk, error) {
	d := &Disk{files: map[string][]byte{}, links: map[string]string{}}
	for p, b := range files {
		if err := checkAbs(p); err != nil {
			return nil, err
		}
		d.files[path.Clean(p)] = b
	}
	for p, t := range links {
		if err := checkAbs(p); err != nil {
			return nil, err
		}
		if t == "" {
			return nil, &DiskError{p, "a link has a target"}
		}
		c := path.Clean(p)
		if _, dup := d.files[c]; dup || c == "/" {
			return nil, &DiskError{p, "is both a link and a file"}
		}
		d.links[c] = t
	}
	return d, d.check()
}

func checkAbs(p string) error {
	if !strings.HasPrefix(p, "/") {
		return &DiskError{p, "is not absolute"}
	}
	if path.Clean(p) == "/" {
		return &DiskError{p, "is the root directory, not a file or a link"}
	}
	return nil
}

// check refuses an entry below a file or a link: neither holds entries.
func (d *Disk) check() error {
	leaf := func(p string) bool {
		_, f := d.files[p]
		_, l := d.links[p]
		return f || l
	}
	for _, m := range []map[string]bool{keys(d.files), keys(d.links)} {
		for p := range m {
			for q := path.Dir(p); q != "/"; q = path.Dir(q) {
				if leaf(q) {
					return &DiskError{p, fmt.Sprintf("is below %s, which is not a directory", q)}
				}
			}
		}
	}
	return nil
}

func keys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// Set writes a file in place of whatever is at p; nil content removes the file at p (a link
// there stays). A change that would put an entry below a file is refused and changes nothing.
func (d *Disk) Set(p string, content []byte) error {
	return d.change(p, func(c string) {
		if content == nil {
			delete(d.files, c)
			return
		}
		delete(d.links, c)
		d.files[c] = content
	})
}

// SetLink makes p a link to target in place of whatever is there; "" removes the link at p (a
// file there stays).
func (d *Disk) SetLink(p, target string) error {
	return d.change(p, func(c string) {
		if target == "" {
			delete(d.links, c)
			return
		}
		delete(d.files, c)
		d.links[c] = target
	})
}

func (d *Disk) change(p string, do func(string)) error {
	if err := checkAbs(p); err != nil {
		return err
	}
	c := path.Clean(p)
	oldF, hadF := d.files[c]
	oldL, hadL := d.links[c]
	do(c)
	if err := d.check(); err != nil {
		delete(d.files, c)
		delete(d.links, c)
		if hadF {
			d.files[c] = oldF
		}
		if hadL {
			d.links[c] = oldL
		}
		return err
	}
	d.kids = nil
	return nil
}

// Lstat is what is at p itself.
func (d *Disk) Lstat(p string) fsaccess.Entry {
	if p == "/" {
		return fsaccess.DirEntry
	}
	if _, ok := d.files[p]; ok {
		return fsaccess.FileEntry
	}
	if _, ok := d.links[p]; ok {
		return fsaccess.LinkEntry
	}
	if _, ok := d.index()[p]; ok {
		return fsaccess.DirEntry
	}
	return fsaccess.NoEntry
}

// List is a directory's names, sorted.
func (d *Disk) List(dir string) []string { return d.index()[dir] }

func (d *Disk) index() map[string][]string {
	if d.kids != nil {
		return d.kids
	}
	set := map[string]map[string]bool{}
	add := func(p string) {
		for p != "/" {
			dir := path.Dir(p)
			if set[dir] == nil {
				set[dir] = map[string]bool{}
			}
			set[dir][path.Base(p)] = true
			p = dir
		}
	}
	for p := range d.files {
		add(p)
	}
	for p := range d.links {
		add(p)
	}
	d.kids = make(map[string][]string, len(set))
	for dir, names := range set {
		list := make([]string, 0, len(names))
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		d.kids[dir] = list
	}
	return d.kids
}

// Real is where the absolute path p really is, by fsaccess.Real: every link on the way followed,
// `..` taken from where the path has really led so far. A path that goes on past a file, even
// with a `/` alone, is nothing there (fsaccess.SlashNotADirectory: a module file must resolve as
// realpath resolves it). ok is false when the links loop or go on past fsaccess.MaxLinks.
func (d *Disk) Real(p string) (real string, kind fsaccess.Entry, ok bool) {
	real, kind, err := fsaccess.Real(walked{d}, p, fsaccess.SlashNotADirectory)
	return real, kind, err == nil
}

// walked is a Disk as the walker reads it: a disk held in memory always answers.
type walked struct{ d *Disk }

func (w walked) Lstat(p string) (fsaccess.Entry, error) { return w.d.Lstat(p), nil }
func (w walked) Readlink(p string) (string, error)      { return w.d.links[p], nil }

// Read is a file's content by its real path.
func (d *Disk) Read(real string) []byte { return d.files[real] }
