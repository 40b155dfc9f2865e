package refagent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// message is one message of a chat completions conversation, as the agent sends it. Once sent
// it is never changed: every later request sends the same bytes (context.md, "Nothing already
// sent to the model is ever rewritten").
type message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type toolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func text(role, s string) message { return message{Role: role, Content: &s} }

// model is an OpenAI-compatible chat completions endpoint.
type model struct {
	base, key string
	http      *http.Client
}

// reply is the model's answer: its text and the calls it makes.
type reply struct {
	Text  string
	Calls []toolCall
	// Message is the assistant message as the conversation keeps it.
	Message message
}

// complete sends one request and reads the first choice.
func (m *model) complete(ctx context.Context, body []byte) (reply, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(m.base, "/")+"/chat/completions",
		bytes.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if m.key != "" {
		req.Header.Set("Authorization", "Bearer "+m.key)
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("the model at %s: %v", m.base, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return reply{}, fmt.Errorf("the model at %s: reading its answer: %v", m.base, err)
	}
	if resp.StatusCode != http.StatusOK {
		return reply{}, fmt.Errorf("the model at %s answered %s: %.500s", m.base, resp.Status, b)
	}
	var r struct {
		Choices []struct {
			Message struct {
				Content   *string    `json:"content"`
				ToolCalls []toolCall `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Choices) == 0 {
		return reply{}, fmt.Errorf("the model at %s answered what is not a chat completion: %.300s", m.base, b)
	}
	c := r.Choices[0].Message
	out := reply{Calls: c.ToolCalls, Message: message{Role: "assistant", Content: c.Content, ToolCalls: c.ToolCalls}}
	if c.Content != nil {
		out.Text = *c.Content
	}
	for i := range out.Message.ToolCalls {
		if out.Message.ToolCalls[i].Type == "" {
			out.Message.ToolCalls[i].Type = "function"
		}
	}
	return out, nil
}
