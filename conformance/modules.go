package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/harness/instructions/modules"
	"github.com/LLeMbas/lembas-check/internal/gherkin/steps"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Modules is cases/modules.json: rule modules loaded by the path touched (seeds/004).
var Modules = Define("modules", "lembas-check",
	"rule modules loaded by the path touched: frontmatter, globs, order, dedupe by relative path and SHA-256, "+
		"supersedes, size cap, symlink refusal (seeds/004)", answerModules).WithSteps(steps.Modules)

// The ops a step may have.
const (
	modOpSpawn   = "spawn"   // the session starts: {root, modules, diagnostics}
	modOpTouch   = "touch"   // a successful Read/Write/Edit reported `paths`: null
	modOpChange  = "change"  // the disk changes (`files`, `links`; null removes): null
	modOpRequest = "request" // the next model request: {record, diagnostics}
	modOpCompact = "compact" // compaction drops the instruction records: null
)

var modulesOps = []string{modOpSpawn, modOpTouch, modOpChange, modOpRequest, modOpCompact}

type modulesCase struct {
	About string                  `json:"about,omitempty"`
	Root  *string                 `json:"root"`
	Files map[string]*modulesFile `json:"files"`
	Links map[string]*string      `json:"links"`
	Steps []modulesStep           `json:"steps"`
}

type modulesStep struct {
	Op     string                  `json:"op"`
	Paths  []string                `json:"paths"`
	Files  map[string]*modulesFile `json:"files"`
	Links  map[string]*string      `json:"links"`
	Append *string                 `json:"append"`
}

// modulesFile is a file's content: a string, or {text, pad, size} — text followed by the one
// ASCII character pad up to size bytes, for files near the cap without 256 KiB in the case.
type modulesFile struct {
	Text string  `json:"text"`
	Pad  *string `json:"pad"`
	Size *int    `json:"size"`
}

func (f *modulesFile) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &f.Text)
	}
	type plain modulesFile
	var p plain
	if err := decodeStrict(b, &p); err != nil {
		return err
	}
	*f = modulesFile(p)
	if f.Pad == nil || f.Size == nil {
		return Fieldf("", "a padded file is {\"text\", \"pad\", \"size\"}: pad and size are required")
	}
	return nil
}

// bytes is the file's content. A padded one is made once for its text, pad and size and shared
// (the disk and the resolver only read a file's bytes): the same file near the cap comes back in
// case after case, and making 256 KiB again each time was a tenth of a run.
//
// A file over the cap is read by the reference for its length alone ("refused whole"), so it is a
// slice of one zeroed buffer that nothing writes: its pages are never touched. Making five such
// files, byte by byte, was a twentieth of a run. TestOverCapIsItsLength holds every answer to
// the one made with the real bytes.
func (f *modulesFile) bytes() []byte {
	if f.Pad == nil {
		return []byte(f.Text)
	}
	if !padOverCap && *f.Size > modules.SpecTexts().MaxBytes {
		return overCap()[:*f.Size:*f.Size]
	}
	k := paddedKey{f.Text, *f.Pad, *f.Size}
	padded.mu.Lock()
	defer padded.mu.Unlock()
	if b, ok := padded.m[k]; ok {
		return b
	}
	b := make([]byte, *f.Size)
	n := copy(b, f.Text)
	if n < len(b) {
		b[n] = (*f.Pad)[0] // one ASCII character (check)
		for filled := 1; n+filled < len(b); filled *= 2 {
			copy(b[n+filled:], b[n:n+filled])
		}
	}
	if padded.m == nil || len(padded.m) >= paddedMax {
		padded.m = map[paddedKey][]byte{} // a long-lived adapter keeps a few, not every one seen
	}
	padded.m[k] = b
	return b
}

// padOverCap makes a file over the cap of its real bytes too (for the test that the answers are
// the same).
var padOverCap = false

