package fakeprovider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3/responses"
)

// Strict decoding: every field the official SDKs' types tag api:"required" is present (null
// counts as present) in each object the fake sends, in the body and in every stream event. The
// SDKs themselves decode leniently, so a missing field shows only in a field's metadata.

// missingRequired lists the JSON paths of the required fields absent from v, an SDK type decoded
// from JSON, recursing into the fields that were sent.
func missingRequired(v any) []string {
	var out []string
	walkRequired(reflect.ValueOf(v), "$", &out)
	return out
}

func walkRequired(v reflect.Value, path string, out *[]string) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkRequired(v.Index(i), path+"["+itoa(i)+"]", out)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	meta := v.FieldByName("JSON")
	if !meta.IsValid() || meta.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		m := meta.FieldByName(f.Name)
		if !m.IsValid() {
			continue
		}
		raw := m.MethodByName("Raw").Call(nil)[0].String()
		switch {
		case raw == "" && f.Tag.Get("api") == "required":
			*out = append(*out, path+"."+name)
		case raw != "" && raw != "null":
			walkRequired(v.Field(i), path+"."+name, out)
		}
	}
}

func itoa(i int) string { return jsonInt(i) }

func jsonInt(i int) string { b, _ := json.Marshal(i); return string(b) }

// decodeStrict decodes b into a T and fails the test on a required field missing.
func decodeStrict[T any](t *testing.T, what string, b []byte) {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, b)
	}
	if miss := missingRequired(&v); len(miss) > 0 {
		t.Errorf("%s: required fields missing: %s\n%s", what, strings.Join(miss, ", "), b)
	}
}

// sseData is each data: line of an event stream.
func sseData(t *testing.T, r io.Reader) [][]byte {
	t.Helper()
	var out [][]byte
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && d != "[DONE]" {
			out = append(out, []byte(d))
		}
	}
	return out
}

func strictServer(t *testing.T, yaml string) *fakeprovider.Server {
	t.Helper()
	s, err := script.Parse("s.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return fakeprovidertest.NewWith(t, fakeprovider.Config{Script: s, Now: func() time.Time { return clock }})
}

func strictPost(t *testing.T, url, body string, header ...string) (*http.Response, []byte, [][]byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s: %s\n%s", url, resp.Status, b)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, nil, sseData(t, resp.Body)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b, nil
}

const strictScript = `
replies:
  - {reasoning: "Think.", text: "Reading it.", read: README.md, chunk: 4}
  - {reasoning: "Think.", text: "Reading it.", read: README.md, chunk: 4}
`

func TestResponsesStrictDecoding(t *testing.T) {
	srv := strictServer(t, strictScript)
	req := `{"model":"fake-model","input":"hi","tools":[{"type":"function","name":"read_file","parameters":{"type":"object","properties":{"file_path":{"type":"string"}}}}]}`
	_, body, _ := strictPost(t, srv.URL+"/v1/responses", req)
	decodeStrict[responses.Response](t, "the response", body)
	_, _, events := strictPost(t, srv.URL+"/v1/responses", req[:len(req)-1]+`,"stream":true}`)
	if len(events) == 0 {
		t.Fatal("no events")
	}
	for i, ev := range events {
		var e struct {
			Type     string          `json:"type"`
			Response json.RawMessage `json:"response"`
		}
		if err := json.Unmarshal(ev, &e); err != nil {
			t.Fatal(err)
		}
		if e.Response != nil {
			decodeStrict[responses.Response](t, "event "+jsonInt(i)+" "+e.Type, e.Response)
		}
	}
}

func TestMessagesStrictDecoding(t *testing.T) {
	srv := strictServer(t, strictScript)
	req := `{"model":"fake-model","max_tokens":100,"messages":[{"role":"user","content":"hi"}],` +
		`"tools":[{"name":"Read","input_schema":{"type":"object","properties":{"file_path":{"type":"string"}}}}]}`
	_, body, _ := strictPost(t, srv.URL+"/v1/messages", req)
	decodeStrict[anthropic.Message](t, "the message", body)
	_, _, events := strictPost(t, srv.URL+"/v1/messages", req[:len(req)-1]+`,"stream":true}`)
	for _, ev := range events {
		var e struct {
			Type    string          `json:"type"`
			Message json.RawMessage `json:"message"`
			Usage   json.RawMessage `json:"usage"`
		}
		if err := json.Unmarshal(ev, &e); err != nil {
			t.Fatal(err)
		}
		switch e.Type {
		case "message_start":
			decodeStrict[anthropic.Message](t, "message_start", e.Message)
		case "message_delta":
			decodeStrict[anthropic.MessageDeltaUsage](t, "message_delta usage", e.Usage)
		}
	}
}

func TestAnthropicModelsStrictDecoding(t *testing.T) {
	srv := strictServer(t, strictScript)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/models", nil)
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page struct {
		Data []json.RawMessage `json:"data"`
	}
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &page); err != nil || len(page.Data) == 0 {
		t.Fatalf("%v: %s", err, b)
	}
	for _, m := range page.Data {
		decodeStrict[anthropic.ModelInfo](t, "model", m)
	}
}
