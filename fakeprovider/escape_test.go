package fakeprovider_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
)

// The API sends <, & and > as they are; encoding/json's default would send \u003c, \u0026 and
// \u003e, which a client decodes the same but which are not the API's bytes (issue 17).
func TestNoHTMLEscaping(t *testing.T) {
	s, err := script.Parse("esc.yaml", []byte(`
replies:
  - tool_calls: [{name: bash, arguments: {command: "a < b && c > d", "<k>": "&"}}]
  - text: "x < y & z > w"
  - read: "<dir>/a&b.md"
  - tool_calls: [{name: bash, arguments: {command: "a < b && c > d"}}]
`))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovidertest.New(t, s)
	tools := `"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]`
	for i, want := range []string{`{\"command\":\"a < b && c > d\",\"<k>\":\"&\"}`, `x < y & z > w`, `{\"path\":\"<dir>/a&b.md\"}`} {
		_, b := post(t, srv.BaseURL()+"/chat/completions", `{"model":"fake-model","messages":[{"role":"user","content":"hi"}],`+tools+`}`)
		if !bytes.Contains(b, []byte(want)) || bytes.Contains(b, []byte(`\u003c`)) || bytes.Contains(b, []byte(`\u0026`)) {
			t.Errorf("reply %d: want %s unescaped in\n%s", i+1, want, b)
		}
	}
	// Streamed through the Responses API: every event's bytes.
	_, b := post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","stream":true,"input":"hi"}`)
	if !strings.Contains(string(b), `a < b && c > d`) || bytes.Contains(b, []byte(`\u003c`)) || bytes.Contains(b, []byte(`\u003e`)) {
		t.Errorf("stream escapes <, & or >:\n%s", b)
	}
	// The personalization text the client stored comes back as stored.
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/v1/me/personalization", strings.NewReader(`{"instructions":"use <b> & <i>"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	got.ReadFrom(resp.Body)
	resp.Body.Close()
	if !strings.Contains(got.String(), `"use <b> & <i>"`) {
		t.Errorf("personalization: %s", got.String())
	}
}
