package fsaccess

import (
	"errors"
	"path"
	"strings"
)

// On a device the tree has links: "On a device, a link is followed, and where the CLI's rules
// look at a path they look at where it really is" (filesystem.md, Paths). Real is the one walker
// that finds where a path really is; the rule modules (harness/instructions/modules, over a disk
// held in memory) and the workspace roots (harness/workspace, over a real disk) both use it.

// Entry is what is at a path itself, a link not followed.
type Entry int8

const (
	NoEntry   Entry = iota // nothing is there
	FileEntry              // a file
	DirEntry               // a directory
	LinkEntry              // a symbolic link
)

func (e Entry) String() string {
	switch e {
	case NoEntry:
		return "none"
	case FileEntry:
		return "file"
	case DirEntry:
		return "dir"
	case LinkEntry:
		return "link"
	}
	return "Entry(?)"
}

// Links is a file system with symbolic links as Real reads it. Paths are absolute and clean, in
// the tree's own names (`/` is the tree's top, whatever the host calls it).
type Links interface {
	// Lstat is what is at p itself. Nothing there is NoEntry and no error; an error is a disk
	// that could not answer.
	Lstat(p string) (Entry, error)
	// Readlink is the target of the link at p, as written: absolute (from the tree's `/`) or
	// relative to the link's folder.
	Readlink(p string) (string, error)
}

// MaxLinks is how many links one resolution follows before it is a loop: Linux's MAXSYMLINKS.
const MaxLinks = 40

// ErrLoop is a resolution that met more than MaxLinks links.
var ErrLoop = errors.New("too many levels of symbolic links")

// AfterFile is how Real reads a path that goes on past a file with only `/` and `.`
// ("/p/a.txt/", "/p/a.md/."), the one point where the two areas that walk links read a path
// differently. A real name after a file (`/p/a.txt/x`) is nothing there for both.
type AfterFile int8

const (
	// SlashIgnored: the file itself. A session's paths are read by filesystem.md's Paths, "`.`
	// and `..` are resolved by their text, before anything is looked up; … a trailing `/`
	// changes nothing" — harness/workspace, a link's target included.
	SlashIgnored AfterFile = iota
	// SlashNotADirectory: nothing there, as realpath(3) answers ENOTDIR for it. The rule
	// modules' files must "resolve inside realpath of the Project root" (seeds/004,
	// realPathWithin) — harness/instructions/modules.
	SlashNotADirectory
)

// Real is where the absolute path p really is on d, resolved one name at a time: a link's target
// is read and followed (an absolute one from `/`, a relative one from the link's folder), `..`
// goes up from where the path has really led so far (after a link, from its target), and `..`
// at `/` stays there. From the first name that is not there the rest is appended as written (as
// a write to a new path needs), and the entry is NoEntry; otherwise it is FileEntry or DirEntry,
// never LinkEntry. More than MaxLinks links is ErrLoop; an error of d is returned as it is.
func Real(d Links, p string, after AfterFile) (string, Entry, error) {
	// src is what is left to walk, read name by name from i. While cur is src's own text ending at
	// curEnd, the `/` before the next name, the next path is a slice of src: a clean path with no
	// link on the way is walked without a string made.
	src, i := p, 0
	cur, curEnd := "/", -1 // cur is always a directory that is there
	hops := 0
	for i <= len(src) {
		sep := i - 1 // the `/` before this name, if any
		e := strings.IndexByte(src[i:], '/')
		if e < 0 {
			e = len(src)
		} else {
			e += i
		}
		name := src[i:e]
		i = e + 1
		switch name {
		case "", ".":
			continue
		case "..":
			cur, curEnd = Parent(cur), -1
			continue
		}
		next, sliced := "", true
		switch {
		case cur == "/" && sep >= 0:
			next = src[sep:e]
		case cur != "/" && curEnd >= 0 && sep == curEnd:
			next = src[curEnd-len(cur) : e]
		default:
			next, sliced = Join(cur, name), false
		}
		ent, err := d.Lstat(next)
		if err != nil {
			return "", NoEntry, err
		}
		switch ent {
		case LinkEntry:
			if hops++; hops > MaxLinks {
				return "", NoEntry, ErrLoop
			}
			target, err := d.Readlink(next)
			if err != nil {
				return "", NoEntry, err
			}
			if strings.HasPrefix(target, "/") {
				cur = "/"
			}
			if e < len(src) {
				target += "/" + src[e+1:]
			}
			src, i, curEnd = target, 0, -1
		case DirEntry:
			cur, curEnd = next, e
			if !sliced {
				curEnd = -1
			}
		case FileEntry:
			if e >= len(src) || (after == SlashIgnored && !hasNames(src[e+1:])) {
				return next, FileEntry, nil
			}
			return path.Join(next, src[e+1:]), NoEntry, nil
		default:
			if e >= len(src) {
				return next, NoEntry, nil
			}
			return path.Join(next, src[e+1:]), NoEntry, nil
		}
	}
	return cur, DirEntry, nil
}

// hasNames says a name other than `.` is left in rest, `/`-separated names.
func hasNames(rest string) bool {
	for _, n := range strings.Split(rest, "/") {
		if n != "" && n != "." {
			return true
		}
	}
	return false
}
