// Package tokenstest is a stand-in for a llama.cpp server's tokenizer endpoints, for the tests of
// what counts tokens with one (tokens.Server, the audit and the bench with --tokenizer), as
// net/http/httptest is for HTTP.
package tokenstest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// LlamaServer starts a server answering /apply-template and /tokenize in the shapes of
// testdata/llamacpp's 07-apply-template.json and 05-tokenize.json: a ChatML prompt, and one token
// per word with its piece (id from the word, 1 for <s> first when add_special is set). A request
// with no messages is refused (400). The test's cleanup closes it.
func LlamaServer(t testing.TB) *httptest.Server {
	t.Helper()
	ids := map[string]int{}
	var mu sync.Mutex // requests come on several connections at once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/apply-template":
			var req struct {
				Messages []struct {
					Role    string `json:"role"`
					Content string `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(b, &req); err != nil || len(req.Messages) == 0 {
				http.Error(w, `{"error":{"message":"no messages"}}`, 400)
				return
			}
			var p strings.Builder
			for _, m := range req.Messages {
				p.WriteString("<|im_start|>" + m.Role + "\n" + m.Content + "<|im_end|>\n")
			}
			p.WriteString("<|im_start|>assistant\n")
			json.NewEncoder(w).Encode(map[string]string{"prompt": p.String()})
		case "/tokenize":
			var req struct {
				Content    string `json:"content"`
				AddSpecial bool   `json:"add_special"`
			}
			json.Unmarshal(b, &req)
			type tok struct {
				ID    int    `json:"id"`
				Piece string `json:"piece"`
			}
			out := []tok{}
			mu.Lock()
			defer mu.Unlock()
			if req.AddSpecial {
				out = append(out, tok{1, "<s>"})
			}
			for _, f := range strings.Fields(req.Content) {
				if _, ok := ids[f]; !ok {
					ids[f] = 100 + len(ids)
				}
				out = append(out, tok{ids[f], " " + f})
			}
			json.NewEncoder(w).Encode(map[string]any{"tokens": out})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
