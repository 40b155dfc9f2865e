package cassette

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

const cassettes = "../../../testdata/cassettes/"

// Every cassette under testdata is the one SHA256SUMS pins, and every one there is pinned.
func TestCassettesPinned(t *testing.T) {
	f, err := os.Open(cassettes + "SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pinned := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: malformed line %q", sc.Text())
		}
		b, err := os.ReadFile(cassettes + name)
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s: sha256 %x, SHA256SUMS pins %s", name, got, sum)
		}
		pinned[name] = true
	}
	names, _ := filepath.Glob(cassettes + "*.jsonl")
	for _, n := range names {
		if !pinned[filepath.Base(n)] {
			t.Errorf("%s is not pinned in SHA256SUMS", n)
		}
	}
}

// The cassette recorded from pi answers pi's requests from another run (another temporary
// directory, another day) with their recorded answers, in order; its prompt changed, the first
// request is a miss naming the path of the prompt's text.
func TestPiCassette(t *testing.T) {
	c, err := Open(cassettes+"pi.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	es, _, err := replay.ReadAll(cassettes + "pi.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tmp, date := regexp.MustCompile(`lembas-record-\d+`), regexp.MustCompile(`Current date: [0-9-]+`)
	another := func(b []byte) []byte {
		b = tmp.ReplaceAll(b, []byte("lembas-record-42"))
		return date.ReplaceAll(b, []byte("Current date: 2031-07-04"))
	}
	if c.Len() != len(es) || len(es) < 2 {
		t.Fatalf("%d exchanges playable of %d", c.Len(), len(es))
	}
	for _, e := range es {
		x := e.Exchange
		body := another(e.Body)
		if string(body) == string(e.Body) {
			t.Fatalf("exchange %d: nothing to vary in its body", x.Seq)
		}
		rec, _, miss := c.Play(x.Method, x.Path, body)
		if miss != nil {
			t.Fatalf("exchange %d: %v", x.Seq, miss)
		}
		if rec.Seq != x.Seq || rec.Response != nil && len(rec.Response.Chunks) != len(x.Response.Chunks) {
			t.Errorf("exchange %d played exchange %d", x.Seq, rec.Seq)
		}
	}
	first := strings.Replace(string(es[0].Body), "Read README.md", "Read NOTES.md", 1)
	_, _, miss := c.Play("POST", es[0].Exchange.Path, []byte(first))
	if miss == nil || miss.Nearest.Seq != 1 || miss.Path != "$.messages[1].content[0].text" {
		t.Fatalf("a changed prompt: %v", miss)
	}
}
