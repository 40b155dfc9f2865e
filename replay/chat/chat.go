// Package chat finds the parts a model's prompt is made of in a request body — the system prompt,
// the tools, the messages — as the exact bytes of each, without decoding the rest. It reads the
// three shapes a harness sends: OpenAI chat completions (`messages`, leading system or developer
// messages being the system prompt), OpenAI Responses (`instructions`, `input`) and Anthropic
// messages (`system`, `messages`). Its order — system prompt, tools, messages — is the order in
// which a server reads a prompt, and so the order in which the audit compares two requests.
package chat

import (
	"fmt"
	"strconv"
)

// API names the shape of a request body.
const (
	ChatCompletions = "chat.completions"
	Responses       = "responses"
	Anthropic       = "anthropic"
)

// Kind is the kind of a part.
type Kind uint8

const (
	System Kind = iota + 1
	Tool
	Message
)

func (k Kind) String() string {
	switch k {
	case System:
		return "system"
	case Tool:
		return "tool"
	case Message:
		return "message"
	}
	return "?"
}

// Part is one piece of a prompt: a system message (or a top-level instructions/system value), one
// tool, or one message.
type Part struct {
	Kind Kind
	// Field and Index say where the part is in the body: messages[3] is Field "messages", Index 3;
	// a top-level `instructions` is Field "instructions", Index -1.
	Field string
	Index int
	// Role is a message's role ("" when it has none, as a Responses function_call item).
	Role string
	// Raw is the part's exact bytes, a slice of the body; Off is where it starts in the body.
	Raw []byte
	Off int
}

// Path is the part's JSON path in the body: `$.messages[3]`, `$.instructions`.
func (p Part) Path() string {
	if p.Index < 0 {
		return "$." + p.Field
	}
	return "$." + p.Field + "[" + strconv.Itoa(p.Index) + "]"
}

// Request is a request body cut into its prompt's parts.
type Request struct {
	API   string
	Model string
	// Stream is the body's `stream`.
	Stream bool
	// System is the system prompt: leading system or developer messages, or `instructions` /
	// Anthropic's `system`.
	System []Part
	Tools  []Part
	// Messages are the messages after the system prompt (Responses: the input items), in order.
	Messages []Part
}

// Parts lists every part in the prompt's order: system prompt, tools, messages.
func (r *Request) Parts() []Part {
	out := make([]Part, 0, len(r.System)+len(r.Tools)+len(r.Messages))
	out = append(out, r.System...)
	out = append(out, r.Tools...)
	return append(out, r.Messages...)
}

// Parse cuts a request body into its parts. The body must be a JSON object with `messages` or
// `input`; an error says what is wrong and where.
func Parse(body []byte) (*Request, error) {
	i := skipWS(body, 0)
	if i >= len(body) || body[i] != '{' {
		return nil, fmt.Errorf("a request body must be a JSON object")
	}
	r := &Request{}
	var messages, input, tools, instructions, system []byte
	var offMessages, offInput, offTools, offInstructions, offSystem int
	end, err := skipObject(body, i, 0, func(key []byte, s, e int) error {
		v := body[s:e]
		switch {
		case keyIs(key, "messages"):
			messages, offMessages = v, s
		case keyIs(key, "input"):
			input, offInput = v, s
		case keyIs(key, "tools"):
			tools, offTools = v, s
		case keyIs(key, "instructions"):
			instructions, offInstructions = v, s
		case keyIs(key, "system"):
			system, offSystem = v, s
		case keyIs(key, "model"):
			r.Model, _ = stringValue(v)
		case keyIs(key, "stream"):
			r.Stream = string(v) == "true"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if skipWS(body, end) != len(body) {
		return nil, bad(end, "more after the request object")
	}
	switch {
	case messages != nil && system != nil:
		r.API = Anthropic
		if !isNull(system) {
			r.System = append(r.System, Part{Kind: System, Field: "system", Index: -1, Role: "system", Raw: system, Off: offSystem})
		}
		if err := r.addMessages(messages, offMessages, "messages", false); err != nil {
			return nil, err
		}
	case messages != nil:
		r.API = ChatCompletions
		if err := r.addMessages(messages, offMessages, "messages", true); err != nil {
			return nil, err
		}
	case input != nil:
		r.API = Responses
		if instructions != nil && !isNull(instructions) {
			r.System = append(r.System, Part{Kind: System, Field: "instructions", Index: -1, Role: "system", Raw: instructions, Off: offInstructions})
		}
		if len(input) > 0 && input[0] == '"' {
			r.Messages = append(r.Messages, Part{Kind: Message, Field: "input", Index: -1, Role: "user", Raw: input, Off: offInput})
		} else if err := r.addMessages(input, offInput, "input", true); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("a request body needs \"messages\" (chat completions, Anthropic) or \"input\" (Responses)")
	}
	if tools != nil && !isNull(tools) {
		if len(tools) == 0 || tools[0] != '[' {
			return nil, fmt.Errorf("\"tools\" must be an array")
		}
		if _, err := skipArray(tools, 0, 0, func(n, s, e int) error {
			r.Tools = append(r.Tools, Part{Kind: Tool, Field: "tools", Index: n, Raw: tools[s:e], Off: offTools + s})
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func isNull(v []byte) bool { return string(v) == "null" }

// addMessages adds an array's elements; with leading, the system and developer messages that come
// first are the system prompt. Each message is scanned once: its role is read on the way.
func (r *Request) addMessages(arr []byte, off int, field string, leading bool) error {
	if len(arr) == 0 || arr[0] != '[' {
		return fmt.Errorf("%q must be an array", field)
	}
	inHead := leading
	i := skipWS(arr, 1)
	if i < len(arr) && arr[i] == ']' {
		return nil
	}
	for n := 0; ; n++ {
		role := ""
		var e int
		var err error
		if i < len(arr) && arr[i] == '{' {
			e, err = skipObject(arr, i, 1, func(key []byte, s, e int) error {
				if role == "" && keyIs(key, "role") {
					role, _ = stringValue(arr[s:e])
				}
				return nil
			})
		} else {
			e, err = skipValue(arr, i, 1)
		}
		if err != nil {
			return fmt.Errorf("%s[%d]: %v", field, n, err)
		}
		p := Part{Kind: Message, Field: field, Index: n, Role: role, Raw: arr[i:e], Off: off + i}
		if inHead && (role == "system" || role == "developer") {
			p.Kind = System
			r.System = append(r.System, p)
		} else {
			inHead = false
			r.Messages = append(r.Messages, p)
		}
		i = skipWS(arr, e)
		if i >= len(arr) {
			return fmt.Errorf("%s: unterminated array", field)
		}
		switch arr[i] {
		case ',':
			i = skipWS(arr, i+1)
		case ']':
			return nil
		default:
			return fmt.Errorf("%s: offset %d: want ',' or ']'", field, i)
		}
	}
}
