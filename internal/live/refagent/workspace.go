package refagent

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/workspace"
)

// rootsEnv lists a serve's workspace roots beside its own directory (seeds/002, Slice A 2.:
// "WORKSPACE_ROOTS env (serverapi.Config.WorkspaceRoots, path-list separated)").
const rootsEnv = "WORKSPACE_ROOTS"

// rootOption is the config option of the workspace-root picker (seeds/002, Implementation
// status 5.: "a workspace-root select listing allowlisted roots").
const rootOption = "workspace-root"

// serveRoots are the agent's workspace roots when it is started as a serve with an allowlist —
// WORKSPACE_ROOTS set, even empty (the legacy serve: the default alone) — its default root the
// directory it was started in; nil otherwise, where a session's boundary is its project root.
func serveRoots() *workspace.Config {
	v, ok := os.LookupEnv(rootsEnv)
	if !ok {
		return nil
	}
	cwd, err := os.Getwd() // $PWD when it names the directory: a default that is a link stays one
	if err != nil {
		return nil
	}
	c := &workspace.Config{Default: filepath.ToSlash(cwd)}
	for _, r := range filepath.SplitList(v) {
		if r != "" {
			c.Roots = append(c.Roots, filepath.ToSlash(r))
		}
	}
	return c
}

// hostLinks is the host's disk as fsaccess reads links, its paths the host's own.
type hostLinks struct{}

func (hostLinks) Lstat(p string) (fsaccess.Entry, error) {
	fi, err := os.Lstat(filepath.FromSlash(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fsaccess.NoEntry, nil
	case err != nil:
		return fsaccess.NoEntry, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fsaccess.LinkEntry, nil
	case fi.IsDir():
		return fsaccess.DirEntry, nil
	}
	return fsaccess.FileEntry, nil
}

func (hostLinks) Readlink(p string) (string, error) {
	t, err := os.Readlink(filepath.FromSlash(p))
	return filepath.ToSlash(t), err
}

// refusal is a refused workspace step as an ACP error: -32602 (the seed: "a typed
// ErrInvalidParams"), its message the refusal's word first.
func refusal(err error) error {
	var we *workspace.Error
	if errors.As(err, &we) {
		return &sdk.RequestError{Code: -32602, Message: we.Error()}
	}
	return failed(err)
}

// newServe picks a new session's root from the allowlist: the serve the session keeps (its root
// fixed from now on) and the root, or the refusal.
func (a *Agent) newServe(cwd string) (*workspace.Server, string, error) {
	srv := workspace.NewServer(*a.ws, hostLinks{})
	root, err := srv.New(&cwd)
	if err != nil {
		return nil, "", refusal(err)
	}
	return srv, root, nil
}

// rootPicker is the workspace-root select, offered only when roots are registered beside the
// default ("surfaced … only when an allowlist is configured").
func rootPicker(srv *workspace.Server, current string) []sdk.SessionConfigOption {
	if srv == nil {
		return nil
	}
	roots := srv.Options()
	if roots == nil {
		return nil
	}
	var opts sdk.SessionConfigSelectOptionsUngrouped
	for _, r := range roots {
		opts = append(opts, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(r), Name: r})
	}
	return []sdk.SessionConfigOption{{Select: &sdk.SessionConfigOptionSelect{Id: rootOption, Name: "Workspace root",
		Type: "select", CurrentValue: sdk.SessionConfigValueId(current),
		Options: sdk.SessionConfigSelectOptions{Ungrouped: &opts}}}}
}

// LoadSession is session/load on a serve with an allowlist: the sentinel keeps the stored root,
// another root is refused (seeds/002: "cwd is immutable after creation"). The history is not
// replayed: the client that loads it is the one that held it.
func (a *Agent) LoadSession(_ context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	if s.ws == nil {
		return sdk.LoadSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionLoad)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.ws.Load(&p.Cwd); err != nil {
		return sdk.LoadSessionResponse{}, refusal(err)
	}
	return sdk.LoadSessionResponse{}, nil
}

// wsTool is a read or a write in a session on a serve with an allowlist: the path resolved and
// contained by its root (harness/workspace), then read or written where it really is. ok is
// false for any other tool or session. Called with mu held.
func (s *session) wsTool(id, name string, raw json.RawMessage, a args) (out string, ok bool) {
	if s.ws == nil || (name != "read" && name != "write") {
		return "", false
	}
	resolve := s.ws.Read
	if name == "write" {
		resolve = s.ws.Write
	}
	real, err := resolve(filepath.ToSlash(a.Path))
	if s.a.broken(BreakAboveRoot) && fsaccess.AboveRoot(filepath.ToSlash(s.disk.cwd), filepath.ToSlash(a.Path)) {
		err = &workspace.Error{Refusal: workspace.Escape, Msg: a.Path + " climbs above /"}
	}
	var we *workspace.Error
	if errors.As(err, &we) && we.Refusal == workspace.Escape && s.a.broken(BreakNoContainment) {
		real, err = s.uncontained(a.Path, name == "write")
	}
	if err != nil {
		return s.outputLocked(id, name, raw, err.Error()), true
	}
	host := filepath.FromSlash(real)
	if name == "write" {
		content := ""
		if a.Content != nil {
			content = *a.Content
		}
		err := os.MkdirAll(filepath.Dir(host), 0o755)
		if err == nil {
			err = os.WriteFile(host, []byte(content), 0o644)
		}
		if err != nil {
			return s.outputLocked(id, name, raw, err.Error()), true
		}
		return s.outputLocked(id, name, raw, "Wrote "+real), true
	}
	if st, err := os.Stat(host); err == nil && st.IsDir() {
		entries, err := os.ReadDir(host)
		if err != nil {
			return s.outputLocked(id, name, raw, err.Error()), true
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return s.outputLocked(id, name, raw, strings.Join(names, "\n")), true
	}
	b, err := os.ReadFile(host)
	if err != nil {
		return s.outputLocked(id, name, raw, err.Error()), true
	}
	return s.outputLocked(id, name, raw, string(b)), true
}

// setRoot is set_config_option for the workspace root: refused, the root being fixed at the
// session's creation.
func (s *session) setRoot() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return refusal(s.ws.SetRoot())
}

// uncontained is where a path really leads, whatever the root (BreakNoContainment). Called with
// mu held.
func (s *session) uncontained(p string, write bool) (string, error) {
	abs := fsaccess.Resolve(filepath.ToSlash(s.disk.cwd), filepath.ToSlash(p))
	real, kind, err := fsaccess.Real(hostLinks{}, abs, fsaccess.SlashIgnored)
	if err == nil && kind == fsaccess.NoEntry && !write {
		return "", &workspace.Error{Refusal: workspace.NotFound, Msg: abs + " is not there"}
	}
	return real, err
}
