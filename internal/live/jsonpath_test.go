package live

import "testing"

func TestJSONPath(t *testing.T) {
	doc := []byte(`{"id":"ses_1","info":{"id":"msg_2"},"parts":[{"type":"step-start"},{"type":"text","text":"do"},{"type":"text","text":"ne"}],"n":[1,2]}`)
	for path, want := range map[string]string{
		"$.id": "ses_1", "$.info.id": "msg_2", "$.parts[*].text": "done", "$.parts[1].text": "do", "$.n[1]": "2", "$.n[-1]": "2", "$.parts[-3].type": "step-start", "$.n[-3]": "", "$.missing": "",
	} {
		got, err := JSONPath(doc, path)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", path, got, err, want)
		}
	}
	for _, bad := range []string{"id", "$.parts[x]", "$.parts[0", "$..id"} {
		if _, err := JSONPath(doc, bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
