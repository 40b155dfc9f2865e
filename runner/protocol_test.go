package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/format"
)

func TestParseAnswer(t *testing.T) {
	for _, c := range []struct {
		line    string
		verdict Verdict
		answer  string
		msg     string
		err     string
	}{
		{line: `{"seq": 3, "answer": {"text": "x"}}`, answer: `{"text": "x"}`},
		{line: `{"answer": null, "seq": 3}`, answer: `null`},
		{line: `{"seq": 3, "skip": "no prefix here"}`, verdict: Skip, msg: "no prefix here"},
		{line: `{"seq": 3, "error": "KeyError: 'id'"}`, verdict: Error, msg: "KeyError: 'id'"},
		{line: `{"seq": 3, "answer": 1}` + "\r", answer: `1`},
		{line: `{"seq": 4, "answer": 1}`, err: "seq 4, the request had seq 3"},
		{line: `{"seq": "3", "answer": 1}`, err: `"seq" is "3", not an integer`},
		{line: `{"answer": 1}`, err: `no "seq"`},
		{line: `{"seq": 3}`, err: "0 of answer, skip, error"},
		{line: `{"seq": 3, "skip": "a", "error": "b"}`, err: "2 of answer, skip, error"},
		{line: `{"seq": 3, "skip": 1}`, err: `"skip" is 1, not a string`},
		{line: `{"seq": 3, "answer": 1, "ms": 2}`, err: `unknown key "ms"`},
		{line: `[1]`, err: "not a JSON object"},
		{line: `null`, err: "not a JSON object"},
		{line: ``, err: "not a JSON object"},
		{line: `{"seq": 3, "answer": 1} {"seq": 3, "answer": 1}`, err: "not a JSON object"},
	} {
		out, err := parseAnswer([]byte(c.line), 3)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.line, err, c.err)
			}
			continue
		}
		if err != nil || out.Verdict != c.verdict || out.Message != c.msg || string(out.Answer) != c.answer {
			t.Errorf("%s: %+v %v", c.line, out, err)
		}
	}
}

func TestParseHello(t *testing.T) {
	h, err := parseHello([]byte(`{"protocol": 1, "implementation": {"name": "LLeMbas CLI", "version": "2.0.0", "language": "typescript", "harness_spec": "3.1.0", "homepage": "x", "extra": 1}, "areas": ["prefix", "jobs"]}`))
	if err != nil || h.Implementation.Name != "LLeMbas CLI" || strings.Join(h.Areas, ",") != "jobs,prefix" {
		t.Fatalf("%+v %v", h, err)
	}
	for line, want := range map[string]string{
		`{"protocol": 2, "error": "I speak 2"}`:                                `Update lembas-check (go install ./cmd/lembas-check in its clone, git pull first); it said: "I speak 2"`,
		`{"protocol": 0}`:                                                      "Update the adapter to protocol 1",
		`{"protocol": 1, "error": "harness spec 3.0 only"}`:                    `refused hello: "harness spec 3.0 only"`,
		`{"implementation": {"name": "x"}, "areas": []}`:                       "without a protocol number",
		`{"protocol": 1, "implementation": {}, "areas": []}`:                   `wrong "implementation" (it has no "name")`,
		`{"protocol": 1, "implementation": {"name": "x"}, "areas": "jobs"}`:    `wrong "areas"`,
		`{"protocol": 1, "implementation": {"name": "x"}, "areas": null}`:      `wrong "areas" (it is null)`,
		`{"protocol": 1, "areas": []}`:                                         `without "implementation"`,
		`{"protocol": 1, "implementation": {"name": "x"}, "areas": [], "x":1}`: `wrong "x"`,
		`hello!`: "not a JSON object",
	} {
		if _, err := parseHello([]byte(line)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", line, err, want)
		}
	}
}

func serveLines(t testing.TB, in string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(in), &out, Builtin{}); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

