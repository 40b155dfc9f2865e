// Package replay owns the recording format of lembas-check (versioned JSON lines): the fake
// provider and the recording proxy write it, audit, bench and replay read it. It also reads plain
// request logs (one chat-completions request body per line), telling the two apart by content.
//
// A recording is a header line, then blob and exchange lines in the order they were written. A
// system prompt or a tool list that repeats across requests is stored once, as a blob named by its
// SHA-256, and a request refers to it; every other byte of the request is kept as received.
// docs/recording.md is the format's reference.
package replay

import (
	"encoding/json"
	"time"

	"github.com/LLeMbas/lembas-check/internal/replay/redact"
)

// Format and Version name the format in a recording's header line. Version grows when a reader
// of the previous version could no longer read a recording; readers refuse a newer version.
const (
	Format  = "lembas-check-recording"
	Version = 1
)

// Line types.
const (
	TypeHeader   = "header"
	TypeBlob     = "blob"
	TypeExchange = "exchange"
)

// Header is a recording's first line.
type Header struct {
	Type    string    `json:"type"`
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Tool is the program that wrote it, with its version.
	Tool string `json:"tool"`
	// Source is "fake" (the fake provider answered), "proxy" (a real server answered through the
	// recording proxy), "cassette" (a recording's answers were played, Cassette) or "import".
	Source   string `json:"source"`
	Upstream string `json:"upstream,omitempty"`
	Script   string `json:"script,omitempty"`
	// Cassette is the recording the answers were played from, when Source is "cassette".
	Cassette string `json:"cassette,omitempty"`
	// Command is the program under test, when `lembas-check record` ran one.
	Command []string `json:"command,omitempty"`
	// Redact names what is scrubbed from every exchange (docs/recording.md): the key shapes,
	// credential fields and a rules file's patterns and paths. Each exchange counts its own.
	Redact []string `json:"redact,omitempty"`
	// Rules are the rules the Writer scrubs by; nil: the built-in ones.
	Rules *redact.Rules `json:"-"`
}

// Blob is a content-addressed piece of request: a system message or a tool list, stored once.
type Blob struct {
	Type string `json:"type"`
	// SHA256 is the hex SHA-256 of Data's exact bytes.
	SHA256 string `json:"sha256"`
	// Kind is "system" (a system or developer message, the whole message object) or "tools"
	// (the request's tools array).
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Exchange is one request and the response it got.
type Exchange struct {
	Type string `json:"type"`
	// Seq numbers exchanges from 1 in the order they began.
	Seq     int       `json:"seq"`
	Started time.Time `json:"started"`
	Method  string    `json:"method"`
	Path    string    `json:"path"`
	Request Request   `json:"request"`
	// Response is what was sent back; absent when the client went away before any byte.
	Response *Response `json:"response,omitempty"`
	Timing   Timing    `json:"timing"`
	// Error says what went wrong on lembas-check's side (a script that ran out, an upstream that
	// could not be reached, a client that hung up mid-stream).
	Error string `json:"error,omitempty"`
	// Note says what the fake changed in a scripted answer to keep to the request (a call left
	// out for tool_choice none, a call made for tool_choice required).
	Note string `json:"note,omitempty"`
	// Transport is "websocket" for a turn of the Responses API's WebSocket mode (its request
	// is the response.create message, its response the messages sent back); "" is HTTP.
	Transport string `json:"transport,omitempty"`
	// Conn numbers the WebSocket connection a turn came over, from 1 (0 for HTTP).
	Conn int `json:"conn,omitempty"`
	// Scrubbed counts the secrets replaced by a marker in this exchange, by kind; never values.
	Scrubbed redact.Counts `json:"scrubbed,omitempty"`
}

// Request is a request as received.
type Request struct {
	// Headers are the request's headers without credentials (see Redacted).
	Headers map[string][]string `json:"headers,omitempty"`
	// Redacted names the headers left out because they carry credentials.
	Redacted []string `json:"redacted,omitempty"`
	// Body is the request body as JSON, with each blob's value replaced by {"$blob": "<sha256>"}.
	// Absent when the body was not JSON (then BodyRaw holds it).
	Body json.RawMessage `json:"body,omitempty"`
	// BodySHA256 and BodyBytes identify the exact bytes received.
	BodySHA256 string `json:"body_sha256"`
	BodyBytes  int    `json:"body_bytes"`
	// BodyRaw holds the exact bytes when Body with its blobs put back would not give them (a body
	// that is not compact JSON, or not JSON at all).
	BodyRaw *string `json:"body_raw,omitempty"`
}

// Response is what was sent back.
type Response struct {
	Status  int                 `json:"status"`
	Headers map[string][]string `json:"headers,omitempty"`
	// Stream is true for a server-sent-events response, whose bytes are Chunks; with
	// WebSocket, each chunk is one WebSocket message (a JSON event), not SSE bytes.
	Stream    bool `json:"stream,omitempty"`
	WebSocket bool `json:"websocket,omitempty"`
	// Body is a non-streamed JSON body; BodyText one that is not JSON.
	Body     json.RawMessage `json:"body,omitempty"`
	BodyText *string         `json:"body_text,omitempty"`
	Chunks   []Chunk         `json:"chunks,omitempty"`
}

// Chunk is one write of a streamed response: its bytes, and when it was written.
type Chunk struct {
	// MS is the offset from the start of the exchange, in milliseconds.
	MS   float64 `json:"ms"`
	Data string  `json:"data"`
}

// Timing is an exchange's times, in milliseconds from its start.
type Timing struct {
	// FirstByteMS is when the first byte of the response was written (time to first token for a
	// stream); TotalMS when the last was.
	FirstByteMS float64 `json:"first_byte_ms"`
	TotalMS     float64 `json:"total_ms"`
}
