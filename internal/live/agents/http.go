package agents

import (
	"encoding/json"
	"fmt"
	"strings"
)

// HTTP is how an agent served over HTTP is driven (docs/live.md, "Writing an HTTP profile"): a
// command that starts its server, which prints the http://HOST:PORT it listens on; the OpenAPI
// document every request's path is checked against at start; and the requests of a session as
// templates over the profile's placeholders ({session}, {prompt}, {mode}, {model}, {dir}, …),
// each with the JSON paths of what is read back.
type HTTP struct {
	Args []string `json:"args"`
	// Health is a path answered 200 once the server is ready ("": the printed URL is enough).
	Health string `json:"health,omitempty"`
	// OpenAPI is the path of the server's OpenAPI document: a request whose path and method it
	// does not list stops the run at start, naming both.
	OpenAPI string `json:"openapi,omitempty"`
	// Open makes a session (reading "session", its id); Prompt sends the person's words and ends
	// with the turn (reading "said"); Compact compacts; Close ends the session. Only Open and
	// Prompt are required.
	Open    *Request `json:"open"`
	Prompt  *Request `json:"prompt"`
	Compact *Request `json:"compact,omitempty"`
	Close   *Request `json:"close,omitempty"`
	// Modes are the values {mode} may take, the first the session's start; a mode step sets
	// {mode} for the requests after it (none: a mode step is skipped, saying so). Models, the
	// same for {model} (none: the fake's models).
	Modes []string `json:"modes,omitempty"`
}

// Request is one request template: its method, its path (with a query, if any) and its JSON
// body, each with the placeholders filled in (in the body as JSON strings); Read names what its
// answer gives, each a JSON path ($.id, $.parts[*].text: every match, joined).
type Request struct {
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Body   json.RawMessage   `json:"body,omitempty"`
	Read   map[string]string `json:"read,omitempty"`
}

// check says what is wrong with an http section, naming the field.
func (h *HTTP) check(file string) error {
	if h.Open == nil || h.Prompt == nil {
		return fmt.Errorf("%s: http: open and prompt are required", file)
	}
	if h.Open.Read["session"] == "" {
		return fmt.Errorf("%s: http.open.read.session: the JSON path of the session's id is required", file)
	}
	for name, r := range map[string]*Request{"open": h.Open, "prompt": h.Prompt, "compact": h.Compact,
		"close": h.Close} {
		if r == nil {
			continue
		}
		switch r.Method {
		case "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			return fmt.Errorf("%s: http.%s.method %q: want GET, POST, PUT, PATCH or DELETE", file, name, r.Method)
		}
		if !strings.HasPrefix(r.Path, "/") {
			return fmt.Errorf("%s: http.%s.path %q: want a path from the server's root (/…)", file, name, r.Path)
		}
		if len(r.Body) > 0 && !json.Valid(r.Body) {
			return fmt.Errorf("%s: http.%s.body: not JSON", file, name)
		}
		for k, p := range r.Read {
			if !strings.HasPrefix(p, "$") {
				return fmt.Errorf("%s: http.%s.read.%s %q: want a JSON path ($.…)", file, name, k, p)
			}
		}
	}
	return nil
}

// Requests are the section's requests by name, those given.
func (h *HTTP) Requests() map[string]*Request {
	out := map[string]*Request{}
	for name, r := range map[string]*Request{"open": h.Open, "prompt": h.Prompt, "compact": h.Compact,
		"close": h.Close} {
		if r != nil {
			out[name] = r
		}
	}
	return out
}

// FillRequest fills a request's path and body: the Vars' placeholders and extra's ({session},
// {mode}), each value escaped as a JSON string's content in the body and as a path segment's
// query-safe text in the path.
func (v Vars) FillRequest(r *Request, extra map[string]string, pathEscape func(string) string) (path string,
	body []byte) {
	jsonEsc := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	fill := func(s string, esc func(string) string) string {
		s = v.replacer(esc).Replace(s)
		for k, val := range extra {
			s = strings.ReplaceAll(s, "{"+k+"}", esc(val))
		}
		return s
	}
	path = fill(r.Path, pathEscape)
	if len(r.Body) > 0 {
		body = []byte(fill(string(r.Body), jsonEsc))
	}
	return path, body
}
