package chunk

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

func tokensAbout(t *testing.T) string {
	t.Helper()
	b, err := fs.ReadFile(spec.Conformance(), "chunk_tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		About string `json:"about"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.About
}

// The rules' numbers are the ones the abouts state, sentence by sentence.
func TestRulesAreReadFromTheAbouts(t *testing.T) {
	for _, c := range []struct {
		name  string
		about string
		rule  Rule
		size  string // how the about says the minimum size
	}{
		{"chunk_tokens", tokensAbout(t), TokenRule(), "at most `size` tokens each (raised to "},
		{"chunk", spec.Text("chunk.about"), CharRule(), "about `size` characters (raised to "},
	} {
		if c.rule.MinSize < 1 || c.rule.MinPiece < 1 {
			t.Errorf("%s: rule %+v has a number that is not positive", c.name, c.rule)
		}
		if want := c.size + itoa(c.rule.MinSize) + " when smaller)"; !strings.Contains(c.about, want) {
			t.Errorf("%s: about does not say %q", c.name, want)
		}
		if want := "pieces under " + itoa(c.rule.MinPiece) + " characters dropped"; !strings.Contains(c.about, want) {
			t.Errorf("%s: about does not say %q", c.name, want)
		}
	}
}

// extra/chunk.json's text is the seed's chunk.json about, which the seed alone carries; what can be
// checked against a vendored file is that it states the cut rules the token splitter's about
// calls "the character splitter's" (filesystem.md) in the same words.
func TestChunkAboutStatesTheSharedCutRules(t *testing.T) {
	chars, tokens := spec.Text("chunk.about"), tokensAbout(t)
	fsmd, err := spec.ReadFile("filesystem.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fsmd), "The cut rules are the character splitter's (`conformance/chunk.json`) measured in tokens") {
		t.Error("filesystem.md no longer says the token splitter's cut rules are the character splitter's")
	}
	for _, shared := range []string{
		`cut just after a paragraph break, else a line break, else a sentence's ". "`,
		"window's last third",
		"(at most half the size)",
		"CRLF read as LF",
		"pieces under " + itoa(TokenRule().MinPiece) + " characters dropped",
	} {
		if !strings.Contains(chars, shared) || !strings.Contains(tokens, shared) {
			t.Errorf("the two abouts do not both say %q", shared)
		}
	}
	if !strings.HasPrefix(chars, "Text → the pieces a knowledge document is cut into for search: ") {
		t.Errorf("chunk.about does not begin as the seed's chunk.json about: %q", chars)
	}
	if CharRule().MinPiece != TokenRule().MinPiece {
		t.Errorf("the splitters drop pieces under %d and %d characters", CharRule().MinPiece, TokenRule().MinPiece)
	}
}

func TestRuleOfRefusesAnAboutWithoutTheSentence(t *testing.T) {
	for _, about := range []string{"", "pieces under 40 characters dropped", "(raised to 16 when smaller)", "(raised to x when smaller); pieces under 40 characters dropped"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ruleOf(%q): no panic", about)
				}
			}()
			ruleOf("test", about)
		}()
	}
	if got := ruleOf("test", "(raised to 7 when smaller) … pieces under 3 characters dropped"); got != (Rule{MinSize: 7, MinPiece: 3}) {
		t.Errorf("ruleOf = %+v", got)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
