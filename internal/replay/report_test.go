package replay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// sentRows are three requests as a replay reports them: answered in llama.cpp's dialect, refused,
// and answered with no usage at all.
func sentRows() []Sent {
	return []Sent{
		{Seq: 1, Line: 4, Path: "/v1/chat/completions", Status: 200, Stream: true, FirstToken: 1500 * time.Microsecond, Total: 12 * time.Millisecond,
			Reply: Reply{Text: "ok", Usage: json.RawMessage(`{"prompt_tokens":100,"prompt_tokens_details":{"cached_tokens":90}}`), Timings: json.RawMessage(`{"cache_n":90,"prompt_n":10}`)},
			Note:  "the recorded calls were kept"},
		{Seq: 2, Line: 6, Path: "/v1/chat/completions", Status: 503, Error: `HTTP 503: {"error":"busy"} ` + strings.Repeat("and more ", 10)},
		{Seq: 3, Line: 8, Path: "/v1/chat/completions", Status: 200, Reply: Reply{Text: "ok"}},
	}
}

func TestWriteTable(t *testing.T) {
	t.Setenv("COLUMNS", "400") // the cells whole, as they come: a test of what they say, not of the layout
	var b strings.Builder
	WriteTable(&b, sentRows())
	var rows [][]string
	for _, l := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(l, "│") {
			continue // a rule
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(l, "│"), "│") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	want := [][]string{
		{"Seq", "Line", "Status", "TTFT ms", "Total ms", "Prompt", "Cached", "Dialect", "Note"},
		{"1", "4", "200", "1.5", "12.0", "100", "90", "openai", "the recorded calls were kept"},
		// An error comes first in the note, which is cut to 60 characters.
		{"2", "6", "503", "0.0", "0.0", "—", "not reported", "", `HTTP 503: {"error":"busy"} and more and more and more and m…`},
		{"3", "8", "200", "0.0", "0.0", "—", "not reported", "", ""},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("table (-want +got):\n%s\n%s", d, b.String())
	}
}

// A note the table cuts is said in full below it, once for the requests that share it: live
// mode's note on every request whose calls the server did not make was cut and printed nowhere.
func TestWriteTableSaysEachNoteWhole(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	live := "the server made 0 calls where the recording has 1; the recorded calls were kept, so the recorded " +
		"results still answer them"
	sent := append(sentRows(), Sent{Seq: 4, Line: 9, Status: 200, Note: live}, Sent{Seq: 5, Line: 10, Status: 200,
		Note: live})
	var b strings.Builder
	WriteTable(&b, sent)
	var after []string
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if r, _ := utf8.DecodeRuneInString(l); !strings.ContainsRune("│┌├└", r) {
			after = append(after, l)
		}
	}
	want := []string{
		"request 1: the recorded calls were kept",
		`request 2: HTTP 503: {"error":"busy"} ` + strings.TrimSpace(strings.Repeat("and more ", 10)),
		"requests 4, 5: " + live,
	}
	if d := cmp.Diff(want, after); d != "" {
		t.Errorf("below the table (-want +got):\n%s\n%s", d, b.String())
	}
}

// A JSON line is the request as sent, its times in milliseconds and the usage, in that order.
func TestLineOf(t *testing.T) {
	b, err := json.Marshal(LineOf(sentRows()[0]))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":1,"line":4,"path":"/v1/chat/completions","status":200,"stream":true,"note":"the recorded calls were kept","first_token_ms":1.5,"total_ms":12,` +
		`"usage":{"prompt_tokens":100,"cached_tokens":90,"dialect":"openai","reported":{"llama.cpp":90,"openai":90},"prompt_n":10}}`
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("line (-want +got):\n%s", d)
	}
	if got := CachedNote(LineOf(sentRows()[0]).Usage); got != "cached 90 (openai)" {
		t.Errorf("note %q", got)
	}
	if got := CachedNote(LineOf(sentRows()[2]).Usage); got != "cached: not reported" {
		t.Errorf("note %q", got)
	}
}

// A replayed request recorded again (replay --record) reads back as what was sent and answered.
func TestSentExchangeRecordsAgain(t *testing.T) {
	s := sentRows()[0]
	s.Body = []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`)
	s.Response = Response{Status: 200, Stream: true, Headers: map[string][]string{"Content-Type": {"text/event-stream"}},
		Chunks: []Chunk{{MS: 1.5, Data: "data: {\"choices\":[]}\n\n"}, {MS: 12, Data: "data: [DONE]\n\n"}}}
	s.Error = "the stream ended early"
	started := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	e := writeAndReadBack(t, s.Exchange(started), s.Body)
	x := e.Exchange
	if !bytes.Equal(e.Body, s.Body) || x.Seq != 1 || x.Method != "POST" || x.Path != s.Path || !x.Started.Equal(started) || x.Error != s.Error ||
		x.Timing.FirstByteMS != 1.5 || x.Timing.TotalMS != 12 {
		t.Errorf("read back: %+v\n%s", x, e.Body)
	}
	if x.Response == nil || !cmp.Equal(*x.Response, s.Response) {
		t.Errorf("response (-sent +read back):\n%s", cmp.Diff(s.Response, x.Response))
	}
}
