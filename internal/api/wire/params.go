package wire

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Params are the settings of a request the fake honours, as a model behind the API would: how
// long the answer may be and where it stops, how many choices, log probabilities, what it may do
// with the tools, and the format of its text. The zero value is the API's defaults.
type Params struct {
	// MaxTokens bounds the completion (reasoning included), 0: no bound. MaxParam names the
	// parameter that set it (max_tokens, max_completion_tokens or max_output_tokens).
	MaxTokens int
	MaxParam  string
	// Stop sequences (chat): the text ends before the first of them.
	Stop []string
	// N is the number of choices (chat); 0 and 1 are one.
	N int
	// Logprobs asks for the log probabilities of the text's tokens, with TopLogprobs
	// alternatives each (chat `logprobs`; Responses `include: ["message.output_text.logprobs"]`).
	Logprobs    bool
	TopLogprobs int
	ToolChoice  ToolChoice
	// Serial is parallel_tool_calls: false — at most one call an answer.
	Serial bool
	Format Format
	// Images and Files count the image and file inputs.
	Images, Files int
	// CompactAt is context_management's compaction threshold (Responses): a prompt of at least
	// that many tokens gets a compaction item first in the output. 0: none.
	CompactAt int
}

// ToolChoice is what a request lets the model do with its tools.
type ToolChoice struct {
	// Mode is "auto" (the default: the model decides), "none" (no call) or "required" (at
	// least one call).
	Mode string
	// Name is a tool that must be called (a named function or custom tool).
	Name string
	// Allowed, when not nil, are the only tools that may be called (allowed_tools).
	Allowed []string
}

// Tool choice modes.
const (
	ChoiceAuto     = "auto"
	ChoiceNone     = "none"
	ChoiceRequired = "required"
)

// May says whether the choice lets the model call the tool of that name.
func (c ToolChoice) May(name string) bool {
	if c.Mode == ChoiceNone {
		return false
	}
	if c.Name != "" {
		return c.Name == name
	}
	if c.Allowed != nil {
		for _, a := range c.Allowed {
			if a == name {
				return true
			}
		}
		return false
	}
	return true
}

// Must says whether the answer has to call a tool.
func (c ToolChoice) Must() bool { return c.Name != "" || c.Mode == ChoiceRequired }

// Format is the format the text must take.
type Format struct {
	// Type is "text" (the default), "json_object" or "json_schema".
	Type string
	Name string
	// Schema is the JSON schema a json_schema text validates against.
	Schema json.RawMessage
}

// Format types.
const (
	FormatText       = "text"
	FormatJSONObject = "json_object"
	FormatJSONSchema = "json_schema"
)

// chatParams reads chat completions' settings.
func chatParams(top map[string]json.RawMessage, p *Params) *Error {
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		n, ok, e := intValue(top, k)
		if e != nil {
			return e
		}
		if ok && p.MaxParam == "" {
			p.MaxTokens, p.MaxParam = n, k
		}
	}
	if raw, ok := top["stop"]; ok && !isNull(raw) {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			p.Stop = []string{s}
		} else if json.Unmarshal(raw, &p.Stop) != nil {
			return invalidType("stop", "a string or an array of strings", raw)
		}
	}
	if e := intSetting(top, "n", &p.N); e != nil {
		return e
	}
	if raw, ok := top["logprobs"]; ok && !isNull(raw) {
		if json.Unmarshal(raw, &p.Logprobs) != nil {
			return invalidType("logprobs", "a boolean", raw)
		}
	}
	if e := toolParams(top, p, chatToolChoice); e != nil {
		return e
	}
	if raw, ok := top["response_format"]; ok && !isNull(raw) {
		var f struct {
			Type       string `json:"type"`
			JSONSchema *struct {
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		}
		if json.Unmarshal(raw, &f) != nil {
			return invalidType("response_format", "an object", raw)
		}
		p.Format.Type = f.Type
		if f.Type == FormatJSONSchema {
			if f.JSONSchema == nil {
				return missing("response_format.json_schema")
			}
			p.Format.Name, p.Format.Schema = f.JSONSchema.Name, f.JSONSchema.Schema
		}
	}
	return nil
}

