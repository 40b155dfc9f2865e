// Package results is the reference of area context (a package is not named context, which is the
// standard library's): context hygiene (harness spec context.md §1–§7, loop.json `context`): a
// session's store of tool results and its dedupe table, as a pure state machine. Each step inserts
// one result and answers the text the model is given for it; nothing answered is changed afterwards
// ("Every measure acts when a result is inserted"). No clock, no I/O: a read is given the file's
// content, an edit its content before and after.
package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/results/unidiff"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/textdiff"
)

// Options are what a session is made with.
type Options struct {
	// WorkDir is the session's start directory, which relative paths resolve against
	// (filesystem.md, Paths); "" is "/".
	WorkDir string
	// Cap overrides loop.json's cap (a conformance case's `limits`); nil keeps it.
	Cap *spec.Cap
}

// Session is one session's results: every result stored in full by id, the dedupe table (the
// full results the request being built carries), and the full reads a compaction would cover.
type Session struct {
	workDir string
	cap     spec.Cap
	window  int
	context int // lines of context in an edit's diff
	byHash  bool
	tools   map[string]bool // dedupe.by_result

	stored map[string]string // id → the result in full: before any cap, a stub's the text it stands for

	reads map[readKey][]*fullRead // by_hash: a file and its content → its full reads in the table, oldest first
	calls map[string]call         // by_result: tool, arguments and text → the full result

	covered []*fullRead // full reads since the last compaction, in the history, in order

	turn  int   // the turn results are inserted in now, counting from 1 (turns.go)
	turns []int // the turns since the last compaction, oldest first: what a rewind may take back
}

// call is a by_result tool's full result in the table, and the turn it was made in.
type call struct {
	id   string
	turn int
}

type readKey struct{ abs, sum string }

// fullRead is a read answered in full: what a stub may name and a compaction table lists.
type fullRead struct {
	id, path, sha string // path as the call gave it; sha the short hash
	abs           string // what identifies the file
	from, to, of  int    // of == 0: an empty file
	turn          int    // the turn it was made in
}

// New makes a session.
func New(o Options) (*Session, error) {
	ctx := spec.LoopJSON().Context
	wd := o.WorkDir
	if wd == "" {
		wd = "/"
	}
	if !strings.HasPrefix(wd, "/") {
		return nil, fmt.Errorf("working directory %q is not absolute", wd)
	}
	s := &Session{
		workDir: fsaccess.Resolve("/", wd),
		cap:     ctx.Cap.Cap,
		window:  number("context.window"),
		context: number("context.diff_context"),
		byHash:  slices.Contains(ctx.Dedupe.ByHash, "read"),
		tools:   map[string]bool{},
		stored:  map[string]string{},
		reads:   map[readKey][]*fullRead{},
		calls:   map[string]call{},
		turn:    1,
		turns:   []int{1},
	}
	if o.Cap != nil {
		s.cap = *o.Cap
	}
	for _, t := range ctx.Dedupe.ByResult {
		s.tools[t] = true
	}
	return s, nil
}

func number(key string) int {
	n, err := strconv.Atoi(spec.Text(key))
	if err != nil {
		panic(fmt.Sprintf("harness/spec/extra/context.json: %s is not a number", key))
	}
	return n
}

type vars = map[string]string

func render(tmpl string, v vars) string { return spec.MustRender(tmpl, v) }

// Sum is the full hex SHA-256 of a file's content: what decides whether it is unchanged.
func Sum(content string) string {
	s := sha256.Sum256([]byte(content))
	return hex.EncodeToString(s[:])
}

func (s *Session) short(sum string) string { return sum[:spec.LoopJSON().Context.SHADigits] }

// take checks id is well-formed and new, and stores the result under it.
func (s *Session) take(id, full string) error {
	if _, ok := ParseID(id); !ok {
		return fmt.Errorf("%q is not a result id (# and lowercase hex, as FormatID writes it)", id)
	}
	if _, dup := s.stored[id]; dup {
		return fmt.Errorf("id %s is already a result of this session: ids are never reused", id)
	}
	s.stored[id] = full
	return nil
}

