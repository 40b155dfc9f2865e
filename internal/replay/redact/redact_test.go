package redact

import (
	"os"
	"path/filepath"
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
