package replay

import "testing"

func TestAdjustSetsTheAnswersLengthInEachShape(t *testing.T) {
	a := Adjust{MaxTokens: 16, AskUsage: true}
	for _, c := range []struct{ path, in, want string }{
		{"/v1/chat/completions", `{"model":"m","messages":[]}`, `{"model":"m","messages":[],"max_tokens":16}`},
		{"/v1/chat/completions", `{"max_tokens": 4096, "messages":[]}`, `{"max_tokens": 16, "messages":[]}`},
		{"/v1/chat/completions", `{"max_completion_tokens":9,"messages":[]}`, `{"max_completion_tokens":16,"messages":[]}`},
		{"/v1/chat/completions", `{"messages":[],"stream":true}`, `{"messages":[],"stream":true,"max_tokens":16,"stream_options":{"include_usage":true}}`},
		{"/v1/chat/completions", `{"messages":[],"stream":true,"stream_options":{"include_usage":false}}`, `{"messages":[],"stream":true,"stream_options":{"include_usage":true},"max_tokens":16}`},
		{"", `{}`, `{"max_tokens":16}`},
		{"/v1/responses", `{"input":"hi","stream":true}`, `{"input":"hi","stream":true,"max_output_tokens":16}`},
		{"/v1/messages", `{"max_tokens":1024,"messages":[]}`, `{"max_tokens":16,"messages":[]}`},
		{"/v1beta/models/g:generateContent", `{"contents":[]}`, `{"contents":[],"generationConfig":{"maxOutputTokens":16}}`},
		{"/v1beta/models/g:generateContent", `{"contents":[],"generationConfig":{"temperature":0}}`, `{"contents":[],"generationConfig":{"temperature":0,"maxOutputTokens":16}}`},
	} {
		got, err := a.Apply(c.path, []byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("%s %s:\n got %s (%v)\nwant %s", c.path, c.in, got, err, c.want)
		}
	}
	if got, _ := (Adjust{}).Apply("/v1/chat/completions", []byte(`{"stream":true}`)); string(got) != `{"stream":true}` {
		t.Errorf("the zero Adjust changed %s", got)
	}
	if _, err := a.Apply("/v1/chat/completions", []byte(`[1]`)); err == nil {
		t.Error("a body that is not an object was adjusted")
	}
}
