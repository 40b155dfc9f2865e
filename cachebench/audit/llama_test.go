package audit

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fakeLlama answers /apply-template and /tokenize in llama-server's shapes
// (testdata/llamacpp/07-apply-template.json, 05-tokenize.json): a ChatML prompt, one token per
// character run between spaces.
func fakeLlama(t *testing.T) *httptest.Server {
	t.Helper()
	ids := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/apply-template":
			var req struct {
				Messages []json.RawMessage `json:"messages"`
			}
			json.Unmarshal(b, &req)
			var p strings.Builder
			for _, m := range req.Messages {
				var msg struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				}
				json.Unmarshal(m, &msg)
				var s string
				json.Unmarshal(msg.Content, &s)
				p.WriteString("<|im_start|>" + msg.Role + "\n" + s + "<|im_end|>\n")
			}
			json.NewEncoder(w).Encode(map[string]string{"prompt": p.String() + "<|im_start|>assistant\n"})
		case "/tokenize":
			var req struct {
				Content string `json:"content"`
			}
			json.Unmarshal(b, &req)
			out := []map[string]any{{"id": 1, "piece": "<s>"}}
			for _, f := range strings.Fields(req.Content) {
				if _, ok := ids[f]; !ok {
					ids[f] = 100 + len(ids)
				}
				out = append(out, map[string]any{"id": ids[f], "piece": " " + f})
			}
			json.NewEncoder(w).Encode(map[string]any{"tokens": out})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
