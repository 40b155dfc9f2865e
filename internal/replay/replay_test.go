package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sys = `{"role":"system","content":"You are a coding agent."}`
const tools = `[{"type":"function","function":{"name":"read","parameters":{"type":"object"}}}]`

func body(msgs ...string) []byte {
	return []byte(`{"model":"m","messages":[` + sys + `,` + strings.Join(msgs, ",") + `],"tools":` + tools + `,"stream":true}`)
}

func TestWriteReadRoundTripStoresBlobsOnce(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Tool: "test", Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{"Authorization": {"Bearer sk-secret"}, "Content-Type": {"application/json"}, "X-Goog-Api-Key": {"k"}}
	headers, redacted := CleanHeaders(h)
	bodies := [][]byte{body(`{"role":"user","content":"hi"}`), body(`{"role":"user","content":"hi"}`, `{"role":"assistant","content":"yo"}`)}
	for _, b := range bodies {
		x := Exchange{Method: "POST", Path: "/v1/chat/completions", Request: Request{Headers: headers, Redacted: redacted},
			Response: &Response{Status: 200, Stream: true, Chunks: []Chunk{{MS: 1, Data: "data: {}\n\n"}, {MS: 2, Data: "data: [DONE]\n\n"}}}}
		if err := w.Write(x, b); err != nil {
			t.Fatal(err)
		}
	}
	out := buf.String()
	if strings.Count(out, `"type":"blob"`) != 2 {
		t.Fatalf("want the system prompt and the tools stored once each:\n%s", out)
	}
	if strings.Contains(out, "sk-secret") || strings.Contains(out, `"k"`) {
		t.Fatalf("a credential reached the recording:\n%s", out)
	}
	if strings.Count(out, "You are a coding agent") != 1 {
		t.Fatalf("the system prompt is stored more than once")
	}
	r, err := NewReader(strings.NewReader(out))
	if err != nil || r.Kind != KindRecording || r.Header.Source != "fake" {
		t.Fatalf("reader: %v %+v", err, r)
	}
	for i, want := range bodies {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(e.Body, want) {
			t.Fatalf("exchange %d body:\n got %s\nwant %s", i, e.Body, want)
		}
		if e.Exchange.Seq != i+1 || len(e.Exchange.Response.Chunks) != 2 || e.Exchange.Request.Redacted[0] != "authorization" {
			t.Fatalf("exchange %d: %+v", i, e.Exchange)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

// Gemini's systemInstruction is stored once, as Anthropic's system and Responses' instructions are.
func TestGeminiSystemInstructionIsABlob(t *testing.T) {
	raw := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"systemInstruction":{"parts":[{"text":"You are Gemini CLI."}]}}`
	req, blobs := SplitBody([]byte(raw))
	if len(blobs) != 1 || blobs[0].Kind != "system" || bytes.Contains(req.Body, []byte("Gemini CLI")) {
		t.Fatalf("blobs %+v, body %s", blobs, req.Body)
	}
	if got, err := req.Exact(blobMap(blobs)); err != nil || string(got) != raw {
		t.Fatalf("%s %v", got, err)
	}
}

func TestExactBytesOfBodiesThatAreNotCompact(t *testing.T) {
	for _, raw := range []string{
		"{\n  \"model\": \"m\",\n  \"messages\": [\n    {\"role\": \"system\", \"content\": \"x\"}\n  ]\n}",
		`{"messages":[{"role":"system","content":"a"}], "tools":[ ]}`,
		`not json at all`,
		"\xff\xfe binary",
		`{"input":"hello","instructions":"Be brief.","tools":[]}`,
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"systemInstruction":{"parts":[{"text":"S"}]},"tools":[{"functionDeclarations":[]}]}`,
	} {
		req, blobs := SplitBody([]byte(raw))
		got, err := req.Exact(blobMap(blobs))
		if err != nil || string(got) != raw {
			t.Errorf("SplitBody(%q) then Exact = %q, %v", raw, got, err)
		}
		if req.Body != nil && bytes.ContainsAny(req.Body, "\n") {
			t.Errorf("a stored body holds a newline: %q", req.Body)
		}
	}
}

func TestACutLastLineIsReportedAfterEverythingBefore(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Source: "fake"})
	for i := 0; i < 3; i++ {
		w.Write(Exchange{Method: "POST", Path: "/v1/chat/completions"}, body(`{"role":"user","content":"q`+string(rune('0'+i))+`"}`))
	}
	full := buf.String()
	cut := full[:len(full)-25]
	r, err := NewReader(strings.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || !le.Cut || le.Line != 6 {
				t.Fatalf("want a cut at line 6, got %v", err)
			}
			if !strings.Contains(err.Error(), "line 6") {
				t.Fatalf("the error does not name the line: %v", err)
			}
			break
		}
		n++
	}
	if n != 2 {
		t.Fatalf("read %d exchanges before the cut, want 2", n)
	}
	lines := strings.SplitAfter(full, "\n")
	lines[4] = "{not json\n" // the second exchange's line
	r, _ = NewReader(strings.NewReader(strings.Join(lines, "")))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("want damage at line 5, got %v", err)
	}
}

