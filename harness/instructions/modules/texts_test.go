package modules

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// quoted is the sentence a source quotes: what stands between its first `: "` and its last `"`.
func quoted(t *testing.T, key string) string {
	t.Helper()
	src := spec.Extras().Texts[key].Source
	i := strings.Index(src, `: "`)
	j := strings.LastIndex(src, `"`)
	if !strings.HasPrefix(src, "seeds/004_") || i < 0 || j <= i+3 {
		t.Fatalf("%s: source %q names no seed 004 line and quotes no sentence", key, src)
	}
	return src[i+3 : j]
}

// TestTextsAreInTheSentencesTheirSourcesQuote checks each text of extra/modules.json against the
// seed sentence its source quotes, so a slip in copying (or a hand edit) fails here.
func TestTextsAreInTheSentencesTheirSourcesQuote(t *testing.T) {
	for _, key := range []string{"modules.code.escape", "modules.code.oversized", "modules.code.activation_failed",
		"modules.max_bytes", "modules.names", "modules.rules", "modules.supersedes"} {
		if text := spec.Text(key); !strings.Contains(quoted(t, key), text) {
			t.Errorf("%s = %q is not in the sentence its source quotes", key, text)
		}
	}
	if q := quoted(t, "modules.frontmatter.key"); !strings.HasPrefix(q, spec.Text("modules.frontmatter.key")+" is the only key") {
		t.Errorf("modules.frontmatter.key: the quoted sentence %q does not begin with it", q)
	}
	if got := spec.Text("modules.max_bytes"); !strings.Contains(quoted(t, "modules.max_bytes"), "CONTEXT_FILE_MAX_BYTES, "+got+",") {
		t.Errorf("modules.max_bytes %q is not what CONTEXT_FILE_MAX_BYTES is said to be", got)
	}
	// The envelope: filled with the example's path and CONTENT it is the block the source quotes.
	src := spec.Extras().Texts["modules.envelope"].Source
	block := spec.MustRender(spec.Text("modules.envelope"), map[string]string{"path": "/project/src/api/x.md", "content": "CONTENT"})
	if !strings.Contains(src, `the block "`+block+`"`) {
		t.Errorf("modules.envelope filled with the example's values is\n%s\nwhich the source does not quote", block)
	}
	// The fence: the example's first and last line, quoted as such.
	if f := spec.Text("modules.frontmatter.fence"); f != "---" && strings.Trim(f, "-") != "" {
		t.Errorf("modules.frontmatter.fence %q is not a line of dashes", f)
	}
}

// TestTextsAreTheCasesOwn checks the texts against conformance/cases/modules.json, whose
// expectations were written by hand: every envelope there begins as the template does, every
// code the cases name is one of the three, and the cap is the cases' 262144.
func TestTextsAreTheCasesOwn(t *testing.T) {
	b, err := os.ReadFile("../../../conformance/cases/modules.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Expect []json.RawMessage `json:"expect"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	tx := SpecTexts()
	head, _, _ := strings.Cut(tx.Envelope, "{{path}}")
	_, tail, _ := strings.Cut(tx.Envelope, "{{content}}")
	codes := map[string]bool{}
	envelopes, marked := 0, 0
	for _, c := range f.Cases {
		for _, raw := range c.Expect {
			var a struct {
				Record *struct {
					Modules []string `json:"modules"`
				} `json:"record"`
				Diagnostics []struct {
					Code *string `json:"code"`
				} `json:"diagnostics"`
			}
			if string(raw) == "null" {
				continue
			}
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatal(err)
			}
			for _, d := range a.Diagnostics {
				if d.Code != nil {
					codes[*d.Code] = true
				}
			}
			if a.Record == nil {
				continue
			}
			for _, m := range a.Record.Modules {
				envelopes++
				if !strings.HasPrefix(m, head) || !strings.HasSuffix(m, tail) {
					t.Errorf("a case's envelope %q is not the template's %q…%q", m, head, tail)
				}
				if strings.Contains(m, tx.Supersedes) {
					marked++
				}
			}
		}
	}
	if envelopes == 0 || marked == 0 {
		t.Errorf("the cases hold %d envelopes, %d marked %s; want some, and some marked", envelopes, marked, tx.Supersedes)
	}
	for _, code := range []string{tx.Escape, tx.Oversized, tx.ActivationFailed} {
		if !codes[code] {
			t.Errorf("no case expects the code %s", code)
		}
		delete(codes, code)
	}
	if len(codes) > 0 {
		t.Errorf("cases expect codes the texts do not have: %v", codes)
	}
	if tx.MaxBytes != 262144 {
		t.Errorf("MaxBytes = %d; the cases are written for 256 KiB = 262144", tx.MaxBytes)
	}
	if strings.Join(tx.Names, "|") != "AGENTS.override.md|AGENTS.md|AGENTS.MD|CLAUDE.md|CLAUDE.MD" || tx.RulesDir != ".elowen/rules" || tx.Tree != ".elowen" {
		t.Errorf("names %q, rules folder %q, tree %q: not what the cases are written for", tx.Names, tx.RulesDir, tx.Tree)
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"256 KiB", 262144, true}, {"1 MiB", 1 << 20, true}, {"512", 512, true}, {"10 bytes", 10, true},
		{"256 kB", 0, false}, {"KiB", 0, false}, {"-1 KiB", 0, false}, {"0", 0, false}, {"", 0, false},
	} {
		got, err := parseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestParseTextsRefusesTextsOfAnotherShape(t *testing.T) {
	base := func(k string) string { return spec.Text(k) }
	for key, bad := range map[string]string{
		"modules.envelope":  "<instruction_module>CONTENT</instruction_module>",
		"modules.max_bytes": "a lot",
		"modules.rules":     "/abs/**/*.md",
	} {
		_, err := parseTexts(func(k string) string {
			if k == key {
				return bad
			}
			return base(k)
		})
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s = %q: want an error naming it, got %v", key, bad, err)
		}
	}
	if _, err := parseTexts(func(k string) string {
		if k == "modules.rules" {
			return "**/*.md"
		}
		return base(k)
	}); err == nil {
		t.Error("a rules glob with no folder before its wildcards: no error")
	}
}

func TestEnvelope(t *testing.T) {
	tx := SpecTexts()
	plain := tx.envelope("/p/a.md", []byte("body\n"), false)
	if want := spec.MustRender(tx.Envelope, map[string]string{"path": "/p/a.md", "content": "body\n"}); plain != want {
		t.Errorf("envelope = %q, want %q", plain, want)
	}
	marked := tx.envelope("/p/a.md", []byte("body\n"), true)
	if marked != strings.Replace(plain, `"/p/a.md"`, `"/p/a.md" `+tx.Supersedes, 1) {
		t.Errorf("marked envelope %q: the marker does not follow the path attribute", marked)
	}
	// A body that itself holds {{path}} is not filled again.
	if got := tx.envelope("/p", []byte("{{path}} {{content}}"), false); !strings.Contains(got, "\n{{path}} {{content}}\n") {
		t.Errorf("envelope filled the body's own braces: %q", got)
	}
}
