package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
)

// readReply reads a fixture as a replay reads the answer it gets.
func readReply(t *testing.T, name string) Reply {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../testdata/llamacpp", name))
	if err != nil {
		t.Fatal(err)
	}
	var r Reply
	if strings.HasSuffix(name, ".sse") {
		// Each event as its own write, as the server flushed them.
		var chunks [][]byte
		for _, ev := range strings.SplitAfter(string(b), "\n\n") {
			if ev != "" {
				chunks = append(chunks, []byte(ev))
			}
		}
		r, err = ParseStream(chunks)
	} else {
		r, err = ParseReply(b)
	}
	if err != nil {
		t.Fatal(name, err)
	}
	return r
}

// What a real llama-server answered (testdata/llamacpp) reads back as the tokens it reported.
func TestLlamaCppFixtures(t *testing.T) {
	for _, c := range []struct {
		file                     string
		prompt, cached, promptN  int
		promptMS                 float64
		firstTokenChunk, textLen int
	}{
		{"01-cold-nonstream.json", 1008, 0, 1008, 266.702, -1, 45},
		{"02-warm-nonstream.json", 1055, 1015, 40, 30.338, -1, 52},
		{"03-warm-stream.sse", 1074, 1052, 22, 19.58, 1, 0},
		{"04-broken-prefix-stream.sse", 1071, 10, 1061, 318.421, 1, 0},
	} {
		r := readReply(t, c.file)
		u := r.TokenUsage()
		if u.PromptTokens == nil || *u.PromptTokens != c.prompt || u.CachedTokens == nil || *u.CachedTokens != c.cached ||
			u.PromptN == nil || *u.PromptN != c.promptN || u.PromptMS == nil || *u.PromptMS != c.promptMS {
			t.Errorf("%s: %+v", c.file, u)
			continue
		}
		// Both dialects a llama-server speaks, agreeing.
		if u.Dialect != usage.OpenAI || u.Reported[usage.LlamaCpp] != c.cached || u.Reported[usage.OpenAI] != c.cached {
			t.Errorf("%s: dialect %s, reported %v", c.file, u.Dialect, u.Reported)
		}
		if r.FirstTokenChunk != c.firstTokenChunk {
			t.Errorf("%s: first token in chunk %d, want %d", c.file, r.FirstTokenChunk, c.firstTokenChunk)
		}
		if c.textLen > 0 && len(r.Text) != c.textLen {
			t.Errorf("%s: text %q", c.file, r.Text)
		}
	}
}