// withBody is a result: its bracket, then a newline and the body; a bracket alone when there is
// no body.
func withBody(bracket, body string) string {
	if body == "" {
		return bracket
	}
	return bracket + "\n" + body
}

// lines is the window a read or a recall shows: from offset (0: line 1), limit lines (0: the
// 2000-line window).
func (s *Session) lines(offset, limit int) (int, int, error) {
	if offset < 0 || limit < 0 {
		return 0, 0, fmt.Errorf("offset %d, limit %d: lines count from 1", offset, limit)
	}
	if offset == 0 {
		offset = 1
	}
	if limit == 0 {
		limit = s.window
	}
	return offset, limit, nil
}

// Read inserts a read of path (as the call gave it), whose file holds content: lines offset to
// offset+limit-1 (0: from line 1, the 2000-line window). It is a stub when the same file with the
// same content was read in full, over lines that hold these, in a result still in the table.
func (s *Session) Read(id, p, content string, offset, limit int) (string, error) {
	ctx := spec.LoopJSON().Context
	offset, limit, err := s.lines(offset, limit)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(content))
	full := hex.EncodeToString(sum[:])
	// The file is identified by its path resolved against the working directory (filesystem.md,
	// Paths).
	abs := fsaccess.Resolve(s.workDir, p)
	lines, _ := splitLines(content)
	if len(lines) == 0 {
		if offset > 1 {
			return "", fmt.Errorf("offset %d of an empty file", offset)
		}
		// An empty file is always read in full: a stub would name lines it has none of, and is
		// no shorter than what it stands for.
		body := spec.Text("context.read.empty")
		if err := s.take(id, body); err != nil {
			return "", err
		}
		s.cover(&fullRead{id: id, path: p, abs: abs, sha: s.short(full), turn: s.turn})
		return withBody(render(ctx.ReadHeaderEmpty, vars{"id": id, "path": p, "sha": s.short(full)}), body), nil
	}
	if offset > len(lines) {
		return "", fmt.Errorf("offset %d is past the file's %d lines", offset, len(lines))
	}
	from, to := offset, lastLine(offset, limit, len(lines))
	var b strings.Builder
	line := spec.Text("context.read.line")
	for n := from; n <= to; n++ {
		if n > from {
			b.WriteByte('\n')
		}
		b.WriteString(render(line, vars{"n": strconv.Itoa(n), "line": lines[n-1]}))
	}
	if to < len(lines) {
		b.WriteString(render(spec.Text("context.read.more"), vars{"n": strconv.Itoa(len(lines) - to),
			"offset": strconv.Itoa(to + 1)}))
	}
	body := b.String()
	if err := s.take(id, body); err != nil {
		return "", err
	}
	bracket := render(ctx.ReadHeader, vars{"id": id, "path": p, "from": strconv.Itoa(from), "to": strconv.Itoa(to),
		"of": strconv.Itoa(len(lines)), "sha": s.short(full)})
	key := readKey{abs, full}
	if s.byHash {
		earlier := s.reads[key]
		for i := len(earlier) - 1; i >= 0; i-- {
			if e := earlier[i]; e.from <= from && to <= e.to {
				return bracket + " " + render(ctx.Unchanged, vars{"earlier": e.id, "from": strconv.Itoa(e.from),
					"to": strconv.Itoa(e.to)}), nil
			}
		}
	}
	r := &fullRead{id: id, path: p, abs: abs, sha: s.short(full), from: from, to: to, of: len(lines), turn: s.turn}
	s.reads[key] = append(s.reads[key], r)
	s.cover(r)
	return withBody(bracket, body), nil
}

// lastLine is the last of limit lines from offset in a text of n lines (offset ≤ n), without
// overflowing on a limit near the largest int.
func lastLine(offset, limit, n int) int {
	if limit > n-offset {
		return n
	}
	return offset - 1 + limit
}

// cover records a full read for the next compaction's table.
func (s *Session) cover(r *fullRead) { s.covered = append(s.covered, r) }

