package conformance

import (
	"bytes"
	"fmt"
	"io/fs"
	"testing"
)

// Each case knows the line it starts on, so JUnit can point at it (issue 16: CI test views showed
// hash ids with no file or line).
func TestCasesKnowTheirLine(t *testing.T) {
	b := []byte("{\"about\": \"x\",\n \"cases\": [\n  {\"kind\": \"command\", \"id\": \"j\", \"command\": \"c\", \"exit\": 0, \"seconds\": 1, \"unread\": \"\",\n   \"expect\": {\"text\": \"a\"}},\n\n  {\"kind\": \"command\", \"id\": \"k\", \"command\": \"c\", \"exit\": 0, \"seconds\": 1, \"unread\": \"\", \"expect\": {\"text\": \"b\"}}\n ]}\n")
	if got := fmt.Sprint(caseLines(b)); got != "[3 6]" {
		t.Errorf("lines %s", got)
	}
	// Every embedded case's line is the line its object opens on.
	for _, s := range EmbeddedSuites() {
		for _, a := range All() {
			raw, err := fs.ReadFile(s.FS, a.Name+".json")
			if err != nil {
				continue
			}
			cases, err := ParseFile(a.Name+".json", raw, a)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(raw, []byte("\n"))
			for _, c := range cases {
				if c.Line < 1 || !bytes.HasPrefix(bytes.TrimLeft(lines[c.Line-1], " \t"), []byte("{")) {
					t.Errorf("%s: line %d: %q", c.Where(), c.Line, lines[max(c.Line-1, 0)])
				}
			}
		}
	}
}