func TestServe(t *testing.T) {
	job := `{"kind":"to_subagent","text":"hi"}`
	got := serveLines(t, strings.Join([]string{
		`{"cmd": "hello", "protocol": 1, "harness_spec": "3.1.0"}`,
		`{"cmd": "run", "seq": 1, "area": "jobs", "case": ` + job + `}`,
		`{"cmd": "run", "seq": 2, "area": "tarot", "case": {}}`,
		`{"cmd": "run", "seq": 3, "area": "jobs", "case": {"kind": "daemon"}}`,
		`{"cmd": "run", "area": "jobs", "case": {}}`,
		`not json`,
		`{"cmd": "dance", "seq": 9}`,
		`{"cmd": "hello", "protocol": 2}`,
		`{"cmd": "bye"}`,
		`{"cmd": "run", "seq": 4, "area": "jobs", "case": ` + job + `}`,
	}, "\n"))
	want := []string{
		`{"protocol":1,"implementation":{"name":"lembas-check reference","version":"` + ToolVersion + `","language":"go","harness_spec":"3.1.0"},"areas":["` + strings.Join(areaNames(), `","`) + `"]}`,
		`{"seq":1,"answer":{"text":"[The main agent sent this while you were working — take it into account from here:]\nhi"}}`,
		`{"seq":2,"skip":"area not implemented"}`,
		`{"seq":3,"error":"kind: \"daemon\" is not a kind of job note; want command, subagent, message or to_subagent"}`,
		`{"error":"request line 5: a run request without seq"}`,
		`{"error":"request line 6 is not a protocol message (invalid character 'o' in literal null (expecting 'u')): \"not json\""}`,
		`{"seq":9,"error":"request line 7: unknown cmd \"dance\" (want hello, run or bye)"}`,
		`{"protocol":1,"error":"this adapter speaks protocol 1; the runner asked for 2"}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d answers, want %d (nothing after bye):\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		var g, w any
		json.Unmarshal([]byte(got[i]), &g)
		json.Unmarshal([]byte(want[i]), &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if !bytes.Equal(gb, wb) {
			t.Errorf("answer %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	// The end of input without bye ends serving too; a last line without "\n" is still answered.
	if got := serveLines(t, `{"cmd": "run", "seq": 1, "area": "jobs", "case": `+job+`}`); len(got) != 1 || !strings.HasPrefix(got[0], `{"seq":1,"answer"`) {
		t.Errorf("%q", got)
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"seq": 1, "answer": {"text": "x"}}`, `{"seq": 1, "skip": "x"}`, `{"seq": 1, "error": "x"}`, `{"seq": 2}`, `[]`, `{"seq": 1e0, "answer": 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		out, err := parseAnswer(line, 1)
		if err != nil {
			// 200 characters of the line, each escaped in at most 10 (\U0001f600), and a byte count.
			if q := format.Quote(line); len([]rune(q)) > 10*format.QuoteRunes+40 {
				t.Errorf("a quote of %d runes", len([]rune(q)))
			}
			return
		}
		if !json.Valid(line) {
			t.Fatalf("accepted a line that is not JSON: %q", line)
		}
		switch out.Verdict {
		case "":
			if !json.Valid(out.Answer) {
				t.Fatalf("an answer that is not JSON: %q", out.Answer)
			}
		case Skip, Error:
		default:
			t.Fatalf("verdict %q", out.Verdict)
		}
	})
}

func FuzzParseHello(f *testing.F) {
	for _, s := range []string{`{"protocol": 1, "implementation": {"name": "x"}, "areas": ["jobs"]}`, `{"protocol": 2, "error": "x"}`, `{"protocol": 1.5}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h, err := parseHello(line)
		if err != nil {
			return
		}
		if h.Implementation.Name == "" || h.Areas == nil || !json.Valid(line) {
			t.Fatalf("accepted %q as %+v", line, h)
		}
	})
}

// Whatever it is fed, Serve ends, and every line it writes is a JSON object.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"cmd":"hello","protocol":1}` + "\n" + `{"cmd":"run","seq":1,"area":"jobs","case":{"kind":"to_subagent","text":"x"}}` + "\n"))
	f.Add([]byte(`{"cmd":"run","seq":1,"area":"chunk","case":{"text":"a b","size":1}}`))
	f.Add([]byte("\n\n{\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if err := Serve(context.Background(), bytes.NewReader(in), &out, Builtin{}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var m map[string]any
			if l != "" && (json.Unmarshal([]byte(l), &m) != nil || m == nil) {
				t.Fatalf("wrote %q", l)
			}
		}
	})
}