// responsesParams reads the Responses API's settings.
func responsesParams(top map[string]json.RawMessage, p *Params) *Error {
	if n, ok, e := intValue(top, "max_output_tokens"); e != nil {
		return e
	} else if ok {
		p.MaxTokens, p.MaxParam = n, "max_output_tokens"
	}
	if raw, ok := top["context_management"]; ok && !isNull(raw) {
		var cm []struct {
			Type      string `json:"type"`
			Threshold *int   `json:"compact_threshold"`
		}
		if json.Unmarshal(raw, &cm) != nil {
			return invalidType("context_management", "an array of objects", raw)
		}
		for _, c := range cm {
			if c.Type == "compaction" && c.Threshold != nil {
				p.CompactAt = max(*c.Threshold, 1)
			}
		}
	}
	if raw, ok := top["include"]; ok && !isNull(raw) {
		var inc []string
		if json.Unmarshal(raw, &inc) != nil {
			return invalidType("include", "an array of strings", raw)
		}
		for _, s := range inc {
			if s == "message.output_text.logprobs" {
				p.Logprobs = true
			}
		}
	}
	if e := toolParams(top, p, responsesToolChoice); e != nil {
		return e
	}
	if raw, ok := top["text"]; ok && !isNull(raw) {
		// text.format's keys are Format's fields' names (encoding/json matches them so).
		var t struct {
			Format *Format `json:"format"`
		}
		if json.Unmarshal(raw, &t) != nil {
			return invalidType("text", "an object", raw)
		}
		if t.Format != nil {
			p.Format = *t.Format
		}
	}
	return nil
}

// toolParams reads the settings both APIs spell alike: top_logprobs, parallel_tool_calls, and
// tool_choice, which each API's choice reads in its own shape.
func toolParams(top map[string]json.RawMessage, p *Params, choice func(json.RawMessage) (ToolChoice, *Error)) *Error {
	if e := intSetting(top, "top_logprobs", &p.TopLogprobs); e != nil {
		return e
	}
	if raw, ok := top["parallel_tool_calls"]; ok && !isNull(raw) {
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return invalidType("parallel_tool_calls", "a boolean", raw)
		}
		p.Serial = !b
	}
	if raw, ok := top["tool_choice"]; ok && !isNull(raw) {
		c, e := choice(raw)
		if e != nil {
			return e
		}
		p.ToolChoice = c
	}
	return nil
}

// intSetting sets *dst to the integer top[k], when it is sent and not null.
func intSetting(top map[string]json.RawMessage, k string, dst *int) *Error {
	n, ok, e := intValue(top, k)
	if ok && e == nil {
		*dst = n
	}
	return e
}

// intValue is the integer top[k]; ok false when it is not sent or null.
func intValue(top map[string]json.RawMessage, k string) (n int, ok bool, e *Error) {
	raw, ok := top[k]
	if !ok || isNull(raw) {
		return 0, false, nil
	}
	n, e = intParam(k, raw)
	return n, true, e
}

func intParam(param string, raw json.RawMessage) (int, *Error) {
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return 0, invalidType(param, "an integer", raw)
	}
	if f != float64(int(f)) {
		return 0, &Error{Status: 400, Type: TypeInvalidRequest, Param: param, Code: "invalid_type",
			Message: fmt.Sprintf("Invalid type for '%s': expected an integer, but got a decimal number instead.",
				param)}
	}
	return int(f), nil
}

