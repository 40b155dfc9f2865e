package agents

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
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
	// Events and Poll read a turn that the prompt request does not wait for: its answer and its
	// end from the server's event stream (SSE), or from a request repeated until the turn has
	// ended. At most one of them; neither: the prompt request's answer is the turn's.
	Events *Events `json:"events,omitempty"`
	Poll   *Poll   `json:"poll,omitempty"`
	// Modes are the values {mode} may take, the first the session's start; a mode step sets
	// {mode} for the requests after it (none: a mode step is skipped, saying so). Models are the
	// values {model} may take (placeholders filled: "{model}-2"): a model step to one outside
	// them moves to the first the session is not on, as a harness's offered models are taken
	// over ACP (none: any model the step names).
	Modes  []string `json:"modes,omitempty"`
	Models []string `json:"models,omitempty"`
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

// Events is a server's event stream (GET path, text/event-stream), opened with the session and
// read through each turn. Each condition is a JSON path and the value it must select, both
// filled with the placeholders ({session}); an event is taken when it meets every one of Where.
type Events struct {
	Path  string            `json:"path"`
	Where map[string]string `json:"where,omitempty"`
	// Said is the text an event adds to the answer; End the event that ends the turn; Error one
	// that fails it, with what it says.
	Said  *Pick             `json:"said,omitempty"`
	End   map[string]string `json:"end"`
	Error *Pick             `json:"error,omitempty"`
}

// Pick reads Read from an event that meets When. By, when set, groups the events by the value
// it selects (a message's id): the answer is the last group's text, as a turn's tool calls and
// their messages come before the message that ends it.
type Pick struct {
	When map[string]string `json:"when,omitempty"`
	Read string            `json:"read"`
	By   string            `json:"by,omitempty"`
}

// Poll is a request sent after the prompt, every Every (a Go duration, default 500ms), until its
// answer meets Until (JSON path: value) and, where Changed is set, what Changed selects differs
// from what it selected before the prompt (so the last turn's end is not taken for this one's).
// Its read.said is the turn's answer.
type Poll struct {
	Request
	Until   map[string]string `json:"until"`
	Changed string            `json:"changed,omitempty"`
	Every   string            `json:"every,omitempty"`
}

// check says what is wrong with an http section, naming the field.
func (h *HTTP) check(file string) error {
	if h.Open == nil || h.Prompt == nil {
		return fmt.Errorf("%s: http: open and prompt are required", file)
	}
	if h.Open.Read["session"] == "" {
		return fmt.Errorf("%s: http.open.read.session: the JSON path of the session's id is required", file)
	}
	if err := h.checkTurn(file); err != nil {
		return err
	}
	for name, r := range h.Requests() {
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

// checkTurn says what is wrong with how a turn is read: events and poll, their paths.
func (h *HTTP) checkTurn(file string) error {
	if h.Events != nil && h.Poll != nil {
		return fmt.Errorf("%s: http: events and poll: give one way to read a turn", file)
	}
	paths := map[string]string{}
	conds := func(field string, m map[string]string) {
		for p := range m {
			paths[field+"."+p] = p
		}
	}
	if e := h.Events; e != nil {
		if !strings.HasPrefix(e.Path, "/") || len(e.End) == 0 {
			return fmt.Errorf("%s: http.events: a path (/…) and end (the event that ends a turn) are required", file)
		}
		conds("http.events.where", e.Where)
		conds("http.events.end", e.End)
		for name, pk := range map[string]*Pick{"said": e.Said, "error": e.Error} {
			if pk != nil {
				conds("http.events."+name+".when", pk.When)
				paths["http.events."+name+".read"] = pk.Read
				if pk.By != "" {
					paths["http.events."+name+".by"] = pk.By
				}
			}
		}
	}
	if p := h.Poll; p != nil {
		if len(p.Until) == 0 {
			return fmt.Errorf("%s: http.poll.until: the answer that says the turn has ended is required", file)
		}
		if _, err := time.ParseDuration(p.Every); p.Every != "" && err != nil {
			return fmt.Errorf("%s: http.poll.every %q: want a duration (500ms)", file, p.Every)
		}
		conds("http.poll.until", p.Until)
		if p.Changed != "" {
			paths["http.poll.changed"] = p.Changed
		}
	}
	for field, p := range paths {
		if !strings.HasPrefix(p, "$") {
			return fmt.Errorf("%s: %s %q: want a JSON path ($.…)", file, field, p)
		}
	}
	return nil
}

// Requests are the section's requests by name, those given: the event stream's GET and the
// poll among them.
func (h *HTTP) Requests() map[string]*Request {
	out := map[string]*Request{}
	for name, r := range map[string]*Request{"open": h.Open, "prompt": h.Prompt, "compact": h.Compact,
		"close": h.Close} {
		if r != nil {
			out[name] = r
		}
	}
	if h.Events != nil {
		out["events"] = &Request{Method: "GET", Path: h.Events.Path}
	}
	if h.Poll != nil {
		out["poll"] = &h.Poll.Request
	}
	return out
}

// Interval is how long a poll waits between two requests.
func (p *Poll) Interval() time.Duration {
	if d, err := time.ParseDuration(p.Every); err == nil && d > 0 {
		return d
	}
	return 500 * time.Millisecond
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
