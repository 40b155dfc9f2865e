package fakeprovider_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// plantedKeys are keys of each shape the recorder must keep out, built here so that no
// key-shaped literal sits in the source for a secret scanner to flag.
func plantedKeys() map[string]string {
	r := func(s string, n int) string { return strings.Repeat(s, n) }
	return map[string]string{
		"openai":      "sk-" + r("Ab3dE", 8),
		"openai-proj": "sk-proj-" + r("Xy9Zq", 9),
		"anthropic":   "sk-ant-api03-" + r("Qw7Er", 10),
		"google":      "AIza" + r("Sy4Kb", 7),
		"aws-id":      "AKIA" + r("QX7Z", 4),
		"aws-secret":  "aws_secret_access_key=" + r("wJalrXUt/K7MDENG+bPxR", 2)[:40],
		"github":      "ghp_" + r("a1B2c3D4e5", 4),
		"github-pat":  "github_pat_" + r("11ABCDEFG", 4),
	}
}

// Keys of every shape planted in a prompt, a tool result and a streamed answer (split across
// SSE chunks) never reach the recording file; the header names the rules and each exchange
// counts what it lost.
func TestSecretsNeverRecorded(t *testing.T) {
	keys := plantedKeys()
	var all []string
	for _, k := range keys {
		all = append(all, k)
	}
	answer := strings.Join(all, " and ")
	text, _ := json.Marshal(answer)
	sc := mustParse(t, "- {text: "+string(text)+", chunk: 3}\n- {text: "+string(text)+", chunk: 5}\n")
	path, w := recording(t, replay.Header{Source: "fake"})
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Script: sc, Record: w})
	prompt, _ := json.Marshal("my key is " + answer)
	body := `{"model":"fake-model","stream":%s,"messages":[{"role":"user","content":` + string(prompt) +
		`},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":` + string(prompt) + `}],"metadata":{"api_key":"Zx81Qm2Lp0Rt7Vb4Nc6Y"}}`
	for _, stream := range []string{"true", "false"} {
		resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(strings.Replace(body, "%s", stream, 1)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %s", resp.Status, b)
		}
	}
	es := readBack(t, srv, w, path)
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, k := range keys {
		if k = strings.TrimPrefix(k, "aws_secret_access_key="); strings.Contains(string(file), k) {
			t.Errorf("the %s key is in the recording", name)
		}
	}
	if strings.Contains(string(file), "Zx81Qm2Lp0Rt7Vb4Nc6Y") {
		t.Errorf("the api_key field's value is in the recording")
	}
	if !strings.Contains(string(file), `"redact":["anthropic-key"`) {
		t.Errorf("the header does not list the rules: %.300s", file)
	}
	for _, e := range es {
		if x := e.Exchange; x.Scrubbed["openai-key"] < 4 {
			t.Errorf("exchange %d counts %v", x.Seq, x.Scrubbed)
		}
	}
	// The streamed answer, put together from its recorded deltas as a client would, holds no key.
	var streamed strings.Builder
	for _, ch := range es[0].Exchange.Response.Chunks {
		for _, l := range strings.Split(ch.Data, "\n") {
			var ev struct {
				Choices []struct {
					Delta struct{ Content string } `json:"delta"`
				} `json:"choices"`
			}
			if d, ok := strings.CutPrefix(l, "data: "); ok && json.Unmarshal([]byte(d), &ev) == nil && len(ev.Choices) > 0 {
				streamed.WriteString(ev.Choices[0].Delta.Content)
			}
		}
	}
	if len(es[0].Exchange.Response.Chunks) < 10 || !strings.Contains(streamed.String(), "[REDACTED:openai-key]") {
		t.Fatalf("the stream was not recorded in chunks with its keys scrubbed: %q", streamed.String())
	}
	for name, k := range keys {
		if strings.Contains(streamed.String(), strings.TrimPrefix(k, "aws_secret_access_key=")) {
			t.Errorf("the %s key, split across SSE chunks, is in the recorded stream", name)
		}
	}
}
