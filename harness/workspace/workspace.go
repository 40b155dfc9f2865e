package workspace

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Refusal is why a step is refused, as a case's answer names it. The words are lembas-check's:
// the seed says a typed ErrInvalidParams (session/new) and 422 (/files) for a root outside the
// allowlist, and an escape for a path out of the root, without fixing texts for them.
type Refusal string

const (
	NotAbsolute Refusal = "not_absolute" // a cwd that is not an absolute path
	NotAllowed  Refusal = "not_allowed"  // a root not on the allowlist
	Immutable   Refusal = "immutable"    // a session's root changed after its creation
	NoSession   Refusal = "no_session"   // a step on a session when none was made
	Escape      Refusal = "escape"       // a path that is not really inside the root
	NotFound    Refusal = "not_found"    // a path to read that is not there
	Loop        Refusal = "loop"         // a path through too many links
)

// Error is a refused step.
type Error struct {
	Refusal Refusal
	Msg     string
}

func (e *Error) Error() string { return string(e.Refusal) + ": " + e.Msg }

func refuse(r Refusal, format string, args ...any) *Error {
	return &Error{Refusal: r, Msg: fmt.Sprintf(format, args...)}
}

// Sentinel is what a client sends for "no particular root" ("/", from the seed): the default
// root at session/new and /files, the stored root at session/load.
func Sentinel() string { return spec.Text("workspace.sentinel") }

// Config is a serve's workspace roots.
type Config struct {
	// Default is the serve's own directory, always on the allowlist.
	Default string
	// Roots are the roots registered besides it (positional args, --workspace-root,
	// WORKSPACE_ROOTS); none is the legacy single-root serve.
	Roots []string
}

// Server is a serve with its roots over a disk, and the sessions made on it.
type Server struct {
	cfg     Config
	disk    fsaccess.Links
	session *string // the root of the session the steps act on, once one is made
}

// NewServer is a serve over disk: a *Disk (Materialize's), or a *Memory that answers as it does.
func NewServer(cfg Config, disk fsaccess.Links) *Server { return &Server{cfg: cfg, disk: disk} }

// real is where p really is on the disk, read as Disk.Real reads it.
func (s *Server) real(p string) (string, fsaccess.Entry, error) {
	return fsaccess.Real(s.disk, p, fsaccess.SlashIgnored)
}

// allowlist is the default, then the registered roots, cleaned, each once.
func (s *Server) allowlist() []string {
	out := []string{path.Clean(s.cfg.Default)}
	for _, r := range s.cfg.Roots {
		c := path.Clean(r)
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// Options is the workspace-root picker: the allowlisted roots, or nil when no root is
// registered beside the default ("surfaced … only when an allowlist is configured").
func (s *Server) Options() []string {
	if len(s.cfg.Roots) == 0 {
		return nil
	}
	return s.allowlist()
}

// root picks the allowlisted root a requested cwd names: the sentinel, "" or nothing is the
// default; otherwise an absolute path that is an allowlisted root by its text, or by its real
// path (a link to one is that root). The answer is the root as the allowlist writes it.
func (s *Server) root(cwd *string) (string, error) {
	list := s.allowlist()
	if cwd == nil || *cwd == "" || *cwd == Sentinel() {
		return list[0], nil
	}
	if !strings.HasPrefix(*cwd, "/") {
		return "", refuse(NotAbsolute, "%q: a session's cwd is an absolute path", *cwd)
	}
	c := path.Clean(*cwd)
	if slices.Contains(list, c) {
		return c, nil
	}
	real, kind, err := s.real(c)
	if err == nil && kind == fsaccess.DirEntry {
		for _, r := range list {
			if rr, k, err := s.real(r); err == nil && k == fsaccess.DirEntry && rr == real {
				return r, nil
			}
		}
	}
	return "", refuse(NotAllowed, "%s is not one of the workspace roots %s", c, strings.Join(list, ", "))
}

// New is session/new: the session's root, fixed from now on.
func (s *Server) New(cwd *string) (string, error) {
	r, err := s.root(cwd)
	if err != nil {
		return "", err
	}
	s.session = &r
	return r, nil
}

// Load is session/load or session/resume: the sentinel (what a client sends on every reload),
// "" or nothing keeps the stored root rather than the default; a cwd naming the stored root
// is that root; any other is refused, a session's root being fixed at its creation.
func (s *Server) Load(cwd *string) (string, error) {
	if s.session == nil {
		return "", refuse(NoSession, "no session was made")
	}
	stored := *s.session
	if cwd == nil || *cwd == "" || *cwd == Sentinel() {
		return stored, nil
	}
	if !strings.HasPrefix(*cwd, "/") {
		return "", refuse(NotAbsolute, "%q: a session's cwd is an absolute path", *cwd)
	}
	c := path.Clean(*cwd)
	if c == stored {
		return stored, nil
	}
	if real, kind, err := s.real(c); err == nil && kind == fsaccess.DirEntry {
		if sr, _, err := s.real(stored); err == nil && sr == real {
			return stored, nil
		}
	}
	return "", refuse(Immutable, "the session's root is %s, fixed at its creation", stored)
}

// SetRoot is set_config_option for the workspace root: always refused.
func (s *Server) SetRoot() error {
	if s.session == nil {
		return refuse(NoSession, "no session was made")
	}
	return refuse(Immutable, "the session's root is %s, fixed at its creation", *s.session)
}

// Read is where a path the session reads really is: relative to its root, `.` and `..` read by
// their text first, then resolved on the disk; it must be inside the root's real path, and be
// there.
func (s *Server) Read(p string) (string, error) { return s.resolve(p, false) }

// Write is where a path the session writes really is: as Read, but it need not be there yet —
// the deepest part that is there is resolved and the rest appended, so a new file below a
// link out of the root, or through a dangling link to outside, is an escape.
func (s *Server) Write(p string) (string, error) { return s.resolve(p, true) }

func (s *Server) resolve(p string, write bool) (string, error) {
	if s.session == nil {
		return "", refuse(NoSession, "no session was made")
	}
	return s.within(*s.session, p, write)
}

// Files is a /files request: its root parameter picked as session/new picks a cwd (the
// sentinel or none: the default; one not allowlisted: refused) — unless no root is registered,
// where the legacy single-root API serves the default whatever the parameter — then the path
// read within it.
func (s *Server) Files(root *string, p string) (string, error) {
	r := path.Clean(s.cfg.Default)
	if len(s.cfg.Roots) > 0 {
		var err error
		if r, err = s.root(root); err != nil {
			return "", err
		}
	}
	return s.within(r, p, false)
}

func (s *Server) within(root, p string, write bool) (string, error) {
	abs := p
	if !strings.HasPrefix(p, "/") {
		abs = root + "/" + p
	}
	abs = path.Clean(abs)
	rootReal, _, err := s.real(root)
	if err != nil {
		return "", s.diskError(root, err)
	}
	real, kind, err := s.real(abs)
	if err != nil {
		return "", s.diskError(abs, err)
	}
	if !fsaccess.Within(rootReal, real) {
		return "", refuse(Escape, "%s is %s, outside the root %s", p, real, root)
	}
	if kind == fsaccess.NoEntry && !write {
		return "", refuse(NotFound, "%s is not there", abs)
	}
	return real, nil
}

func (s *Server) diskError(p string, err error) error {
	if err == ErrLoop {
		return refuse(Loop, "%s: %v", p, err)
	}
	return fmt.Errorf("workspace: resolving %s: %w", p, err)
}