// overCap is the zeroed buffer the files over the cap are slices of, as large as a file may be
// (check). It is never written: its length is all that is read.
var overCap = sync.OnceValue(func() []byte { return make([]byte, 4*modules.SpecTexts().MaxBytes) })

type paddedKey struct {
	text, pad string
	size      int
}

// paddedMax bounds the padded files kept (each up to 1 MiB).
const paddedMax = 16

var padded struct {
	mu sync.Mutex
	m  map[paddedKey][]byte
}

// check checks a file; its field is named only when it is refused (a disk is made per case).
func (f *modulesFile) check(field func() string) error {
	if f == nil {
		return Fieldf(field(), "is null: a file's content is a string or {text, pad, size}")
	}
	if f.Pad == nil {
		return nil
	}
	maxSize := 4 * modules.SpecTexts().MaxBytes
	switch {
	case len(*f.Pad) != 1 || (*f.Pad)[0] >= 0x80:
		return Fieldf(field()+".pad", "%q is not one ASCII character", *f.Pad)
	case *f.Size < len(f.Text) || *f.Size > maxSize:
		return Fieldf(field()+".size", "%d: want the file's size in bytes, from len(text) = %d to %d", *f.Size,
			len(f.Text), maxSize)
	}
	return nil
}

func (c modulesCase) Validate() error {
	if c.Root == nil || !strings.HasPrefix(*c.Root, "/") {
		return Fieldf("root", "missing or not absolute: the Project root the envelope's paths begin with")
	}
	if _, err := c.makeDisk(false); err != nil {
		return err
	}
	if len(c.Steps) == 0 {
		return Fieldf("steps", "missing or empty: the session's steps, each {op: %s}", strings.Join(modulesOps, " | "))
	}
	for i, s := range c.Steps {
		if err := s.validate(fmt.Sprintf("steps[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

func (s modulesStep) validate(at string) error {
	known := false
	for _, op := range modulesOps {
		known = known || op == s.Op
	}
	if !known {
		return Fieldf(at+".op", "%q is not an op; want one of %s", s.Op, strings.Join(modulesOps, ", "))
	}
	has := map[string]bool{"paths": s.Paths != nil, "files": s.Files != nil, "links": s.Links != nil,
		"append": s.Append != nil}
	allowed := map[string][]string{modOpTouch: {"paths"}, modOpChange: {"files", "links"},
		modOpRequest: {"append"}}[s.Op]
	for _, f := range []string{"paths", "files", "links", "append"} {
		if has[f] && !ownHas(allowed, f) {
			return Fieldf(at+"."+f, "a %s step has no %s", s.Op, f)
		}
	}
	switch s.Op {
	case modOpTouch:
		if len(s.Paths) == 0 {
			return Fieldf(at+".paths", "missing or empty: the absolute paths a Read, Write or Edit reported")
		}
		for j, p := range s.Paths {
			if !strings.HasPrefix(p, "/") {
				return Fieldf(fmt.Sprintf("%s.paths[%d]", at, j),
					"%q is not absolute: details.fileAccess reports an absolute path", p)
			}
		}
	case modOpChange:
		if len(s.Files)+len(s.Links) == 0 {
			return Fieldf(at, "a change step changes files or links (null removes one)")
		}
		for _, p := range modulesKeys(s.Files) {
			f := fmt.Sprintf("%s.files[%q]", at, p)
			if !strings.HasPrefix(p, "/") {
				return Fieldf(f, "not absolute")
			}
			if s.Files[p] != nil {
				if err := s.Files[p].check(func() string { return f }); err != nil {
					return err
				}
			}
		}
		for _, p := range modulesKeys(s.Links) {
			if !strings.HasPrefix(p, "/") || (s.Links[p] != nil && *s.Links[p] == "") {
				return Fieldf(fmt.Sprintf("%s.links[%q]", at, p),
					"want an absolute path to a target (null removes the link)")
			}
		}
	case modOpRequest:
		if s.Append != nil && *s.Append != "fail" {
			return Fieldf(at+".append", "%q: the only value is \"fail\" (the record's append fails)", *s.Append)
		}
	}
	return nil
}

func ownHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func modulesKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// disk is the case's disk; an entry that cannot be is a FieldError naming it.
func (c modulesCase) disk() (*modules.Disk, error) { return c.makeDisk(true) }

// makeDisk is the case's disk, its files' contents left empty without content: whether a disk
// can be depends on its paths only, and Validate need not build padded files of 256 KiB that
// the answer builds again.
func (c modulesCase) makeDisk(content bool) (*modules.Disk, error) {
	files := make(map[string][]byte, len(c.Files))
	for _, p := range modulesKeys(c.Files) {
		if err := c.Files[p].check(func() string { return fmt.Sprintf("files[%q]", p) }); err != nil {
			return nil, err
		}
		if content {
			files[p] = c.Files[p].bytes()
		} else {
			files[p] = nil
		}
	}
	links := make(map[string]string, len(c.Links))
	for _, p := range modulesKeys(c.Links) {
		if c.Links[p] == nil {
			return nil, Fieldf(fmt.Sprintf("links[%q]", p), "is null: a link's target is a path")
		}
		links[p] = *c.Links[p]
	}
	d, err := modules.NewDisk(files, links)
	if err != nil {
		field := "files"
		if de, ok := err.(*modules.DiskError); ok {
			field = fmt.Sprintf("files[%q]", de.Path)
			if _, isLink := c.Links[de.Path]; isLink {
				field = fmt.Sprintf("links[%q]", de.Path)
			}
		}
		return nil, Fieldf(field, "%v", err)
	}
	return d, nil
}

// modulesAnswer is one answer per step.
type modulesAnswer []modulesStepAnswer

// modulesStepAnswer is null (touch, change, compact), a spawn's or a request's answer.
type modulesStepAnswer struct {
	Spawn   *modulesSpawn
	Request *modulesRequest
}

type modulesSpawn struct {
	Root        *string              `json:"root"`
	Modules     []modulesStartModule `json:"modules"`
	Diagnostics []modulesDiagnostic  `json:"diagnostics"`
}

type modulesStartModule struct {
	RelPath string `json:"relPath"`
	SHA256  string `json:"sha256"`
}

type modulesRequest struct {
	Record      *modulesRecord      `json:"record"`
	Diagnostics []modulesDiagnostic `json:"diagnostics"`
}

// modulesRecord is the turn-context record: the envelopes the model reads, in order, and its
// details.instructions.
type modulesRecord struct {
	Modules      []string             `json:"modules"`
	Instructions []modulesInstruction `json:"instructions"`
}

type modulesInstruction struct {
	RelPath    string  `json:"relPath"`
	SHA256     string  `json:"sha256"`
	Supersedes *string `json:"supersedes"`
}

// modulesDiagnostic is a refusal: the file's relative path (absent for a failed append) and the
// declared code (null where the seed declares none: a module invalid for its frontmatter).
type modulesDiagnostic struct {
	Path *string `json:"path,omitempty"`
	Code *string `json:"code"`
}

func (a modulesStepAnswer) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

// AppendJSON implements jsonx.Appender: a spawn's answer, a request's, or null.
func (a modulesStepAnswer) AppendJSON(b []byte) ([]byte, error) {
	switch {
	case a.Spawn != nil:
		return jsonx.Append(b, a.Spawn)
	case a.Request != nil:
		return jsonx.Append(b, a.Request)
	}
	return append(b, "null"...), nil
}

func (a *modulesStepAnswer) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*a = modulesStepAnswer{}
		return nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return Fieldf("", "a step's answer is null, {root, modules, diagnostics} or {record, diagnostics}")
	}
	want := []string{"root", "modules", "diagnostics"}
	var v any = &a.Spawn
	if _, ok := keys["record"]; ok {
		want, v = []string{"record", "diagnostics"}, &a.Request
	}
	for _, k := range want {
		if _, ok := keys[k]; !ok {
			return Fieldf(k, "missing: the answer is {%s}", strings.Join(want, ", "))
		}
	}
	if err := decodeStrict(b, v); err != nil {
		return err
	}
	return a.validate()
}

func (a modulesStepAnswer) validate() error {
	var diags []modulesDiagnostic
	switch {
	case a.Spawn != nil:
		if a.Spawn.Modules == nil || a.Spawn.Diagnostics == nil {
			return Fieldf("modules", "modules and diagnostics are lists, [] for none")
		}
		diags = a.Spawn.Diagnostics
	case a.Request != nil:
		if a.Request.Diagnostics == nil {
			return Fieldf("diagnostics", "a list, [] for none")
		}
		if r := a.Request.Record; r != nil && (len(r.Modules) == 0 || len(r.Modules) != len(r.Instructions)) {
			return Fieldf("record", "a record holds one or more modules, one instructions entry each")
		}
		diags = a.Request.Diagnostics
	}
	for i, d := range diags {
		if d.Path == nil && d.Code == nil {
			return Fieldf(fmt.Sprintf("diagnostics[%d]", i), "names a path, a code or both")
		}
	}
	return nil
}

func answerModules(c modulesCase) (modulesAnswer, error) {
	d, err := c.disk()
	if err != nil {
		return nil, err
	}
	s := modules.New(*c.Root, d)
	out := make(modulesAnswer, len(c.Steps))
	for i, st := range c.Steps {
		switch st.Op {
		case modOpSpawn:
			out[i].Spawn = modulesSpawnAnswer(s.Spawn())
		case modOpTouch:
			s.Touch(st.Paths...)
		case modOpChange:
			for _, p := range modulesKeys(st.Files) {
				var b []byte
				if f := st.Files[p]; f != nil {
					b = f.bytes()
				}
				if err := s.Disk().Set(p, b); err != nil {
					return nil, fmt.Errorf("steps[%d].files[%q]: %v", i, p, err)
				}
			}
			for _, p := range modulesKeys(st.Links) {
				t := ""
				if st.Links[p] != nil {
					t = *st.Links[p]
				}
				if err := s.Disk().SetLink(p, t); err != nil {
					return nil, fmt.Errorf("steps[%d].links[%q]: %v", i, p, err)
				}
			}
		case modOpRequest:
			out[i].Request = modulesRequestAnswer(s.Request(st.Append != nil))
		case modOpCompact:
			s.Compact()
		}
	}
	return out, nil
}

func modulesSpawnAnswer(st modules.Startup) *modulesSpawn {
	a := &modulesSpawn{Modules: []modulesStartModule{}, Diagnostics: modulesDiagnostics(st.Diagnostics)}
	if st.Root != "" {
		a.Root = &st.Root
	}
	for _, m := range st.Modules {
		a.Modules = append(a.Modules, modulesStartModule{RelPath: m.RelPath, SHA256: m.SHA256})
	}
	return a
}

func modulesRequestAnswer(act modules.Activation) *modulesRequest {
	a := &modulesRequest{Diagnostics: modulesDiagnostics(act.Diagnostics)}
	if !act.Appended {
		return a
	}
	a.Record = &modulesRecord{Modules: []string{}, Instructions: []modulesInstruction{}}
	for _, m := range act.Modules {
		in := modulesInstruction{RelPath: m.RelPath, SHA256: m.SHA256}
		if m.Supersedes != "" {
			sup := m.Supersedes
			in.Supersedes = &sup
		}
		a.Record.Modules = append(a.Record.Modules, m.Envelope)
		a.Record.Instructions = append(a.Record.Instructions, in)
	}
	return a
}

func modulesDiagnostics(ds []modules.Diagnostic) []modulesDiagnostic {
	out := []modulesDiagnostic{}
	for _, d := range ds {
		var a modulesDiagnostic
		if d.Path != "" {
			p := d.Path
			a.Path = &p
		}
		if d.Code != "" {
			c := d.Code
			a.Code = &c
		}
		out = append(out, a)
	}
	return out
}
