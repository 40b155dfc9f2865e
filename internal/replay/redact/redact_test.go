package redact

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A key split across chunks is cut from them all, its marker in the chunk where it began, and
// the number of chunks kept.
func TestChunksSplitKey(t *testing.T) {
	key := "ghp_" + strings.Repeat("a1B2c3", 7)
	chunks := []string{"token " + key[:5], key[5:20], key[20:] + " end"}
	c := Counts{}
	got := Builtin().Chunks(chunks, c)
	if len(got) != 3 || got[0] != "token [REDACTED:github-token]" || got[1] != "" || got[2] != " end" || c["github-token"] != 1 {
		t.Errorf("%q %v", got, c)
	}
}

// A rules file adds patterns and member paths; an unknown key or a bad pattern names the file.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.yaml")
	os.WriteFile(p, []byte("patterns: ['corp-[0-9]{6}']\npaths: [$.metadata.user_id]\n"), 0o644)
	r, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	c := Counts{}
	got := string(r.Body([]byte(`{"metadata":{"user_id":"u-42","x":1},"input":"id corp-123456"}`), c))
	if got != `{"metadata":{"user_id":"[REDACTED:$.metadata.user_id]","x":1},"input":"id [REDACTED:pattern-1]"}` {
		t.Errorf("%s %v", got, c)
	}
	os.WriteFile(p, []byte("pattern: [x]\n"), 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("unknown key: %v", err)
	}
}

// A credential field's random value is scrubbed; a word or a placeholder is kept.
func TestCredentialField(t *testing.T) {
	c := Counts{}
	got := Builtin().Text(`{"api_key":"Zx81Qm2Lp0Rt7Vb4Nc6Y","password":"aaaaaaaaaaaaaaaaaaaa"}`, c)
	if got != `{"api_key":"[REDACTED:credential-field]","password":"aaaaaaaaaaaaaaaaaaaa"}` {
		t.Errorf("%s", got)
	}
}

// A word that merely contains sk- (a tool named risk-assessment-...) is not a key.
func TestNotAKey(t *testing.T) {
	s := `{"name":"risk-assessment-tool-for-all-users"}`
	if got := Builtin().Text(s, Counts{}); got != s {
		t.Errorf("%s", got)
	}
}

// The literal filter only ever skips a pattern that would find nothing: the secrets found are
// those of searching with every pattern.
func FuzzFilterIsSearch(f *testing.F) {
	for _, s := range []string{
		`{"api_key": "Zx9Qw8Er7Ty6Ui5Op4As"}`, "AWS_SECRET_ACCESS_KEY=" + strings.Repeat("aB3/", 10),
		"sk-ant-" + strings.Repeat("x", 24), "key sk-proj-" + strings.Repeat("Ab1", 9), "AKIA" + strings.Repeat("Q", 16),
		"ghs_" + strings.Repeat("a", 36), "github_pat_" + strings.Repeat("b", 22), "AIza" + strings.Repeat("c", 35),
		`{"TOKEN":"0123456789abcdefXYZ"}`, "awſ_secret_key=" + strings.Repeat("z", 40), `{"Kelvin_\u212aey":"x"}`,
		"no secret here, only words", "",
	} {
		f.Add(s)
	}
	rules := Builtin()
	f.Fuzz(func(t *testing.T, s string) {
		got, want := rules.search(s, true), rules.search(s, false)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: filtered %v, every pattern %v", s, got, want)
		}
	})
}

// The filter tells which patterns' literals a text holds, in either case where a pattern ignores it.
func TestFilter(t *testing.T) {
	f := newFilter(builtin())
	for _, c := range []struct {
		s    string
		want uint64
	}{
		{"xxAwSyy", 1 << 4}, {"aw", 0}, {"AAAAAaws sk-", 1<<4 | 1<<1}, {`"Token"`, credentialBit},
		{`"max_tokens"`, 0}, {"KEY\"", credentialBit}, {"sk-ant-", 1<<0 | 1<<1}, {"ASIA ghr_", 1<<3 | 1<<5},
		{"\u212a", 1<<4 | credentialBit}, {"", 0},
	} {
		if got := f.matches(c.s); got != c.want {
			t.Errorf("matches(%q) = %b, want %b", c.s, got, c.want)
		}
	}
}

// BenchmarkBody is a request body's scrub with the literal filter and without it (every pattern
// run over the body, as before the filter): an agent's request holds no secret.
func BenchmarkBody(b *testing.B) {
	body := []byte(`{"model":"m","messages":[{"role":"system","content":"` + strings.Repeat("You are a coding agent. Follow the rules. ", 40) +
		`"},{"role":"user","content":"Summarise README.md"}],"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}],"max_tokens":512}`)
	r := Builtin()
	b.Run("filtered", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			r.search(string(body), true)
		}
	})
	b.Run("every-pattern", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			r.search(string(body), false)
		}
	})
}

// A Rules value made without Builtin or Load still scrubs a credential field.
func TestZeroRules(t *testing.T) {
	c := Counts{}
	got := (&Rules{}).Text(`{"api_key": "Zx9Qw8Er7Ty6Ui5Op4As"}`, c)
	if got != `{"api_key": "[REDACTED:credential-field]"}` || c["credential-field"] != 1 {
		t.Errorf("%s %v", got, c)
	}
}

// FuzzNextDeltaIsTheRegexp: nextDelta finds the matches deltaMember's regexp finds, in order.
func FuzzNextDeltaIsTheRegexp(f *testing.F) {
	for _, s := range []string{`data: {"choices":[{"delta":{"content":"Hi \"there\"\\"}}]}`, `"text":"a\` + "\n" + `b"`,
		`"reasoning_content":"x","reasoning":"y"`, `"content":"unterminated`, `""content":"x"`, `"content":"é\é"`,
		`"content" :"x"`, `"arguments":"{\"a\":1}"`, "\"text\":\"\xff\\\xfe\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		want := deltaMember().FindAllStringSubmatchIndex(c, -1)
		var got [][]int
		for at := 0; ; {
			start, end, next, ok := nextDelta(c, at)
			if !ok {
				break
			}
			got = append(got, []int{at, next, start, end})
			at = next
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d matches, the regexp %d (%v)", c, len(got), len(want), want)
		}
		for i := range got {
			if got[i][1] != want[i][1] || got[i][2] != want[i][2] || got[i][3] != want[i][3] {
				t.Fatalf("%q: match %d is %v, the regexp's %v", c, i, got[i][1:], want[i])
			}
		}
	})
}