// Write inserts an edit or write of path: with before, the diff of the change under the new
// content's hash, capped like any output; without (a new file), that it was created.
func (s *Session) Write(id, p string, before *string, after string) (string, error) {
	ctx := spec.LoopJSON().Context
	bracket := render(ctx.EditHeader, vars{"id": id, "path": p, "sha": s.short(Sum(after))})
	if before == nil {
		created := render(ctx.Created, vars{"n": strconv.Itoa(countLines(after))})
		if err := s.take(id, created); err != nil {
			return "", err
		}
		return bracket + " " + created, nil
	}
	diff := unidiff.Unified(*before, after, s.context)
	if err := s.take(id, diff); err != nil {
		return "", err
	}
	return withBody(bracket, Cap(diff, s.cap, id)), nil
}

// Delete inserts the deletion of path (context.md §5: `[#0024 old.md deleted]`).
func (s *Session) Delete(id, p string) (string, error) {
	if err := s.take(id, ""); err != nil {
		return "", err
	}
	return render(spec.Text("context.deleted"), vars{"id": id, "path": p}), nil
}

// PatchFile is one file an apply_patch changes: Before absent, it creates the file; After
// absent, it deletes it; both, it changes it.
type PatchFile struct {
	Path          string
	Before, After *string
}

// Patch inserts an apply_patch. Over one file it answers as that file's edit, write or deletion.
// Over several it answers the id alone, then each file in its own bracket with its change, in
// the patch's order (context.md §5): a change's diff under `[path sha …]`, a created file's
// sentence, a deleted file's bracket. What follows the id is capped as one output (its elided line
// naming the patch's id), and stored whole.
func (s *Session) Patch(id string, files []PatchFile) (string, error) {
	if len(files) == 0 {
		return "", fmt.Errorf("a patch changes at least one file")
	}
	for i, f := range files {
		if f.Before == nil && f.After == nil {
			return "", fmt.Errorf("file %d (%s) is neither created, changed nor deleted", i, f.Path)
		}
	}
	if f := files[0]; len(files) == 1 && f.After == nil {
		return s.Delete(id, f.Path)
	} else if len(files) == 1 {
		return s.Write(id, f.Path, f.Before, *f.After)
	}
	ctx := spec.LoopJSON().Context
	parts := make([]string, len(files))
	for i, f := range files {
		switch {
		case f.After == nil:
			parts[i] = render(spec.Text("context.patch.deleted"), vars{"path": f.Path})
		case f.Before == nil:
			parts[i] = render(spec.Text("context.patch.file"), vars{"path": f.Path,
				"sha": s.short(Sum(*f.After))}) + " " +
				render(ctx.Created, vars{"n": strconv.Itoa(countLines(*f.After))})
		default:
			parts[i] = withBody(render(spec.Text("context.patch.file"), vars{"path": f.Path,
				"sha": s.short(Sum(*f.After))}),
				unidiff.Unified(*f.Before, *f.After, s.context))
		}
	}
	body := strings.Join(parts, "\n")
	if err := s.take(id, body); err != nil {
		return "", err
	}
	return withBody(render(ctx.Header, vars{"id": id}), Cap(body, s.cap, id)), nil
}

// Output inserts any other tool's result: capped, or for a dedupe.by_result tool a stub when the
// same call (arguments compared as JSON with sorted keys) gave the same text in a result still in
// the table.
func (s *Session) Output(id, tool string, args json.RawMessage, text string) (string, error) {
	ctx := spec.LoopJSON().Context
	var key string
	if s.tools[tool] {
		canon, err := canonicalJSON(args)
		if err != nil {
			return "", fmt.Errorf("arguments of %s: %v", tool, err)
		}
		key = tool + "\x00" + canon + "\x00" + Sum(text)
	}
	if err := s.take(id, text); err != nil {
		return "", err
	}
	bracket := render(ctx.Header, vars{"id": id})
	if key != "" {
		if earlier, ok := s.calls[key]; ok {
			return bracket + " " + render(ctx.SameResult, vars{"earlier": earlier.id}), nil
		}
		s.calls[key] = call{id: id, turn: s.turn}
	}
	return withBody(bracket, Cap(text, s.cap, id)), nil
}

