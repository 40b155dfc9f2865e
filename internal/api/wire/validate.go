package wire

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
)

// Validate checks a request as the API does before it answers (strict mode): every parameter
// one the API knows, of its type and in its range; roles, content parts and items the API takes;
// tool messages answering the calls before them; tool_choice naming an offered tool. The first
// problem is the API's 400, with its message shape and param path. A request decoded from a
// WebSocket message (ws) may have its `type`, and must not have the HTTP-only stream fields.
func Validate(r *Request, ws bool) *Error {
	if r.API == chat.ChatCompletions {
		return validateChat(r)
	}
	return validateResponses(r, ws)
}

// vocabulary is what strict mode checks names against: the parameters each API takes (the
// official SDK's request types), roles, content parts, item and tool types. Made on first use.
type vocabulary struct {
	chatKnown, responsesKnown, wsOnly                    map[string]bool
	chatParts, responsesParts, responsesItems, toolTypes map[string]bool
	functionName                                         *regexp.Regexp
}

var vocab = sync.OnceValue(func() *vocabulary {
	return &vocabulary{
		chatKnown: set("audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
			"max_completion_tokens", "max_tokens",
			"messages", "metadata", "modalities", "model", "moderation", "n", "parallel_tool_calls", "prediction",
			"presence_penalty", "prompt_cache_key",
			"prompt_cache_options", "prompt_cache_retention", "reasoning_effort", "response_format",
			"safety_identifier", "seed", "service_tier", "stop",
			"store", "stream", "stream_options", "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user",
			"verbosity", "web_search_options"),
		// client_metadata: codex, OpenAI's own client, sends it to the API (the SDK lacks it).
		responsesKnown: set("access_programs", "background", "client_metadata", "context_management", "conversation",
			"image", "include", "input", "instructions",
			"max_output_tokens", "max_tool_calls", "metadata", "model", "moderation", "parallel_tool_calls",
			"previous_response_id", "prompt",
			"prompt_cache_key", "prompt_cache_options", "prompt_cache_retention", "reasoning", "safety_identifier",
			"service_tier", "store", "stream",
			"stream_options", "temperature", "text", "tool_choice", "tools", "top_logprobs", "top_p", "truncation",
			"user"),
		wsOnly:    set("type", "generate", "stream_id"),
		chatParts: set("text", "image_url", "input_audio", "file", "refusal"),
		responsesParts: set("input_text", "input_image", "input_file", "input_audio", "output_text", "refusal",
			"summary_text", "reasoning_text", "text"),
		responsesItems: set("message", "additional_tools", "function_call", "function_call_output", "custom_tool_call",
			"custom_tool_call_output", "reasoning", "compaction",
			"item_reference", "web_search_call", "file_search_call", "computer_call", "computer_call_output",
			"local_shell_call", "local_shell_call_output",
			"shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output", "mcp_list_tools",
			"mcp_approval_request",
			"mcp_approval_response", "mcp_call", "image_generation_call", "code_interpreter_call", "tool_search_call",
			"tool_search_output"),
		toolTypes: set("function", "custom", "file_search", "web_search", "web_search_preview", "web_search_2025_08_26",
			"web_search_preview_2025_03_11",
			"computer_use_preview", "computer", "mcp", "code_interpreter", "image_generation", "local_shell", "shell",
			"apply_patch", "tool_search", "namespace"),
		functionName: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	}
})

