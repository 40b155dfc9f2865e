// Package modules is the reference of area modules: rule modules loaded by the path an agent
// touches, the design of seeds/004 ("Project instruction modules"): Markdown files under
// .elowen/rules whose frontmatter `paths` globs pick them, and nested AGENTS.md files of the
// touched folders, sent once per version in an envelope just before the next model request. It
// checks frontmatter, the glob dialect, order, dedupe by relative path and SHA-256,
// `supersedes`, the size cap and symlink refusal. The disk is a value (Disk), walked by
// fsaccess.Real, so the package stays pure: no clock, no I/O.
package modules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Texts are the words and numbers the design fixes, all from harness/spec/extra/modules.json
// (cut from the seed by a script), read once.
type Texts struct {
	// Envelope holds {{path}} and {{content}}; Supersedes is the marker a changed module's
	// envelope carries.
	Envelope, Supersedes string
	// Codes of the diagnostics the design declares.
	Escape, Oversized, ActivationFailed string
	// MaxBytes is CONTEXT_FILE_MAX_BYTES: a file above it is refused whole.
	MaxBytes int
	// Names are the instruction file names by priority, the root loader's and nested files'.
	Names []string
	// RulesDir is where rule modules are found, RuleFiles the glob a module's path matches
	// (.elowen/rules/**/*.md), and Tree the folder nested discovery never enters (.elowen).
	RulesDir  string
	RuleFiles Glob
	Tree      string
	// Fence opens and closes a frontmatter block; Key is the one key it may carry.
	Fence, Key string
}

// SpecTexts are the texts, read once; a text that changed shape panics, since every answer would
// be wrong without it.
var SpecTexts = spec.Parsed("harness/spec/extra/modules.json", func() (Texts, error) { return parseTexts(spec.Text) })

func parseTexts(text func(string) string) (Texts, error) {
	t := Texts{
		Envelope:         text("modules.envelope"),
		Supersedes:       text("modules.supersedes"),
		Escape:           text("modules.code.escape"),
		Oversized:        text("modules.code.oversized"),
		ActivationFailed: text("modules.code.activation_failed"),
		Names:            strings.Split(text("modules.names"), ", "),
		Fence:            text("modules.frontmatter.fence"),
		Key:              text("modules.frontmatter.key"),
	}
	if !strings.Contains(t.Envelope, "{{path}}") || !strings.Contains(t.Envelope, "{{content}}") {
		return t, fmt.Errorf("modules.envelope %q lacks {{path}} or {{content}}", t.Envelope)
	}
	n, err := parseSize(text("modules.max_bytes"))
	if err != nil {
		return t, fmt.Errorf("modules.max_bytes: %v", err)
	}
	t.MaxBytes = n
	rules := text("modules.rules")
	if t.RuleFiles, err = CompileGlob(rules); err != nil {
		return t, fmt.Errorf("modules.rules: %v", err)
	}
	// The rules folder is the glob's literal head: the segments before the first wildcard.
	var dir []string
	for _, s := range strings.Split(rules, "/") {
		if strings.ContainsAny(s, "*?") {
			break
		}
		dir = append(dir, s)
	}
	if len(dir) == 0 {
		return t, fmt.Errorf("modules.rules %q has no folder before its wildcards", rules)
	}
	t.RulesDir, t.Tree = strings.Join(dir, "/"), dir[0]
	return t, nil
}

// parseSize reads "256 KiB" (or MiB, or a plain number of bytes).
func parseSize(s string) (int, error) {
	num, unit, _ := strings.Cut(s, " ")
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	switch unit {
	case "", "B", "bytes":
		return n, nil
	case "KiB":
		return n << 10, nil
	case "MiB":
		return n << 20, nil
	}
	return 0, fmt.Errorf("%q: no unit %q", s, unit)
}

// Envelope is a module as it is sent: whole, under its path, marked when it supersedes an
// earlier version of the same path. The marker is an attribute after the path, the form its
// text `supersedes="earlier version"` has.
func (t Texts) envelope(path string, content []byte, supersedes bool) string {
	before, after, _ := strings.Cut(t.Envelope, "{{path}}")
	if supersedes {
		// after begins with the path attribute's closing quote.
		if i := strings.IndexByte(after, '"'); i >= 0 {
			after = after[:i+1] + " " + t.Supersedes + after[i+1:]
		}
	}
	head, tail, _ := strings.Cut(after, "{{content}}")
	// Built in one piece from the module's bytes: a module may be 256 KiB, and string(content)
	// then a concatenation copied it twice.
	var b strings.Builder
	b.Grow(len(before) + len(path) + len(head) + len(content) + len(tail))
	b.WriteString(before)
	b.WriteString(path)
	b.WriteString(head)
	b.Write(content)
	b.WriteString(tail)
	return b.String()
}