// canonicalJSON is a JSON value with its objects' keys sorted (encoding/json sorts map keys) and
// its numbers as values: {"b":1,"a":1.0} and {"a":1,"b":1} are the same arguments.
func canonicalJSON(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// Recall inserts a stored result again, in full: lines offset to offset+limit-1 (0: from line 1,
// the 2000-line window). The `#` of target may be left out. Not capped, not deduplicated, and
// itself stored.
func (s *Session) Recall(id, target string, offset, limit int) (string, error) {
	ctx := spec.LoopJSON().Context
	offset, limit, err := s.lines(offset, limit)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(target, "#") {
		target = "#" + target
	}
	text, ok := s.stored[target]
	if !ok {
		missing := render(ctx.NoResult, vars{"target": target})
		if err := s.take(id, missing); err != nil {
			return "", err
		}
		return render(ctx.Header, vars{"id": id}) + " " + missing, nil
	}
	lines, _ := splitLines(text)
	if offset > len(lines) {
		return "", fmt.Errorf("recall of %s from line %d: it has %d lines, and the spec gives no text for a recall "+
			"past the end", target, offset, len(lines))
	}
	from, to := offset, lastLine(offset, limit, len(lines))
	body := strings.Join(lines[from-1:to], "\n")
	if err := s.take(id, body); err != nil {
		return "", err
	}
	return withBody(render(ctx.RecallHeader, vars{"id": id, "target": target, "from": strconv.Itoa(from),
		"to": strconv.Itoa(to), "of": strconv.Itoa(len(lines))}), body), nil
}

// Reply begins a request that does not carry the results inserted so far (a chat's next reply,
// a turn of its own): no stub may name them, so the dedupe table is emptied; the reads stay in
// the history a compaction covers.
func (s *Session) Reply() {
	s.forget()
	s.Turn()
}

// forget empties the dedupe table (both kinds).
func (s *Session) forget() {
	clear(s.reads)
	clear(s.calls)
}

// Compact is the table added after a compaction's summary: of the full reads since the previous
// compaction, the newest of each file, newest last, at most compaction.rows of them (the newest);
// "" when there were none. The dedupe table is emptied and the next compaction covers what
// follows.
func (s *Session) Compact() string {
	ctx := spec.LoopJSON().Context
	newest := map[string]int{} // absolute path → index in covered of its newest full read
	for i, r := range s.covered {
		newest[r.abs] = i
	}
	var rows []string
	for i, r := range s.covered {
		if newest[r.abs] != i {
			continue
		}
		rows = append(rows, render(spec.Text("context.compaction.row"), vars{"path": r.path, "lines": s.linesCell(r),
			"sha": r.sha, "id": r.id}))
	}
	s.forget()
	s.covered = nil
	// The summary replaces the history: the turns before it can no longer be taken back, and what
	// follows is a new turn.
	s.turns = nil
	s.Turn()
	if len(rows) == 0 {
		return ""
	}
	if n := ctx.Compaction.Rows; len(rows) > n {
		rows = rows[len(rows)-n:]
	}
	return render(spec.Text("context.compaction.table"), vars{"heading": ctx.Compaction.Heading,
		"line": ctx.Compaction.Line, "rows": strings.Join(rows, "\n")})
}

// linesCell is a row's Lines: `1-200 of 340`, or for an empty file what its bracket says in that
// place — the word read_header_empty has where read_header has its lines.
func (s *Session) linesCell(r *fullRead) string {
	if r.of > 0 {
		return render(spec.Text("context.compaction.lines"), vars{"from": strconv.Itoa(r.from),
			"to": strconv.Itoa(r.to), "of": strconv.Itoa(r.of)})
	}
	return emptyWord()
}

// emptyWord is what read_header_empty says instead of read_header's lines: the two templates
// without their common beginning and end.
func emptyWord() string {
	ctx := spec.LoopJSON().Context
	a, b := ctx.ReadHeaderEmpty, ctx.ReadHeader
	i, j := textdiff.Ends([]byte(a), []byte(b))
	return a[i : len(a)-j]
}
