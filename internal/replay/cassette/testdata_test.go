package cassette

import (
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/pins"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

const cassettes = "../../../testdata/cassettes/"

// Every cassette under testdata is the one SHA256SUMS pins, and every one there is pinned.
func TestCassettesPinned(t *testing.T) {
	_, problems, err := pins.Check(cassettes, "*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
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
