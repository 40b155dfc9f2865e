package tokens

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens/tokenstest"
)

func TestServerTokenizer(t *testing.T) {
	srv := tokenstest.LlamaServer(t)
	s := NewServer(srv.URL + "/v1/")
	ctx := context.Background()
	prompt := func(body string) Prompt {
		r, err := chat.Parse([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Prompt(ctx, []byte(body), r)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := prompt(`{"messages":[{"role":"system","content":"keep the prefix"},{"role":"user","content":"hello world"}]}`)
	b := prompt(`{"messages":[{"role":"system","content":"keep the prefix"},{"role":"user","content":"hello world"},{"role":"assistant","content":"hi"},{"role":"user","content":"more"}]}`)
	c := prompt(`{"instructions":"keep the prefix","input":"hello world"}`) // Responses, rewritten as chat
	if a.N != 9 || a.Pieces[0].Tokens[0] != 1 {
		t.Errorf("prompt a: %d tokens %v", a.N, a.Pieces[0].Tokens)
	}
	// b's history begins with a's whole prompt: the assistant turn a prompted for follows.
	if got := LCP(a, b); got != a.N || b.N <= a.N {
		t.Errorf("LCP %d of %d and %d", got, a.N, b.N)
	}
	if LCP(a, c) != a.N {
		t.Errorf("the Responses request should render as the same chat: %v vs %v", a.Pieces[0].Tokens, c.Pieces[0].Tokens)
	}
	if !strings.Contains(s.Name(), srv.URL) {
		t.Errorf("name %q", s.Name())
	}
}

func TestServerTokenizerErrors(t *testing.T) {
	srv := tokenstest.LlamaServer(t)
	r, _ := chat.Parse([]byte(`{"messages":[]}`))
	_, err := NewServer(srv.URL).Prompt(context.Background(), []byte(`{"messages":[]}`), r)
	if err == nil || !strings.Contains(err.Error(), "/apply-template answered 400") || !strings.Contains(err.Error(), "llama.cpp server") {
		t.Errorf("refused: %v", err)
	}
	_, err = NewServer("http://127.0.0.1:1").Prompt(context.Background(), []byte(`{"messages":[]}`), r)
	if err == nil || !strings.Contains(err.Error(), "--tokenizer") {
		t.Errorf("unreachable: %v", err)
	}
}

// The fixtures' shapes: /tokenize with pieces, and /apply-template's prompt.
func TestFixtureShapes(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/llamacpp/05-tokenize.json")
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	json.Unmarshal(b, &tok)
	ids, err := tokenIDs(tok.Tokens)
	if err != nil || len(ids) != 7 || ids[0] != 1 || ids[6] != 10944 {
		t.Errorf("05-tokenize.json: %v %v", ids, err)
	}
	plain, err := tokenIDs([]json.RawMessage{json.RawMessage("1"), json.RawMessage("22172")})
	if err != nil || plain[1] != 22172 {
		t.Errorf("plain ids: %v %v", plain, err)
	}
	b, _ = os.ReadFile("../../../testdata/llamacpp/07-apply-template.json")
	var tmpl struct {
		Prompt *string `json:"prompt"`
	}
	if json.Unmarshal(b, &tmpl) != nil || tmpl.Prompt == nil || !strings.HasPrefix(*tmpl.Prompt, "<|im_start|>system\n") {
		t.Errorf("07-apply-template.json: %v", tmpl.Prompt)
	}
}

// FuzzTokenIDs: /tokenize's answer is a server's bytes; reading it never panics and ids stay ids.
func FuzzTokenIDs(f *testing.F) {
	f.Add([]byte(`{"tokens":[{"id":1,"piece":"<s>"},22172]}`))
	f.Add([]byte(`{"tokens":[-1, 1e99, {"id":null}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tok struct {
			Tokens []json.RawMessage `json:"tokens"`
		}
		if json.Unmarshal(b, &tok) != nil {
			return
		}
		ids, err := tokenIDs(tok.Tokens)
		if err == nil && len(ids) != len(tok.Tokens) {
			t.Fatalf("%d ids for %d tokens", len(ids), len(tok.Tokens))
		}
	})
}

// FuzzText: rendering any part never panics, and a part renders the same every time.
func FuzzText(f *testing.F) {
	f.Add([]byte(`{"role":"assistant","content":null,"tool_calls":[{"function":{"name":"a","arguments":"{}"}}]}`), uint8(3))
	f.Add([]byte(`[{"type":"tool_use","name":"g","input":{"a":1}},{"type":"image"}]`), uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, kind uint8) {
		p := chat.Part{Kind: chat.Kind(kind%3 + 1), Raw: raw, Index: int(kind%2) - 1}
		if first, again := Text(p), Text(p); first != again {
			t.Fatal("rendering is not deterministic")
		}
	})
}

// --tokenizer's default is tiktoken, offline, as is the word tiktoken (bench's --tokenizer took
// it and audit's and export's read it as a server's URL); a URL is a llama.cpp server's.
func TestNew(t *testing.T) {
	for _, name := range []string{"", "tiktoken"} {
		tk, err := New(name)
		if err != nil || !strings.HasPrefix(tk.Name(), "tiktoken ") {
			t.Fatalf("%q: %v, %v", name, tk, err)
		}
	}
	if s, err := New("http://127.0.0.1:1"); err != nil || s.(*Server) == nil {
		t.Errorf("%v, %v", s, err)
	}
}
