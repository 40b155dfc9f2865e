package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/chunk"
	"github.com/LLeMbas/lembas-check/internal/pins"
)

// The `tokenizer: server` cases of cases/chunk_tokens.json count the tokens a real llama-server
// answered for their texts. The answers are recorded in testdata/llamacpp (tokenizeRecords, pinned
// by its SHA256SUMS); each case carries its text's answer, so that an adapter needs no server.
// LEMBAS_LLAMA_SERVER=http://127.0.0.1:PORT records them again from that server (docs/areas.md,
// chunk_tokens): the file, its pin, and every case's tokenize line.

const (
	llamaFixtures  = "../testdata/llamacpp"
	tokenizeFile   = "15-tokenize-chunks.jsonl"
	chunkTokensSrc = "cases/chunk_tokens.json"
)

// tokenizeRecord is one line of tokenizeFile: the text sent (normalized, as the splitter cuts it)
// and the server's answer, as it was.
type tokenizeRecord struct {
	Content string          `json:"content"`
	Answer  json.RawMessage `json:"answer"`
}

// serverCases are the `tokenizer: server` cases of the case file, in order.
func serverCases(t *testing.T) []chunkTokensCase {
	t.Helper()
	b, err := os.ReadFile(chunkTokensSrc)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Tokenizer string          `json:"tokenizer"`
			Text      string          `json:"text"`
			Tokenize  json.RawMessage `json:"tokenize"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var out []chunkTokensCase
	for _, c := range f.Cases {
		if c.Tokenizer == serverTokenizer {
			var a tokenizeAnswer
			if c.Tokenize != nil {
				if err := json.Unmarshal(c.Tokenize, &a); err != nil {
					t.Fatal(err)
				}
			}
			out = append(out, chunkTokensCase{Tokenizer: &c.Tokenizer, Text: &c.Text, Tokenize: &a})
		}
	}
	return out
}

func TestServerTokenizeCasesAreRecorded(t *testing.T) {
	if url := os.Getenv("LEMBAS_LLAMA_SERVER"); url != "" {
		recordTokenize(t, strings.TrimRight(url, "/"))
	}
	_, problems, err := pins.Check(llamaFixtures, tokenizeFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	b, err := os.ReadFile(filepath.Join(llamaFixtures, tokenizeFile))
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]tokenizeAnswer{}
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r tokenizeRecord
		var a tokenizeAnswer
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s:%d: %v", tokenizeFile, i+1, err)
		}
		if err := json.Unmarshal(r.Answer, &a); err != nil {
			t.Fatalf("%s:%d: %v", tokenizeFile, i+1, err)
		}
		recorded[r.Content] = a
	}
	cases := serverCases(t)
	if len(cases) < 3 {
		t.Fatalf("%d tokenizer-server cases in %s, want at least 3", len(cases), chunkTokensSrc)
	}
	for i, c := range cases {
		text := chunk.Normalize(*c.Text)
		a, ok := recorded[text]
		switch {
		case !ok:
			t.Errorf("server case %d (%.40q…): no answer in %s for its text: record it (LEMBAS_LLAMA_SERVER)", i, text,
				tokenizeFile)
		case !sameTokens(a, *c.Tokenize):
			t.Errorf("server case %d (%.40q…): its tokenize is not the answer %s records for its text", i, text,
				tokenizeFile)
		}
		delete(recorded, text)
	}
	for text := range recorded {
		t.Errorf("%s records an answer no case uses: %.60q", tokenizeFile, text)
	}
}

func sameTokens(a, b tokenizeAnswer) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// recordTokenize asks the server at url for each server case's tokens and writes them: the
// records, their pin, and the cases' tokenize lines.
func recordTokenize(t *testing.T, url string) {
	var lines, answers [][]byte
	for _, c := range serverCases(t) {
		text := chunk.Normalize(*c.Text)
		q, _ := json.Marshal(map[string]any{"content": text, "with_pieces": true, "add_special": false,
			"parse_special": false})
		resp, err := http.Post(url+"/tokenize", "application/json", bytes.NewReader(q))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s/tokenize: %s %v: %.200s", url, resp.Status, err, body)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, body); err != nil {
			t.Fatalf("%s/tokenize: %v", url, err)
		}
		line, _ := json.Marshal(tokenizeRecord{Content: text, Answer: compact.Bytes()})
		lines, answers = append(lines, line), append(answers, compact.Bytes())
	}
	data := append(bytes.Join(lines, []byte("\n")), '\n')
	if err := os.WriteFile(filepath.Join(llamaFixtures, tokenizeFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	pin(t, tokenizeFile, data)
	rewriteTokenizeLines(t, answers)
}

// pin sets name's line in the fixtures' SHA256SUMS, in name order as sha256sum writes them.
func pin(t *testing.T, name string, data []byte) {
	sums := filepath.Join(llamaFixtures, "SHA256SUMS")
	b, err := os.ReadFile(sums)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasSuffix(l, "  "+name) {
			out = append(out, l)
		}
	}
	out = append(out, fmt.Sprintf("%x  %s", sha256.Sum256(data), name))
	sort.Slice(out, func(i, j int) bool { return out[i][66:] < out[j][66:] }) // after the sum and two spaces
	if err := os.WriteFile(sums, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

var tokenizeLine = regexp.MustCompile(`(?m)^([ \t]*"tokenize": ).*?(,?)$`)

// rewriteTokenizeLines puts each answer on its case's tokenize line (one line each, in order).
func rewriteTokenizeLines(t *testing.T, answers [][]byte) {
	b, err := os.ReadFile(chunkTokensSrc)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tokenizeLine.FindAll(b, -1)); n != len(answers) {
		t.Fatalf("%s has %d tokenize lines for %d server cases: each case keeps its answer on one line",
			chunkTokensSrc, n, len(answers))
	}
	i := 0
	b = tokenizeLine.ReplaceAllFunc(b, func(line []byte) []byte {
		m := tokenizeLine.FindSubmatch(line)
		out := append(append(append([]byte{}, m[1]...), answers[i]...), m[2]...)
		i++
		return out
	})
	if err := os.WriteFile(chunkTokensSrc, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