// readEntries reads a recording to its end; any error but the end fails the test.
func readEntries(t *testing.T, r *Reader) []Entry {
	t.Helper()
	var out []Entry
	for {
		e, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

func TestRequestLogsAreToldApartByContent(t *testing.T) {
	log := string(body(`{"role":"user","content":"a"}`)) + "\n\n" + string(body(`{"role":"user","content":"b"}`)) + "\n"
	r, err := NewReader(strings.NewReader(log))
	if err != nil || r.Kind != KindRequestLog {
		t.Fatalf("kind %q, %v", r.Kind, err)
	}
	var got []int
	for _, e := range readEntries(t, r) {
		got = append(got, e.Line)
		if e.Exchange.Path != "/v1/chat/completions" || !json.Valid(e.Body) {
			t.Fatalf("entry %+v", e)
		}
	}
	if len(got) != 2 || got[1] != 3 {
		t.Fatalf("lines %v", got)
	}
	if _, err := NewReader(strings.NewReader(`{"hello": 1}`)); err == nil {
		t.Fatal("a JSON line that is neither accepted")
	}
	if _, err := NewReader(strings.NewReader(`{"type":"header","format":"lembas-check-recording","version":99}`)); err == nil || !strings.Contains(err.Error(), "update lembas-check") {
		t.Fatalf("a newer version: %v", err)
	}
}

func TestCreateAppendsToAFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rec.jsonl")
	w, err := Create(p, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(Exchange{Method: "GET", Path: "/v1/models", Response: &Response{Status: 200, Body: json.RawMessage(`{"data":[]}`)}}, nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _, err := ReadAll(p)
	if err != nil || len(entries) != 1 || entries[0].Exchange.Path != "/v1/models" {
		t.Fatalf("%v %+v", err, entries)
	}
	b, _ := os.ReadFile(p)
	if !bytes.HasSuffix(b, []byte("\n")) {
		t.Fatal("the last line is not ended")
	}
}

func FuzzSplitJoin(f *testing.F) {
	f.Add(body(`{"role":"user","content":"hi"}`))
	f.Add([]byte(`{"messages":[{"role":"developer","content":"x"},{"$blob":"` + strings.Repeat("a", 64) + `"}]}`))
	f.Add([]byte(`{"tools": {"$blob": 1}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		req, blobs := SplitBody(raw)
		got, err := req.Exact(blobMap(blobs))
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("not exact: %q -> %q (%v)", raw, got, err)
		}
	})
}

func FuzzReader(f *testing.F) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Source: "fake"})
	w.Write(Exchange{Method: "POST"}, body(`{"role":"user","content":"x"}`))
	f.Add(buf.Bytes())
	f.Add(body())
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := NewReader(bytes.NewReader(in))
		if err != nil {
			return
		}
		for i := 0; i < 1000; i++ {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	})
}

// A stream's line can be written after the next request's (it completes a moment later): the
// reader gives exchanges in the order they began.
func TestExchangesComeInTheOrderTheyBegan(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Source: "fake"})
	for _, seq := range []int{2, 1, 3, 5, 4} {
		w.Write(Exchange{Seq: seq, Method: "POST", Path: "/v1/chat/completions"}, body(`{"role":"user","content":"q`+string(rune('0'+seq))+`"}`))
	}
	full := buf.String()
	r, _ := NewReader(strings.NewReader(full))
	var got []int
	for _, e := range readEntries(t, r) {
		got = append(got, e.Exchange.Seq)
		if !bytes.Contains(e.Body, []byte(`"q`+string(rune('0'+e.Exchange.Seq))+`"`)) {
			t.Fatalf("seq %d carries another body: %s", e.Exchange.Seq, e.Body)
		}
	}
	if fmt.Sprint(got) != "[1 2 3 4 5]" {
		t.Fatalf("order %v", got)
	}
	// Damage after a swapped pair: both are given, then the error.
	cut := full[:len(full)-20]
	r, _ = NewReader(strings.NewReader(cut))
	got = nil
	var last error
	for {
		e, err := r.Next()
		if err != nil {
			last = err
			break
		}
		got = append(got, e.Exchange.Seq)
	}
	var le *LineError
	if fmt.Sprint(got) != "[1 2 3 5]" || !errors.As(last, &le) || !le.Cut {
		t.Fatalf("before the damage %v, then %v", got, last)
	}
}

// A seq that never came (in flight when the writer stopped) does not hold the rest back for ever.
func TestAMissingSeqIsPassedOver(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Source: "fake"})
	for seq := 2; seq <= reorderWindow+10; seq++ {
		w.Write(Exchange{Seq: seq, Method: "POST"}, body())
	}
	r, _ := NewReader(strings.NewReader(buf.String()))
	n, prev := 0, 0
	for _, e := range readEntries(t, r) {
		if e.Exchange.Seq <= prev {
			t.Fatalf("seq %d after %d", e.Exchange.Seq, prev)
		}
		prev = e.Exchange.Seq
		n++
	}
	if n != reorderWindow+9 {
		t.Fatalf("%d exchanges", n)
	}
}

// Offset says how far into its file a reader has got, for a progress line by bytes (issue 16:
// the audit's showed a count with no total): all of it at the end.
func TestReaderOffset(t *testing.T) {
	const path = "../../testdata/recordings/clean.jsonl"
	r, f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	first := r.Offset()
	if first <= 0 || first >= st.Size() {
		t.Errorf("after the header: offset %d of %d", first, st.Size())
	}
	for {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	if r.Offset() != st.Size() {
		t.Errorf("at the end: offset %d of %d", r.Offset(), st.Size())
	}
}

// IsPrompt is the one rule for which exchanges the audit reads and a replay sends: what was
// audit.IsPrompt, which the replay's callers passed the Player (whose own default was every POST).
func TestIsPrompt(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         bool
	}{
		{"POST", "/v1/chat/completions", true},
		{"POST", "/v1/responses", true},
		{"POST", "/v1/responses/", true},
		{"POST", "/v1/messages", true},
		{"POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", true},
		{"POST", "/v1beta/models/gemini-2.5-pro:generateContent", true},
		{"", "", true}, // a request log's line
		{"POST", "", true},
		{"", "/v1/chat/completions", true},
		{"GET", "/v1/models", false},
		{"GET", "/v1/responses", false}, // the Responses WebSocket's upgrade
		{"POST", "/v1/embeddings", false},
		{"POST", "/v1/completions", false},
		{"POST", "/slots/0?action=erase", false},
		{"PUT", "/v1/chat/completions", false},
	} {
		if got := IsPrompt(Exchange{Method: c.method, Path: c.path}); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.method, c.path, got, c.want)
		}
	}
}

// CountPrompts counts the requests the audit reads and a replay sends, to the end of a recording or up to the
// damage that stops it.
func TestCountPrompts(t *testing.T) {
	for file, want := range map[string]int{"clean.jsonl": 6, "interleaved.jsonl": 9, "compaction.jsonl": 9} {
		r, f, err := Open("../../testdata/recordings/" + file)
		if err != nil {
			t.Fatal(err)
		}
		n, err := CountPrompts(r)
		f.Close()
		if err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", file, n, err, want)
		}
	}
	whole, _ := os.ReadFile("../../testdata/recordings/clean.jsonl")
	r, err := NewReader(bytes.NewReader(whole[:len(whole)-100]))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := CountPrompts(r); err == nil || n != 5 {
		t.Errorf("a cut recording: %d, %v; want 5 and the damage", n, err)
	}
}

// A Responses request that names an earlier response (previous_response_id) is read with the
// earlier turns before its input, whatever query its path has; a chat request that names one is
// not a continuation. Which requests are Responses ones is chat.APIOf's rule, the audit's; a
// string input is the item chat.InputItems makes, its text as sent (the reader's own made
// \u003c of <).
func TestContinuationsFollowTheResponsesPath(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Source: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	first := `{"model":"m","input":"hi <there> & all"}`
	answer := &Response{Status: 200, Body: json.RawMessage(`{"id":"resp_1","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}]}`)}
	next := `{"model":"m","previous_response_id":"resp_1","input":[{"type":"message","role":"user","content":"more"}]}`
	for _, x := range []struct {
		path, body string
		resp       *Response
	}{
		{"/v1/responses?api-version=1", first, answer},
		{"/v1/responses?api-version=1", next, nil},
		{"/v1/chat/completions", next, nil},
	} {
		if err := w.Write(Exchange{Method: "POST", Path: x.path, Response: x.resp}, []byte(x.body)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var es []Entry
	for e, err := range Entries(r) {
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	if len(es) != 3 || es[0].Prompt != nil || es[2].Prompt != nil {
		t.Fatalf("%d entries; prompts %q, %q", len(es), es[0].Prompt, es[len(es)-1].Prompt)
	}
	if p := string(es[1].Prompt); !strings.Contains(p, `"hi <there> & all"`) || !strings.Contains(p, `"hello"`) || !strings.Contains(p, `"more"`) || strings.Contains(p, "previous_response_id") {
		t.Errorf("the continuation as the model saw it: %s", p)
	}
}

// A request log's line is sent to the endpoint its body is for, as chat tells a body's API from
// its members: an Anthropic body (a top-level system) to /v1/messages, where it went to chat
// completions and was read there without its system prompt.
func TestRequestLogPaths(t *testing.T) {
	lines := []string{
		`{"model":"m","messages":[{"role":"user","content":"a"}]}`,
		`{"model":"m","input":"a"}`,
		`{"model":"claude-sonnet-4-5","max_tokens":9,"system":"S","messages":[{"role":"user","content":"a"}]}`,
		`{"contents":[{"role":"user","parts":[{"text":"a"}]}]}`,
		`{"model":"m","input":"a","messages":[]}`,
	}
	r, err := NewReader(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for e, err := range Entries(r) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Exchange.Path)
		if !IsPrompt(e.Exchange) {
			t.Errorf("line %d (%s) is no prompt", e.Line, e.Exchange.Path)
		}
	}
	want := []string{"/v1/chat/completions", "/v1/responses", "/v1/messages", "/v1beta/models/:generateContent", "/v1/chat/completions"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paths %q, want %q", got, want)
	}
}
