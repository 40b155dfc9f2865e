package tokens

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// Server tokenizes with a llama.cpp server's own template and vocabulary: `POST /apply-template`
// renders the request's messages and tools into the prompt text the model reads, `POST /tokenize`
// turns it into the model's tokens. The prompt is one piece (its sum is the text's), so comparing
// two prompts is a token-by-token comparison; each request costs two round trips.
type Server struct {
	URL    string
	Client *http.Client
}

// NewServer makes a server tokenizer for a base URL (http://127.0.0.1:8080).
func NewServer(url string) *Server {
	return &Server{URL: strings.TrimRight(strings.TrimSuffix(strings.TrimRight(url, "/"), "/v1"), "/"),
		Client: &http.Client{Timeout: 2 * time.Minute}}
}

// Name implements Tokenizer.
func (s *Server) Name() string { return "llama.cpp server " + s.URL }

// Prompt implements Tokenizer.
func (s *Server) Prompt(ctx context.Context, body []byte, r *chat.Request) (Prompt, error) {
	req := body
	if r.API != chat.ChatCompletions {
		req = asChat(r)
	}
	var tmpl struct {
		Prompt *string `json:"prompt"`
	}
	if err := s.post(ctx, "/apply-template", req, &tmpl); err != nil {
		return Prompt{}, err
	}
	if tmpl.Prompt == nil {
		return Prompt{}, fmt.Errorf("%s/apply-template answered without \"prompt\": is it a llama.cpp server?", s.URL)
	}
	q, _ := json.Marshal(map[string]any{"content": *tmpl.Prompt, "add_special": true, "parse_special": true})
	var tok struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	if err := s.post(ctx, "/tokenize", q, &tok); err != nil {
		return Prompt{}, err
	}
	ids, err := tokenIDs(tok.Tokens)
	if err != nil {
		return Prompt{}, fmt.Errorf("%s/tokenize: %v", s.URL, err)
	}
	return Prompt{Pieces: []Piece{{Sum: sha256.Sum256([]byte(*tmpl.Prompt)), Tokens: ids}}, N: len(ids)}, nil
}

// tokenIDs reads /tokenize's tokens: plain ids, or {"id", "piece"} objects (with_pieces).
func tokenIDs(raw []json.RawMessage) ([]uint32, error) {
	out := make([]uint32, len(raw))
	for i, t := range raw {
		var id int64
		if err := json.Unmarshal(t, &id); err != nil {
			var p struct {
				ID *int64 `json:"id"`
			}
			if json.Unmarshal(t, &p) != nil || p.ID == nil {
				return nil, fmt.Errorf("token %d is neither an id nor {\"id\", \"piece\"}: %.60s", i, t)
			}
			id = *p.ID
		}
		if id < 0 || id > 1<<32-1 {
			return nil, fmt.Errorf("token %d: id %d out of range", i, id)
		}
		out[i] = uint32(id)
	}
	return out, nil
}

// asChat rewrites a Responses or Anthropic request as chat messages for /apply-template: the
// system prompt as a system message, then the messages as they are.
func asChat(r *chat.Request) []byte {
	var b bytes.Buffer
	b.WriteString(`{"messages":[`)
	n := 0
	add := func(raw []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(raw)
		n++
	}
	for _, p := range r.System {
		if p.Index < 0 {
			sys, _ := json.Marshal(map[string]any{"role": "system", "content": json.RawMessage(p.Raw)})
			add(sys)
		} else {
			add(p.Raw)
		}
	}
	for _, p := range r.Messages {
		if p.Index < 0 { // a Responses input given as one string
			m, _ := json.Marshal(map[string]any{"role": "user", "content": json.RawMessage(p.Raw)})
			add(m)
		} else {
			add(p.Raw)
		}
	}
	b.WriteString(`]`)
	if len(r.Tools) > 0 {
		b.WriteString(`,"tools":[`)
		for i, t := range r.Tools {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(t.Raw)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes()
}

func (s *Server) post(ctx context.Context, path string, body []byte, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("--tokenizer %s: %v", s.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.Client.Do(req)
	if err != nil {
		return fmt.Errorf("--tokenizer: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 512<<20))
	if err != nil {
		return fmt.Errorf("%s%s: reading the answer: %v", s.URL, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s%s answered %s: %.200s (--tokenizer needs a llama.cpp server: /apply-template and "+
			"/tokenize)", s.URL, path, resp.Status, bytes.TrimSpace(b))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s%s: the answer is not JSON: %v: %.120s", s.URL, path, err, b)
	}
	return nil
}

// New is the tokenizer --tokenizer names: tiktoken (offline) for "" or "tiktoken", else the
// llama.cpp server at url.
func New(url string) (Tokenizer, error) {
	if url == "" || url == "tiktoken" {
		return NewTiktoken()
	}
	return NewServer(url), nil
}
