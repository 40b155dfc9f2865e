package refagent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
)

// The faults of the file tools, one per rule their plays check (livetarget's fs_access plays).
const (
	// BreakFlatListing lists one level whatever the depth, and an empty directory as nothing
	// (against filesystem.md, A listing: the tree and `(empty)`).
	BreakFlatListing = "flat-listing"
	// BreakNoReadCheck lets edit change a file the session has not read, or that changed since
	// (against filesystem.md, Errors: "`write` and `edit` refuse to change an existing file the
	// session has not seen").
	BreakNoReadCheck = "no-read-check"
	// BreakMvUnchecked moves on disk without the view's checks (against What each operation
	// needs: mv needs stage on the source and the target's directory, and no move between mounts).
	BreakMvUnchecked = "mv-unchecked"
	// BreakCommitAtStage commits wherever the session may change (against Access levels: at stage
	// a change stays staged).
	BreakCommitAtStage = "commit-at-stage"
)

// The file tools' faults join Breaks here, so that the list's other lines stay as they are.
func init() {
	Breaks = append(Breaks, BreakFlatListing, BreakNoReadCheck, BreakMvUnchecked, BreakCommitAtStage)
}

// seen is what a session last saw of each file, by its path in the view: the content's hash when
// it read the file or changed it itself (filesystem.md, Errors: "by reading it, or by its own
// change"). edit refuses a file missing here, or whose content is no longer what it saw.
type seen map[string][sha256.Size]byte

// saw records a file's content as the session now knows it. Called with mu held.
func (s *session) saw(vp string, content []byte) {
	if s.seen == nil {
		s.seen = seen{}
	}
	s.seen[vp] = sha256.Sum256(content)
}

// forget drops what the session saw at vp and below it (a removal, a move's source). Called with
// mu held.
func (s *session) forget(vp string) {
	for p := range s.seen {
		if fsaccess.Within(vp, p) {
			delete(s.seen, p)
		}
	}
}

// editable checks an edit of vp in the view (filesystem.md's order: the view's rules, then the
// level, then whether the session saw the file as it is now). Called with mu held.
func (s *session) editable(v *fsaccess.View, vp string) error {
	a := fsaccess.Args{}
	if h, ok := s.seen[vp]; ok || s.a.broken(BreakNoReadCheck) {
		a.Reads = []string{vp}
		b, err := os.ReadFile(s.disk.real(vp))
		if err == nil && sha256.Sum256(b) != h && !s.a.broken(BreakNoReadCheck) {
			a.Changed = []string{vp}
		}
	}
	r, err := v.Do(fsaccess.OpEdit, vp, a)
	if err != nil {
		return err
	}
	if r.Err != nil {
		return s.viewErr(r.Err)
	}
	return nil
}

// listing is list's text, or read's of a directory: harness/fsaccess's rendering of
// filesystem.md's listing (the tree to depth, the empty directory's text, the cap). Called with
// mu held.
func (s *session) listing(p string, isRead bool, depth int) (string, error) {
	if p == "" {
		p = "."
	}
	_, vp, _, msg := s.disk.resolve(p)
	if msg != "" {
		return "", failure(msg)
	}
	v, err := s.disk.listingView(vp)
	if err != nil {
		return "", err
	}
	op := fsaccess.OpListText
	if isRead {
		op = fsaccess.OpReadText
	}
	if s.a.broken(BreakFlatListing) {
		entries, err := v.List(vp)
		if err != nil {
			return "", s.viewErr(err)
		}
		return strings.Join(entries, "\n"), nil
	}
	r, err := v.Do(op, vp, fsaccess.Args{Depth: depth})
	if err != nil {
		return "", err
	}
	if r.Err != nil {
		return "", s.viewErr(r.Err)
	}
	if r.Text == nil {
		return "", fmt.Errorf("the listing of %s has no text", p)
	}
	return *r.Text, nil
}

// mv is a move (tools/mv.json): both paths in the view, which refuses what the spec refuses,
// then on disk; what the session saw of the source it knows at the target. Called with mu held.
func (s *session) mv(id string, raw json.RawMessage, a args) (string, error) {
	if a.From == "" || a.To == "" {
		return "", failure("mv needs from and to")
	}
	_, from, v, msg := s.disk.resolve(a.From)
	if msg != "" {
		return "", failure(msg)
	}
	_, to, _, msg := s.disk.resolve(a.To)
	if msg != "" {
		return "", failure(msg)
	}
	if !s.a.broken(BreakMvUnchecked) {
		if err := v.Mv(from, to); err != nil {
			return "", s.viewErr(err)
		}
	}
	if err := os.Rename(s.disk.real(from), s.disk.real(to)); err != nil {
		return "", err
	}
	for p, h := range s.seen {
		if fsaccess.Within(from, p) {
			delete(s.seen, p)
			s.seen[to+p[len(from):]] = h
		}
	}
	if err := s.filesChanged(true); err != nil {
		return "", err
	}
	return s.outputLocked(id, "mv", raw, ""), nil
}

// commit sends a mount's changes to its forge (tools/commit.json). The view says whether the
// session may (inside a mount, at commit); this agent's forge is the mount's git repository, so
// a commit is a git commit of the mount's working copy, answered with its short hash. Called with
// mu held.
func (s *session) commit(ctx context.Context, id string, raw json.RawMessage, a args) (string, error) {
	if a.Message == "" {
		return "", failure("commit needs a message")
	}
	_, vp, v, msg := s.disk.resolve(a.Path)
	if msg != "" {
		return "", failure(msg)
	}
	err := v.Commit(vp)
	if fe, ok := err.(*fsaccess.Error); ok && fe.Code == fsaccess.NotCommitted && s.a.broken(BreakCommitAtStage) {
		err = nil
	}
	if err != nil {
		return "", s.viewErr(err)
	}
	m, _ := v.MountOf(vp)
	dir := s.disk.real(m)
	add := []string{"add", "-A", "--"}
	if len(a.Paths) == 0 {
		add = append(add, ".")
	}
	for _, p := range a.Paths {
		_, pp, _, msg := s.disk.resolve(p)
		if msg != "" {
			return "", failure(msg)
		}
		if !fsaccess.Within(m, pp) {
			return "", failure(fmt.Sprintf("%s is not in the repository at %s", p, dir))
		}
		add = append(add, s.disk.real(pp))
	}
	if _, err := git(ctx, dir, add...); err != nil {
		return "", err
	}
	if _, err := git(ctx, dir, "-c", "user.name=lembas-check", "-c", "user.email=agent@lembas-check.invalid",
		"-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", a.Message); err != nil {
		return "", err
	}
	hash, err := git(ctx, dir, "rev-parse", "--short", "HEAD")
	if err != nil {
		return "", err
	}
	return s.outputLocked(id, "commit", raw, "Committed "+hash+" in "+dir), nil
}

// git runs git in a mount's directory; its output trimmed, or an error with what git said.
func git(ctx context.Context, dir string, arg ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, arg...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", failure(fmt.Sprintf("the repository at %s: git %s: %v: %s", dir, arg[0], err,
			strings.TrimSpace(out.String())))
	}
	return strings.TrimSpace(out.String()), nil
}
