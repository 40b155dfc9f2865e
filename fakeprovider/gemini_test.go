package fakeprovider_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
)

// Hand-written Gemini requests, as Gemini CLI sends them: the router's JSON-schema classifier,
// a streamed turn that calls read_file by the default policy, and usage from the implicit cache.

func geminiPost(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, b := post(t, url, body)
	return resp, string(b)
}

func TestGeminiEndpoints(t *testing.T) {
	now := clock
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Models: []string{"gemini-2.5-pro", "gemini-2.5-flash"}, Now: func() time.Time { return now }})
	base := srv.URL + "/v1beta/models/"

	// The router: JSON out, as its schema says.
	router := `{"contents":[{"role":"user","parts":[{"text":"Read README.md"}]}],"generationConfig":{"responseMimeType":"application/json",
		"responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"model_choice":{"type":"string","enum":["flash","pro"]}},"required":["reasoning","model_choice"]}}}`
	resp, body := geminiPost(t, base+"gemini-2.5-flash:generateContent", router)
	var out struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string
					FunctionCall *struct {
						Name string
						Args map[string]string
					}
				}
			}
			FinishReason string
		}
		UsageMetadata struct{ PromptTokenCount, CachedContentTokenCount int }
	}
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &out) != nil {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var choice struct {
		Reasoning   *string `json:"reasoning"`
		ModelChoice string  `json:"model_choice"`
	}
	if err := json.Unmarshal([]byte(out.Candidates[0].Content.Parts[0].Text), &choice); err != nil || choice.ModelChoice != "flash" || choice.Reasoning == nil {
		t.Fatalf("router answer %q: %v", out.Candidates[0].Content.Parts[0].Text, err)
	}

	// A streamed turn: the default policy calls read_file.
	sys := strings.Repeat("You are Gemini CLI, an interactive agent. ", 400)
	turn := `{"contents":[{"role":"user","parts":[{"text":"Read README.md"}]}],"systemInstruction":{"parts":[{"text":"` + sys + `"}]},
		"tools":[{"functionDeclarations":[{"name":"read_file","parametersJsonSchema":{"type":"object","properties":{"file_path":{"type":"string"}}}}]}]}`
	stream := func() []string {
		resp, err := http.Post(base+"gemini-2.5-pro:streamGenerateContent?alt=sse", "application/json", strings.NewReader(turn))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			t.Fatalf("content type %q", ct)
		}
		var events []string
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(strings.TrimSuffix(sc.Text(), "\r"), "data: "); ok {
				events = append(events, d)
			}
		}
		return events
	}
	events := stream()
	if err := json.Unmarshal([]byte(events[len(events)-1]), &out); err != nil {
		t.Fatal(err)
	}
	fc := out.Candidates[0].Content.Parts[0].FunctionCall
	if fc == nil || fc.Name != "read_file" || fc.Args["file_path"] != "README.md" || out.Candidates[0].FinishReason != "STOP" {
		t.Fatalf("last event %s", events[len(events)-1])
	}
	if out.UsageMetadata.CachedContentTokenCount != 0 || out.UsageMetadata.PromptTokenCount < 2048 {
		t.Fatalf("first usage %+v", out.UsageMetadata)
	}
	now = now.Add(time.Minute)
	events = stream()
	json.Unmarshal([]byte(events[len(events)-1]), &out)
	if out.UsageMetadata.CachedContentTokenCount < 2048 {
		t.Fatalf("second usage %+v: the system prompt is cached", out.UsageMetadata)
	}

	// countTokens, models, and errors in Google's shape.
	if resp, body := geminiPost(t, base+"gemini-2.5-pro:countTokens", turn); resp.StatusCode != 200 || !strings.Contains(body, `"totalTokens":`) {
		t.Errorf("countTokens %d %s", resp.StatusCode, body)
	}
	if resp, body := geminiPost(t, base+"gemini-9:generateContent", router); resp.StatusCode != 404 || !strings.Contains(body, `"status":"NOT_FOUND"`) {
		t.Errorf("unknown model %d %s", resp.StatusCode, body)
	}
	if resp, body := geminiPost(t, base+"gemini-2.5-pro:generateContent", `{"contents":[]}`); resp.StatusCode != 400 || !strings.Contains(body, `"status":"INVALID_ARGUMENT"`) {
		t.Errorf("no contents %d %s", resp.StatusCode, body)
	}
	r, err := http.Get(srv.URL + "/v1beta/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !strings.Contains(string(b), `"name":"models/gemini-2.5-pro"`) {
		t.Errorf("models %s", b)
	}
}
