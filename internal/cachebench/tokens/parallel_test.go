package tokens

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A request whose new parts are encoded on several cores gets the tokens each part gets alone,
// in order; a part twice in it is encoded once; blocks keep their frame.
func TestOfOnCoresIsOfOnePartAtATime(t *testing.T) {
	var msgs []string
	for i := range 40 {
		text := strings.Repeat(fmt.Sprintf("word%d and some text, ", i), 60)
		msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":%q}`, text))
	}
	msgs = append(msgs, msgs[3]) // the same part again
	msgs = append(msgs, `{"role":"user","content":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}`)
	r := parse(t, `{"model":"m","messages":[`+strings.Join(msgs, ",")+`]}`)
	tk := mustTok(t)
	got := tk.Of(r)
	var want Prompt
	one := mustTok(t)
	for _, part := range r.Parts() {
		if len(part.Blocks) == 0 {
			want.Pieces = append(want.Pieces, Piece{SumOf(part), one.Encode(part)})
			continue
		}
		for i := range part.Blocks {
			want.Pieces = append(want.Pieces, Piece{blockSum(part, i), one.encodeBlock(part, i)})
		}
	}
	for _, pc := range want.Pieces {
		want.N += len(pc.Tokens)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the prompt differs from its parts tokenized one at a time")
	}
	if n := int64(want.N - len(want.Pieces[3].Tokens)); tk.Encoded() != n {
		t.Errorf("encoded %d tokens, want %d (the repeated part once)", tk.Encoded(), n)
	}
	if again := tk.Of(r); !reflect.DeepEqual(again, want) || tk.Encoded() != int64(want.N-len(want.Pieces[3].Tokens)) {
		t.Errorf("a second time: not all from the cache")
	}
}
