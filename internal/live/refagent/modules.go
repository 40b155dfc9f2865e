package refagent

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/instructions/modules"
)

// rules is a session's rule modules (seeds/004, "Project instruction modules"): the root file and
// every unconditional module ride the system prompt at spawn, and a conditional module or a
// nested instruction file is appended, in its envelope, just before the next model request after
// a Read, Write or Edit touched a path it covers. A rules folder made later is found at the next
// trigger ("There is no watcher"), so every session has them.
type rules struct {
	s     *modules.Session
	root  string            // the boundary on disk
	files map[string][]byte // the disk as last read: absolute path → content
}

// startRules reads the boundary for its rules; nil where it cannot be read as a resolver's disk.
func startRules(root string) *rules {
	r := &rules{root: root, files: readTree(root)}
	d, err := modules.NewDisk(r.files, nil)
	if err != nil {
		return nil
	}
	r.s = modules.New(filepath.ToSlash(root), d)
	return r
}

// readTree is every file below root but the repository's .git, by its absolute path.
func readTree(root string) map[string][]byte {
	files := map[string][]byte{}
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case e.IsDir() && e.Name() == ".git":
			return filepath.SkipDir
		case e.Type().IsRegular():
			if b, err := os.ReadFile(p); err == nil {
				files[filepath.ToSlash(p)] = b
			}
		}
		return nil
	})
	return files
}

// sync brings the resolver's disk to what is on disk now: "There is no watcher", so a change is
// seen by the next trigger.
func (r *rules) sync() {
	now := readTree(r.root)
	for p, b := range now {
		if old, ok := r.files[p]; !ok || !bytes.Equal(old, b) {
			r.s.Disk().Set(p, b)
		}
	}
	for p := range r.files {
		if _, ok := now[p]; !ok {
			r.s.Disk().Set(p, nil)
		}
	}
	r.files = now
}

// envelope is a module as the model reads it.
func envelope(path, content string) string {
	t := modules.SpecTexts().Envelope
	return strings.Replace(strings.Replace(t, "{{path}}", path, 1), "{{content}}", content, 1)
}

// spawn is the system prompt's part of the rules: the root file by name priority (where the
// instruction chain does not hold that one: it may hold AGENTS.md beside an AGENTS.override.md),
// then each unconditional module in its envelope. readable says whether the session's view lets
// it read a root file; chained, whether the instruction chain holds the file of that name.
func (r *rules) spawn(b *strings.Builder, readable, chained func(name string) bool) {
	st := r.s.Spawn()
	root := filepath.ToSlash(r.root)
	if st.Root != "" && !chained(st.Root) && readable(st.Root) {
		if real, _, ok := r.s.Disk().Real(root + "/" + st.Root); ok {
			text := strings.TrimRight(string(r.s.Disk().Read(real)), "\n")
			b.WriteString("\n# The project's root instructions (" + st.Root + ")\n" + text + "\n")
		}
	}
	for _, m := range st.Modules {
		real, _, ok := r.s.Disk().Real(root + "/" + m.RelPath)
		if !ok {
			continue
		}
		mod, err := modules.Parse(r.s.Disk().Read(real))
		if err != nil {
			continue
		}
		b.WriteString("\n" + envelope(root+"/"+m.RelPath, string(mod.Body)) + "\n")
	}
}

// request is what the next model request appends: one record of the modules the paths touched
// since the last one pick that the conversation does not hold, "" for none.
func (r *rules) request() string {
	r.sync()
	a := r.s.Request(false)
	if !a.Appended {
		return ""
	}
	var out []string
	for _, m := range a.Modules {
		out = append(out, m.Envelope)
	}
	return strings.Join(out, "\n\n")
}