var (
	chatRoles       = []string{"system", "assistant", "user", "function", "tool", "developer"}
	responsesRoles  = []string{"assistant", "system", "developer", "user"}
	serviceTiers    = []string{"auto", "default", "flex", "scale", "priority"}
	truncations     = []string{"auto", "disabled"}
	formatTypes     = []string{"text", "json_object", "json_schema"}
	reasoningEffort = []string{"none", "minimal", "low", "medium", "high", "xhigh"}
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func validateChat(r *Request) *Error {
	top := r.Top
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if !vocab().chatKnown[k] {
			return &Error{Status: 400, Type: TypeInvalidRequest,
				Message: fmt.Sprintf("Unrecognized request argument supplied: %s", k)}
		}
	}
	if e := common(top); e != nil {
		return e
	}
	if e := numberIn(top, "frequency_penalty", -2, 2); e != nil {
		return e
	}
	if e := numberIn(top, "presence_penalty", -2, 2); e != nil {
		return e
	}
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if e := intAtLeast(top, k, 1); e != nil {
			return e
		}
	}
	if e := intIn(top, "n", 1, 128); e != nil {
		return e
	}
	if e := boolParam(top, "logprobs"); e != nil {
		return e
	}
	if raw, ok := top["top_logprobs"]; ok && !isNull(raw) && !r.Params.Logprobs {
		return &Error{Status: 400, Type: TypeInvalidRequest, Param: "top_logprobs", Code: "invalid_value",
			Message: "Invalid value for 'top_logprobs': 'logprobs' must be set to true when 'top_logprobs' is given."}
	}
	if raw, ok := top["seed"]; ok && !isNull(raw) {
		if _, e := intParam("seed", raw); e != nil {
			return e
		}
	}
	if len(r.Params.Stop) > 4 {
		return &Error{Status: 400, Type: TypeInvalidRequest, Param: "stop", Code: "array_above_max_length",
			Message: fmt.Sprintf("Invalid 'stop': array too long. Expected an array with maximum length 4, but got "+
				"an array with length %d instead.", len(r.Params.Stop))}
	}
	if raw, ok := top["reasoning_effort"]; ok && !isNull(raw) {
		if e := oneOf("reasoning_effort", raw, reasoningEffort); e != nil {
			return e
		}
	}
	if e := chatMessages(top["messages"]); e != nil {
		return e
	}
	if e := chatToolList(top["tools"]); e != nil {
		return e
	}
	if raw, ok := top["response_format"]; ok && !isNull(raw) {
		var f struct {
			Type       json.RawMessage `json:"type"`
			JSONSchema *struct {
				Name *string `json:"name"`
			} `json:"json_schema"`
		}
		if json.Unmarshal(raw, &f) != nil {
			return invalidType("response_format", "an object", raw)
		}
		if e := oneOf("response_format.type", f.Type, formatTypes); e != nil {
			return e
		}
		if r.Params.Format.Type == FormatJSONSchema && (f.JSONSchema == nil || f.JSONSchema.Name == nil ||
			*f.JSONSchema.Name == "") {
			return missing("response_format.json_schema.name")
		}
	}
	return toolsNeeded(r)
}

// common are the checks both APIs make the same way.
func common(top map[string]json.RawMessage) *Error {
	if e := numberIn(top, "temperature", 0, 2); e != nil {
		return e
	}
	if e := numberIn(top, "top_p", 0, 1); e != nil {
		return e
	}
	if e := intIn(top, "top_logprobs", 0, 20); e != nil {
		return e
	}
	for _, k := range []string{"store", "parallel_tool_calls", "stream"} {
		if e := boolParam(top, k); e != nil {
			return e
		}
	}
	for _, k := range []string{"user", "prompt_cache_key", "safety_identifier"} {
		if raw, ok := top[k]; ok && !isNull(raw) && jsonKind(raw) != "a string" {
			return invalidType(k, "a string", raw)
		}
	}
	if raw, ok := top["service_tier"]; ok && !isNull(raw) {
		if e := oneOf("service_tier", raw, serviceTiers); e != nil {
			return e
		}
	}
	if raw, ok := top["metadata"]; ok && !isNull(raw) {
		var md map[string]json.RawMessage
		if json.Unmarshal(raw, &md) != nil {
			return invalidType("metadata", "an object", raw)
		}
		if len(md) > 16 {
			return &Error{Status: 400, Type: TypeInvalidRequest, Param: "metadata", Code: "object_above_max_properties",
				Message: fmt.Sprintf("Invalid 'metadata': too many properties. Expected an object with at most 16 "+
					"properties, but got an object with %d properties instead.", len(md))}
		}
		for _, k := range slices.Sorted(maps.Keys(md)) {
			if jsonKind(md[k]) != "a string" {
				return invalidType("metadata."+k, "a string", md[k])
			}
		}
	}
	return nil
}

