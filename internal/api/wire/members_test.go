package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// object's fast path keeps exactly the members encoding/json's map keeps, and leaves to it every
// body it would refuse, so that the error is its own.
func TestMembersIsDecodeObject(t *testing.T) {
	for _, body := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		` {"a":null, "b": [1, {"c": "\"}"}], "a": 2 } `,
		`{"k\u00e9y":"v","\u0041":true,"":{}}`,
		"{\"bad\xff\":1}",
		"{\"ctl\":\"a\x01b\"}",
		`{"a":1}{"b":2}`, `[1]`, `null`, ``, ` `, `{"a":}`, `{"a":1,}`,
	} {
		want, wantErr := decodeObject([]byte(body))
		got, gotErr := object([]byte(body))
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
			t.Errorf("%q: object %v %v, encoding/json %v %v", body, got, gotErr, want, wantErr)
		}
		if m, _, ok := members([]byte(body)); ok && wantErr != nil {
			t.Errorf("%q: the fast path took a body encoding/json refuses (%v): %v", body, wantErr, m)
		}
	}
}

// scanMessages decodes what encoding/json decodes, and leaves it what it would refuse or name.
func TestScanMessagesIsUnmarshal(t *testing.T) {
	for _, arr := range []string{
		`[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"1"}]}]`,
		`[{"ROLE":"user","Content":[{"type":"text","text":"x"}],"role":"tool","function_call":{}}]`,
		`[{"role":"user","role":null},{"rolе":"cyrillic e"},{}]`,
		`[{"role":"\u0075ser"}]`, "[{\"role\":\"bad\xff\"}]", `[{"role":1}]`, `[null]`, `[1]`, `null`, `[]`,
	} {
		var want []chatMessage
		wantErr := json.Unmarshal([]byte(arr), &want)
		got, ok := scanMessages([]byte(arr))
		if !ok {
			continue
		}
		if wantErr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: scanned %+v, encoding/json %+v (%v)", arr, got, want, wantErr)
		}
	}
}