// chatToolChoice reads chat's tool_choice: "none", "auto", "required", {"type": "function",
// "function": {"name"}}, {"type": "custom", "custom": {"name"}}, or {"type": "allowed_tools",
// "allowed_tools": {"mode", "tools": [...]}}.
func chatToolChoice(raw json.RawMessage) (ToolChoice, *Error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return modeChoice(s)
	}
	var o struct {
		toolRef
		AllowedTools *struct {
			Mode  string            `json:"mode"`
			Tools []json.RawMessage `json:"tools"`
		} `json:"allowed_tools"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return ToolChoice{}, invalidType("tool_choice", "a string or an object", raw)
	}
	switch {
	case o.Type == "function" && o.Function != nil:
		return ToolChoice{Mode: ChoiceRequired, Name: o.Function.Name}, nil
	case o.Type == "custom" && o.Custom != nil:
		return ToolChoice{Mode: ChoiceRequired, Name: o.Custom.Name}, nil
	case o.Type == "allowed_tools" && o.AllowedTools != nil:
		return allowed(o.AllowedTools.Mode, o.AllowedTools.Tools, "tool_choice.allowed_tools")
	case o.Type == "function":
		return ToolChoice{}, missing("tool_choice.function")
	}
	return ToolChoice{}, &Error{Status: 400, Type: TypeInvalidRequest, Param: "tool_choice", Code: "invalid_value",
		Message: fmt.Sprintf("Invalid value for 'tool_choice': %s. Give none, auto, required, or an object naming a "+
			"function, a custom tool or the allowed tools.", compactOf(raw))}
}

// responsesToolChoice reads the Responses API's tool_choice: a mode, {"type": "function" or
// "custom", "name"}, {"type": "allowed_tools", "mode", "tools"}, or a hosted tool's type.
func responsesToolChoice(raw json.RawMessage) (ToolChoice, *Error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return modeChoice(s)
	}
	var o struct {
		Type  string            `json:"type"`
		Name  string            `json:"name"`
		Mode  string            `json:"mode"`
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return ToolChoice{}, invalidType("tool_choice", "a string or an object", raw)
	}
	switch o.Type {
	case "function", "custom":
		if o.Name == "" {
			return ToolChoice{}, missing("tool_choice.name")
		}
		return ToolChoice{Mode: ChoiceRequired, Name: o.Name}, nil
	case "allowed_tools":
		return allowed(o.Mode, o.Tools, "tool_choice")
	case "":
		return ToolChoice{}, missing("tool_choice.type")
	}
	// A hosted tool (web_search_preview, file_search, …): nothing a script calls by name.
	return ToolChoice{Mode: ChoiceRequired, Name: o.Type}, nil
}

func modeChoice(s string) (ToolChoice, *Error) {
	switch s {
	case ChoiceAuto, ChoiceNone, ChoiceRequired:
		return ToolChoice{Mode: s}, nil
	}
	return ToolChoice{}, &Error{Status: 400, Type: TypeInvalidRequest, Param: "tool_choice", Code: "invalid_value",
		Message: fmt.Sprintf("Invalid value: '%s'. Supported values are: 'none', 'auto', and 'required'.", s)}
}

// allowed reads allowed_tools' mode and tools, each {"type": "function", "name"} (Responses) or
// {"type": "function", "function": {"name"}} (chat).
func allowed(mode string, tools []json.RawMessage, param string) (ToolChoice, *Error) {
	c := ToolChoice{Mode: ChoiceAuto, Allowed: []string{}}
	switch mode {
	case "", ChoiceAuto:
	case ChoiceRequired:
		c.Mode = ChoiceRequired
	default:
		return ToolChoice{}, &Error{Status: 400, Type: TypeInvalidRequest, Param: param + ".mode",
			Code:    "invalid_value",
			Message: fmt.Sprintf("Invalid value: '%s'. Supported values are: 'auto' and 'required'.", mode)}
	}
	for i, raw := range tools {
		var t toolRef
		if json.Unmarshal(raw, &t) != nil {
			return ToolChoice{}, invalidType(fmt.Sprintf("%s.tools[%d]", param, i), "an object", raw)
		}
		name := t.name()
		if name == "" {
			name = t.Type // a hosted tool
		}
		c.Allowed = append(c.Allowed, name)
	}
	return c, nil
}

// toolRef is a tool as a request names it: {"type", "name"} (Responses), {"type": "function",
// "function": {"name"}} or {"type": "custom", "custom": {"name"}} (chat).
type toolRef struct {
	Type     string    `json:"type"`
	Name     string    `json:"name"`
	Function *nameOnly `json:"function"`
	Custom   *nameOnly `json:"custom"`
}

type nameOnly struct {
	Name string `json:"name"`
}

// name is the tool's name in whichever shape it came, "" for none.
func (t toolRef) name() string {
	switch {
	case t.Custom != nil:
		return t.Custom.Name
	case t.Function != nil:
		return t.Function.Name
	}
	return t.Name
}

func compactOf(raw json.RawMessage) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}
