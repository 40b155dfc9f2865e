package modules

import (
	"fmt"
	"path"
	"slices"
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
	// The directories and what is below them, made when first asked for after a change: dirs
	// sorted, kids[i] the sorted names below dirs[i]. Slices rather than a map of sets, since
	// a disk is made per conformance case and asked only a few times: building maps was a fifth
	// of the modules area's time.
	dirs    []string
	kids    [][]string
	indexed bool
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
	for p := range d.files {
		if err := d.checkAbove(p); err != nil {
			return err
		}
	}
	for p := range d.links {
		if err := d.checkAbove(p); err != nil {
			return err
		}
	}
	return nil
}

// checkAbove refuses p when a folder above it is a file or a link (p is clean and absolute).
func (d *Disk) checkAbove(p string) error {
	for q := fsaccess.Parent(p); q != "/"; q = fsaccess.Parent(q) {
		_, f := d.files[q]
		_, l := d.links[q]
		if f || l {
			return &DiskError{p, fmt.Sprintf("is below %s, which is not a directory", q)}
		}
	}
	return nil
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
	d.indexed = false
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
	if _, ok := d.dir(p); ok {
		return fsaccess.DirEntry
	}
	return fsaccess.NoEntry
}

// List is a directory's names, sorted.
func (d *Disk) List(dir string) []string {
	if i, ok := d.dir(dir); ok {
		return d.kids[i]
	}
	return nil
}

// dir is where the directory p is in dirs, if it is one.
func (d *Disk) dir(p string) (int, bool) {
	d.index()
	return slices.BinarySearch(d.dirs, p)
}

// index makes dirs and kids: every entry's (folder, name) and its folders', each once, sorted
// and cut by folder.
func (d *Disk) index() {
	if d.indexed {
		return
	}
	paths := make([]string, 0, len(d.files)+len(d.links))
	for p := range d.files {
		paths = append(paths, p)
	}
	for p := range d.links {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	// The paths below a folder are next to each other when sorted: a folder of the path before
	// has been entered already, and so have all above it.
	all := make([]entry, 0, 2*len(paths)+2)
	prev := ""
	for _, p := range paths {
		for q := p; q != "/" && (prev == "" || !fsaccess.Within(q, prev)); q = fsaccess.Parent(q) {
			all = append(all, entry{fsaccess.Parent(q), fsaccess.Base(q)})
		}
		prev = p
	}
	slices.SortFunc(all, func(a, b entry) int {
		if c := strings.Compare(a.dir, b.dir); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	names := make([]string, len(all))
	if cap(d.dirs) < len(all) {
		d.dirs, d.kids = make([]string, 0, len(all)), make([][]string, 0, len(all))
	}
	d.dirs, d.kids = d.dirs[:0], d.kids[:0]
	from := 0
	for i, e := range all {
		names[i] = e.name
		if i+1 == len(all) || all[i+1].dir != e.dir {
			d.dirs = append(d.dirs, e.dir)
			d.kids = append(d.kids, names[from:i+1:i+1])
			from = i + 1
		}
	}
	d.indexed = true
}

// entry is a name in a directory, for index.
type entry struct{ dir, name string }

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
