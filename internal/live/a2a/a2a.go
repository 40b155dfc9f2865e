// Package a2a is the Agent2Agent protocol as lembas-check speaks it, both ends: the shapes of
// its agent card, messages, tasks and events (A2A 0.3, JSON-RPC binding), and a client that
// holds one conversation — message/send or message/stream (SSE), the task's id as the session's
// identity and its contextId carrying the conversation on. The live driver and the live target
// drive an A2A server with it; the reference agent (`lembas-check agent --http`) serves the same
// shapes.
package a2a

import "encoding/json"

// CardPath is where an A2A server serves its agent card.
const CardPath = "/.well-known/agent-card.json"

// The JSON-RPC methods of a conversation.
const (
	MethodSend   = "message/send"
	MethodStream = "message/stream"
	MethodGet    = "tasks/get"
	MethodCancel = "tasks/cancel"
)

// Card is an agent card: who the agent is, where its JSON-RPC endpoint is, whether it streams.
type Card struct {
	Name               string       `json:"name"`
	Description        string       `json:"description"`
	URL                string       `json:"url"`
	Version            string       `json:"version"`
	ProtocolVersion    string       `json:"protocolVersion,omitempty"`
	PreferredTransport string       `json:"preferredTransport,omitempty"`
	Capabilities       Capabilities `json:"capabilities"`
	DefaultInputModes  []string     `json:"defaultInputModes"`
	DefaultOutputModes []string     `json:"defaultOutputModes"`
	Skills             []Skill      `json:"skills"`
}

// Capabilities are what the agent can do beyond message/send.
type Capabilities struct {
	Streaming  bool        `json:"streaming"`
	Extensions []Extension `json:"extensions,omitempty"`
}

// Extension is an A2A extension the agent offers: ExtLembas for the LLeMbas methods.
type Extension struct {
	URI         string `json:"uri"`
	Description string `json:"description,omitempty"`
}

// Skill is one thing the card says the agent does.
type Skill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

// ExtLembas is the extension that says the server takes the LLeMbas methods of acp.md on its
// JSON-RPC endpoint (_lembas/configure with a mode or a model, _lembas/session/compact), their
// sessionId the conversation's contextId: what ACP's session/set_mode and the extensions carry,
// which A2A's messages cannot.
const ExtLembas = "https://github.com/LLeMbas/lembas-check/a2a/lembas"

// Part is one part of a message or an artifact; only text parts carry words the client reads.
type Part struct {
	Kind string `json:"kind"`
	Text string `json:"text,omitempty"`
}

// Message is one message of a conversation.
type Message struct {
	Kind      string         `json:"kind"`
	MessageID string         `json:"messageId"`
	Role      string         `json:"role"`
	Parts     []Part         `json:"parts"`
	ContextID string         `json:"contextId,omitempty"`
	TaskID    string         `json:"taskId,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// Status is a task's state and the message that came with it.
type Status struct {
	State     string   `json:"state"`
	Message   *Message `json:"message,omitempty"`
	Timestamp string   `json:"timestamp,omitempty"`
}

// Artifact is what a task made: its text parts are the agent's answer.
type Artifact struct {
	ArtifactID string `json:"artifactId"`
	Name       string `json:"name,omitempty"`
	Parts      []Part `json:"parts"`
}

// Task is a unit of work; its id is the session's identity while it lasts.
type Task struct {
	Kind      string     `json:"kind"`
	ID        string     `json:"id"`
	ContextID string     `json:"contextId"`
	Status    Status     `json:"status"`
	Artifacts []Artifact `json:"artifacts,omitempty"`
	History   []Message  `json:"history,omitempty"`
}

// Event is one result of message/stream (or message/send): a task, a message, a status update
// or an artifact update, told by Kind.
type Event struct {
	Kind      string    `json:"kind"`
	ID        string    `json:"id,omitempty"`
	TaskID    string    `json:"taskId,omitempty"`
	ContextID string    `json:"contextId,omitempty"`
	Status    *Status   `json:"status,omitempty"`
	Final     bool      `json:"final,omitempty"`
	Artifact  *Artifact `json:"artifact,omitempty"`
	Append    bool      `json:"append,omitempty"`
	// A task's artifacts; a message's role and parts.
	Artifacts []Artifact `json:"artifacts,omitempty"`
	Role      string     `json:"role,omitempty"`
	Parts     []Part     `json:"parts,omitempty"`
}

// SendParams are message/send's and message/stream's params.
type SendParams struct {
	Message  Message        `json:"message"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Request and Response are JSON-RPC 2.0's.
type Request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Error is a JSON-RPC error.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Ended says whether a task in state has ended its turn: done, or waiting for the person.
func Ended(state string) bool {
	switch state {
	case "completed", "failed", "canceled", "rejected", "input-required", "auth-required":
		return true
	}
	return false
}

// Terminal says whether a task in state is over: a later message starts another task in the
// same context rather than carrying this one on.
func Terminal(state string) bool {
	switch state {
	case "completed", "failed", "canceled", "rejected":
		return true
	}
	return false
}

// Text is the text of parts, joined.
func Text(parts []Part) string {
	var s string
	for _, p := range parts {
		if p.Kind == "text" {
			s += p.Text
		}
	}
	return s
}