// toolsNeeded: tool_choice and parallel_tool_calls need tools, and a named tool must be offered.
func toolsNeeded(r *Request) *Error {
	c := r.Params.ToolChoice
	if len(r.Tools) == 0 {
		for _, k := range []string{"tool_choice", "parallel_tool_calls"} {
			if raw, ok := r.Top[k]; ok && !isNull(raw) && !(k == "tool_choice" && (c.Mode == ChoiceNone ||
				c.Mode == ChoiceAuto) && c.Name == "" && c.Allowed == nil) {
				if r.API == chat.Responses && k == "parallel_tool_calls" {
					continue // the Responses API takes it without tools
				}
				return &Error{Status: 400, Type: TypeInvalidRequest, Param: k, Code: "invalid_value",
					Message: fmt.Sprintf("Invalid value for '%s': '%s' is only allowed when 'tools' are specified.", k,
						k)}
			}
		}
	}
	hosted := r.API == chat.Responses && !responsesToolNamed(r, c.Name)
	if c.Name != "" && !hosted {
		if _, ok := r.Tool(c.Name); !ok {
			return &Error{Status: 400, Type: TypeInvalidRequest, Param: "tool_choice", Code: "invalid_value",
				Message: fmt.Sprintf("Invalid value for 'tool_choice': the tool '%s' is not among the tools offered "+
					"(%s).", c.Name, quoteList(toolNamesOf(r.Tools)))}
		}
	}
	for _, a := range c.Allowed {
		if _, ok := r.Tool(a); !ok && !vocab().toolTypes[a] {
			return &Error{Status: 400, Type: TypeInvalidRequest, Param: "tool_choice", Code: "invalid_value",
				Message: fmt.Sprintf("Invalid value for 'tool_choice': the allowed tool '%s' is not among the tools "+
					"offered (%s).", a, quoteList(toolNamesOf(r.Tools)))}
		}
	}
	return nil
}

// responsesToolNamed: a Responses tool_choice names a function or custom tool (not a hosted
// tool's type).
func responsesToolNamed(r *Request, name string) bool {
	var o struct {
		Type string `json:"type"`
	}
	json.Unmarshal(r.Top["tool_choice"], &o)
	return o.Type == "function" || o.Type == "custom"
}

func toolNamesOf(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// chatMessages checks each message's role, content parts and tool-call bookkeeping: a tool
// message answers a call of the assistant message before it, and every call is answered.
func chatMessages(raw json.RawMessage) *Error {
	var msgs []map[string]json.RawMessage
	json.Unmarshal(raw, &msgs)
	pending := map[string]bool{}
	pendingAt := -1
	for i, m := range msgs {
		var role string
		json.Unmarshal(m["role"], &role)
		if !slices.Contains(chatRoles, role) {
			return invalidValue(fmt.Sprintf("messages[%d].role", i), role, chatRoles)
		}
		if role != "tool" && len(pending) > 0 {
			return unanswered(pendingAt, pending)
		}
		if c, ok := m["content"]; ok && jsonKind(c) == "an array" {
			var parts []struct {
				Type json.RawMessage `json:"type"`
			}
			json.Unmarshal(c, &parts)
			for j, p := range parts {
				var t string
				if json.Unmarshal(p.Type, &t) != nil || !vocab().chatParts[t] {
					return invalidValue(fmt.Sprintf("messages[%d].content[%d].type", i, j), t,
						slices.Sorted(maps.Keys(vocab().chatParts)))
				}
			}
		}
		switch role {
		case "assistant":
			var calls []struct {
				ID string `json:"id"`
			}
			json.Unmarshal(m["tool_calls"], &calls)
			pending, pendingAt = map[string]bool{}, i
			for _, c := range calls {
				pending[c.ID] = true
			}
			if _, has := m["content"]; !has && len(calls) == 0 && m["function_call"] == nil {
				return missing(fmt.Sprintf("messages[%d].content", i))
			}
		case "tool":
			var id string
			if json.Unmarshal(m["tool_call_id"], &id) != nil || id == "" {
				return missing(fmt.Sprintf("messages[%d].tool_call_id", i))
			}
			if !pending[id] {
				return &Error{Status: 400, Type: TypeInvalidRequest, Param: fmt.Sprintf("messages.[%d].role", i),
					Message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding " +
						"message with 'tool_calls'."}
			}
			delete(pending, id)
		default:
			if _, has := m["content"]; !has {
				return missing(fmt.Sprintf("messages[%d].content", i))
			}
		}
	}
	if len(pending) > 0 {
		return unanswered(pendingAt, pending)
	}
	return nil
}

func unanswered(at int, pending map[string]bool) *Error {
	return &Error{Status: 400, Type: TypeInvalidRequest, Param: fmt.Sprintf("messages.[%d].role", at),
		Message: fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to "+
			"each 'tool_call_id'. The following tool_call_ids did not have response messages: "+
			"%s", strings.Join(slices.Sorted(maps.Keys(pending)), ", "))}
}

