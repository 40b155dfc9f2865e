package skills

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Texts are what filesystem.md's *Skills* fixes, parsed from its text: the places of each side's
// table row (their backticked paths, in order) and the two name rules.
type Texts struct {
	// Chat is the chat row's paths: the directory each directory on the walk holds (`skills/`),
	// the person's (`/home/<user>/skills/`) and the organisation's (`/skills/`).
	Chat []string
	// Device is the device row's paths: the project's own (`.agent/skills/`).
	Device []string
	// Name is the rule skill_manage checks a name with.
	Name *regexp.Regexp
	// MaxOffered is the most characters the one line of a name made elsewhere may have.
	MaxOffered int
}

// SpecTexts are the vendored filesystem.md's, parsed once; a text that changed shape panics.
var SpecTexts = spec.Parsed("harness/skills", func() (Texts, error) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		return Texts{}, err
	}
	return ParseTexts(md)
})

// ParseTexts reads the *Skills* section of filesystem.md: its table's chat and device rows, the
// backticked `^…$` rule and the length of a name made elsewhere.
func ParseTexts(md []byte) (Texts, error) {
	var t Texts
	var sec strings.Builder
	in := false
	sc := bufio.NewScanner(bytes.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Skills"
			continue
		}
		if !in {
			continue
		}
		sec.WriteString(line + "\n")
		for _, row := range []struct {
			prefix string
			into   *[]string
		}{{"| chat |", &t.Chat}, {"| device |", &t.Device}} {
			if strings.HasPrefix(line, row.prefix) {
				*row.into = append(*row.into, spec.Backticked(line)...)
			}
		}
	}
	text := strings.Join(strings.Fields(sec.String()), " ")
	for _, b := range spec.Backticked(text) {
		if strings.HasPrefix(b, "^") && strings.HasSuffix(b, "$") {
			re, err := regexp.Compile(b)
			if err != nil {
				return t, fmt.Errorf("filesystem.md, Skills: the name rule %s: %v", b, err)
			}
			t.Name = re
		}
	}
	t.MaxOffered, _ = spec.FindNumber(text, "offered when its name is one line of at most {} characters")
	switch {
	case len(t.Chat) != 3 || !strings.Contains(t.Chat[1], "<user>"):
		return t, fmt.Errorf("filesystem.md, Skills: the chat row names %q, want skills/, /home/<user>/skills/, "+
			"/skills/", t.Chat)
	case len(t.Device) != 1:
		return t, fmt.Errorf("filesystem.md, Skills: the device row names %q, want the project's directory", t.Device)
	case t.Name == nil:
		return t, fmt.Errorf("filesystem.md, Skills: no backticked ^…$ name rule")
	case t.MaxOffered == 0:
		return t, fmt.Errorf("filesystem.md, Skills: no \"one line of at most N characters\" for a name made elsewhere")
	}
	return t, nil
}