func chatToolList(raw json.RawMessage) *Error {
	var list []toolRef
	json.Unmarshal(raw, &list)
	seen := map[string]bool{}
	for i, t := range list {
		if t.Type != "function" && t.Type != "custom" {
			return invalidValue(fmt.Sprintf("tools[%d].type", i), t.Type, []string{"function", "custom"})
		}
		name, param := "", ""
		if t.Function != nil {
			name, param = t.Function.Name, fmt.Sprintf("tools[%d].function.name", i)
		}
		if t.Custom != nil {
			name, param = t.Custom.Name, fmt.Sprintf("tools[%d].custom.name", i)
		}
		if e := toolName(name, param, seen); e != nil {
			return e
		}
	}
	return nil
}

func toolName(name, param string, seen map[string]bool) *Error {
	if !vocab().functionName.MatchString(name) {
		return &Error{Status: 400, Type: TypeInvalidRequest, Param: param, Code: "invalid_value",
			Message: fmt.Sprintf("Invalid '%s': string does not match pattern. Expected a string that matches the "+
				"pattern '^[a-zA-Z0-9_-]{1,64}$'.", param)}
	}
	if seen[name] {
		return &Error{Status: 400, Type: TypeInvalidRequest, Param: param, Code: "invalid_value",
			Message: fmt.Sprintf("Invalid '%s': the tool name '%s' is given twice; tool names must be unique.", param,
				name)}
	}
	seen[name] = true
	return nil
}

func validateResponses(r *Request, ws bool) *Error {
	top := r.Top
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if !vocab().responsesKnown[k] && !(ws && vocab().wsOnly[k]) {
			return &Error{Status: 400, Type: TypeInvalidRequest, Param: k, Code: "unknown_parameter",
				Message: fmt.Sprintf("Unknown parameter: '%s'.", k)}
		}
	}
	if e := common(top); e != nil {
		return e
	}
	if e := intAtLeast(top, "max_output_tokens", 16); e != nil {
		return e
	}
	if e := intAtLeast(top, "max_tool_calls", 1); e != nil {
		return e
	}
	if raw, ok := top["instructions"]; ok && !isNull(raw) && jsonKind(raw) != "a string" &&
		jsonKind(raw) != "an array" {
		return invalidType("instructions", "a string", raw)
	}
	if raw, ok := top["truncation"]; ok && !isNull(raw) {
		if e := oneOf("truncation", raw, truncations); e != nil {
			return e
		}
	}
	if e := validateResponsesSettings(r, top); e != nil {
		return e
	}
	if e := validateResponsesInput(r.Input); e != nil {
		return e
	}
	if e := validateResponsesTools(top["tools"]); e != nil {
		return e
	}
	return toolsNeeded(r)
}

// validateResponsesSettings checks reasoning and text, as the API does.
func validateResponsesSettings(r *Request, top map[string]json.RawMessage) *Error {
	if raw, ok := top["reasoning"]; ok && !isNull(raw) {
		var re struct {
			Effort json.RawMessage `json:"effort"`
		}
		if json.Unmarshal(raw, &re) != nil {
			return invalidType("reasoning", "an object", raw)
		}
		if len(re.Effort) > 0 && !isNull(re.Effort) {
			if e := oneOf("reasoning.effort", re.Effort, reasoningEffort); e != nil {
				return e
			}
		}
	}
	if raw, ok := top["text"]; ok && !isNull(raw) {
		var t struct {
			Format *struct {
				Type json.RawMessage `json:"type"`
				Name *string         `json:"name"`
			} `json:"format"`
		}
		json.Unmarshal(raw, &t)
		if t.Format != nil {
			if e := oneOf("text.format.type", t.Format.Type, formatTypes); e != nil {
				return e
			}
			if r.Params.Format.Type == FormatJSONSchema && (t.Format.Name == nil || *t.Format.Name == "") {
				return missing("text.format.name")
			}
		}
	}
	return nil
}

// validateResponsesInput checks each input item's type, and a message's role and content parts.
func validateResponsesInput(input []json.RawMessage) *Error {
	for i, it := range input {
		var item struct {
			Type    string          `json:"type"`
			Role    *string         `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(it, &item)
		if item.Type == "" && item.Role == nil {
			return missing(fmt.Sprintf("input[%d].type", i))
		}
		if item.Type != "" && !vocab().responsesItems[item.Type] {
			return invalidValue(fmt.Sprintf("input[%d].type", i), item.Type,
				slices.Sorted(maps.Keys(vocab().responsesItems)))
		}
		if item.Type == "" || item.Type == "message" {
			if item.Role == nil {
				return missing(fmt.Sprintf("input[%d].role", i))
			}
			if !slices.Contains(responsesRoles, *item.Role) {
				return invalidValue(fmt.Sprintf("input[%d].role", i), *item.Role, responsesRoles)
			}
			if jsonKind(item.Content) == "an array" {
				var parts []struct {
					Type string `json:"type"`
				}
				json.Unmarshal(item.Content, &parts)
				for j, p := range parts {
					if !vocab().responsesParts[p.Type] {
						return invalidValue(fmt.Sprintf("input[%d].content[%d].type", i, j), p.Type,
							slices.Sorted(maps.Keys(vocab().responsesParts)))
					}
				}
			} else if jsonKind(item.Content) != "a string" {
				return invalidType(fmt.Sprintf("input[%d].content", i), "a string or an array of content parts",
					item.Content)
			}
		}
	}
	return nil
}

// validateResponsesTools checks each tool's type, and function and custom tools' names.
func validateResponsesTools(raw json.RawMessage) *Error {
	var list []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	json.Unmarshal(raw, &list)
	seen := map[string]bool{}
	for i, t := range list {
		if !vocab().toolTypes[t.Type] {
			return invalidValue(fmt.Sprintf("tools[%d].type", i), t.Type, slices.Sorted(maps.Keys(vocab().toolTypes)))
		}
		if t.Type == "function" || t.Type == "custom" {
			if e := toolName(t.Name, fmt.Sprintf("tools[%d].name", i), seen); e != nil {
				return e
			}
		}
	}
	return nil
}

func invalidValue(param, got string, allowed []string) *Error {
	q := make([]string, len(allowed))
	for i, a := range allowed {
		q[i] = "'" + a + "'"
	}
	list := strings.Join(q, ", ")
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
	}
	return &Error{Status: 400, Type: TypeInvalidRequest, Param: param, Code: "invalid_value",
		Message: fmt.Sprintf("Invalid value: '%s'. Supported values are: %s.", got, list)}
}

func oneOf(param string, raw json.RawMessage, allowed []string) *Error {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return invalidType(param, "a string", raw)
	}
	if !slices.Contains(allowed, s) {
		return invalidValue(param, s, allowed)
	}
	return nil
}

func numberIn(top map[string]json.RawMessage, param string, lo, hi float64) *Error {
	raw, ok := top[param]
	if !ok || isNull(raw) {
		return nil
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return invalidType(param, "a decimal", raw)
	}
	return outOfRange(param, "decimal", f, lo, hi)
}

func intAtLeast(top map[string]json.RawMessage, param string, lo int) *Error {
	return intIn(top, param, lo, 1<<53)
}

func intIn(top map[string]json.RawMessage, param string, lo, hi int) *Error {
	n, ok, e := intValue(top, param)
	if !ok || e != nil {
		return e
	}
	return outOfRange(param, "integer", n, lo, hi)
}

// outOfRange is the API's refusal of a number outside [lo, hi]; kind is "decimal" or "integer",
// and %v writes each as the API does (%g for a decimal, %d for an integer).
func outOfRange[N int | float64](param, kind string, v, lo, hi N) *Error {
	if v < lo {
		return &Error{Status: 400, Type: TypeInvalidRequest, Param: param, Code: kind + "_below_min_value",
			Message: fmt.Sprintf("Invalid '%s': %s below minimum value. Expected a value >= %v, but got %v instead.",
				param, kind, lo, v)}
	}
	if v > hi {
		return &Error{Status: 400, Type: TypeInvalidRequest, Param: param, Code: kind + "_above_max_value",
			Message: fmt.Sprintf("Invalid '%s': %s above maximum value. Expected a value <= %v, but got %v instead.",
				param, kind, hi, v)}
	}
	return nil
}

func boolParam(top map[string]json.RawMessage, param string) *Error {
	if raw, ok := top[param]; ok && !isNull(raw) && jsonKind(raw) != "a boolean" {
		return invalidType(param, "a boolean", raw)
	}
	return nil
}
