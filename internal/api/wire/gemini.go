package wire

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// Gemini's generateContent (POST /v1beta/models/{model}:generateContent, and
// :streamGenerateContent?alt=sse): the request read into what a script looks at, the answer as a
// GenerateContentResponse or its server-sent events, in the API's field order.

// geminiPart is what a part must be; its text is read by contentText, from the content's parts.
type geminiPart struct {
	Text         *string          `json:"text"`
	Thought      bool             `json:"thought"`
	FunctionCall *json.RawMessage `json:"functionCall"`
	FunctionResp *json.RawMessage `json:"functionResponse"`
}

type geminiContent struct {
	Role  string `json:"role"`
	Parts raw    `json:"parts"`
}

// DecodeGemini reads a generateContent body for model (from the path); stream says which of the
// two endpoints it came to. Errors are the API's 400s (Error.GeminiBody).
func DecodeGemini(body []byte, model string, stream bool) (*Request, *Error) {
	top, e := object(body)
	if e != nil {
		return nil, e
	}
	r := &Request{API: chat.Gemini, Model: model, Stream: stream}
	raw, ok := top["contents"]
	if !ok {
		return nil, geminiInvalid("contents", "* GenerateContentRequest.contents: contents is not specified")
	}
	badContents := geminiInvalid("contents",
		"Invalid JSON payload received. Invalid value at 'contents': want a list of Content")
	var contents []geminiContent
	if json.Unmarshal(raw, &contents) != nil {
		return nil, badContents
	}
	if len(contents) == 0 {
		return nil, geminiInvalid("contents", "* GenerateContentRequest.contents: contents is not specified")
	}
	r.Messages = len(contents)
	for _, c := range contents {
		var parts []geminiPart
		if !absent(json.RawMessage(c.Parts)) && json.Unmarshal(c.Parts, &parts) != nil {
			return nil, badContents
		}
		results, calls := 0, 0
		for _, p := range parts {
			if p.FunctionResp != nil {
				results++
			}
			if p.FunctionCall != nil {
				calls++
			}
		}
		r.LastIsToolResult = results > 0
		if c.Role == "model" {
			r.turn(calls > 0)
			continue
		}
		r.ToolResults += results
		r.ResultsSinceUser += results
		if results == 0 {
			r.LastUserText, _ = contentText(json.RawMessage(c.Parts))
			r.ResultsSinceUser = 0
		}
	}
	tools, e := geminiTools(top["tools"])
	if e != nil {
		return nil, e
	}
	r.Tools = tools
	r.Params.ToolChoice = geminiToolChoice(top["toolConfig"])
	if e := geminiGenerationConfig(top["generationConfig"], &r.Params); e != nil {
		return nil, e
	}
	return r, nil
}

// geminiGenerationConfig reads the parameters of generationConfig the fake honours: the bounds
// (maxOutputTokens, stopSequences) and a JSON answer's format.
func geminiGenerationConfig(g json.RawMessage, p *Params) *Error {
	var gc struct {
		MimeType   string          `json:"responseMimeType"`
		Schema     json.RawMessage `json:"responseSchema"`
		JSONSchema json.RawMessage `json:"responseJsonSchema"`
		MaxTokens  int             `json:"maxOutputTokens"`
		Stop       []string        `json:"stopSequences"`
	}
	if !absent(g) && json.Unmarshal(g, &gc) != nil {
		return invalidType("generationConfig",
			"an object with maxOutputTokens a number and stopSequences an array of strings", g)
	}
	if gc.MaxTokens > 0 {
		p.MaxTokens, p.MaxParam = gc.MaxTokens, "maxOutputTokens"
	}
	p.Stop = gc.Stop
	if gc.MimeType == "application/json" {
		switch {
		case !absent(gc.JSONSchema):
			// Gemini CLI's router writes its JSON schema with OpenAPI's capital types.
			p.Format = Format{Type: FormatJSONSchema, Schema: lowerTypes(gc.JSONSchema)}
		case !absent(gc.Schema):
			p.Format = Format{Type: FormatJSONSchema, Schema: lowerTypes(gc.Schema)}
		default:
			p.Format = Format{Type: FormatJSONObject}
		}
	}
	return nil
}

// lowerTypes makes an OpenAPI schema of Gemini's (types in capitals: OBJECT, STRING) a JSON
// schema, as far as the type names go.
func lowerTypes(schema json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(schema, &v) != nil {
		return schema
	}
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for k, v := range t {
				if s, ok := v.(string); ok && k == "type" {
					t[k] = strings.ToLower(s)
				} else {
					t[k] = walk(v)
				}
			}
		case []any:
			for i := range t {
				t[i] = walk(t[i])
			}
		}
		return x
	}
	b, err := jsonx.Marshal(walk(v))
	if err != nil {
		return schema
	}
	return b
}

func geminiInvalid(field, msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: "INVALID_ARGUMENT", Param: field, Message: msg}
}

// geminiTools reads the function declarations of `tools` (parameters or parametersJsonSchema).
func geminiTools(raw json.RawMessage) ([]Tool, *Error) {
	if absent(raw) {
		return nil, nil
	}
	var list []struct {
		Decls []struct {
			Name   *string         `json:"name"`
			Params json.RawMessage `json:"parameters"`
			Schema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return nil, geminiInvalid("tools",
			"Invalid JSON payload received. Invalid value at 'tools': want a list of Tool")
	}
	var out []Tool
	for i, t := range list {
		for j, d := range t.Decls {
			if d.Name == nil {
				return nil, geminiInvalid("tools",
					fmt.Sprintf("* GenerateContentRequest.tools[%d].function_declarations[%d].name: Name cannot be "+
						"empty.", i, j))
			}
			schema := d.Schema
			if absent(schema) {
				schema = lowerTypes(d.Params)
			}
			out = append(out, Tool{Name: *d.Name, Props: props(schema), Schema: schema})
		}
	}
	return out, nil
}

// geminiToolChoice reads toolConfig.functionCallingConfig: mode AUTO, ANY (with
// allowedFunctionNames) or NONE.
func geminiToolChoice(raw json.RawMessage) ToolChoice {
	var c struct {
		FC struct {
			Mode    string   `json:"mode"`
			Allowed []string `json:"allowedFunctionNames"`
		} `json:"functionCallingConfig"`
	}
	if absent(raw) || json.Unmarshal(raw, &c) != nil {
		return ToolChoice{Mode: ChoiceAuto}
	}
	switch strings.ToUpper(c.FC.Mode) {
	case "ANY":
		tc := ToolChoice{Mode: ChoiceRequired, Allowed: c.FC.Allowed}
		if len(c.FC.Allowed) == 1 {
			tc.Name = c.FC.Allowed[0]
		}
		return tc
	case "NONE":
		return ToolChoice{Mode: ChoiceNone}
	}
	return ToolChoice{Mode: ChoiceAuto}
}

// GeminiUsage is a generateContent answer's usageMetadata.
type GeminiUsage struct {
	Prompt, Cached, Candidates, Thoughts int
}

func (u GeminiUsage) object(e *enc) {
	e.obj()
	e.kint("promptTokenCount", int64(u.Prompt))
	e.kint("candidatesTokenCount", int64(u.Candidates))
	e.kint("totalTokenCount", int64(u.Prompt+u.Candidates+u.Thoughts))
	if u.Cached > 0 { // the API leaves it out when nothing was cached
		e.kint("cachedContentTokenCount", int64(u.Cached))
	}
	e.key("promptTokensDetails")
	modality(e, u.Prompt)
	if u.Cached > 0 {
		e.key("cacheTokensDetails")
		modality(e, u.Cached)
	}
	if u.Thoughts > 0 {
		e.kint("thoughtsTokenCount", int64(u.Thoughts))
	}
	e.end()
}

func modality(e *enc, n int) {
	e.arr()
	e.obj()
	e.kstr("modality", "TEXT")
	e.kint("tokenCount", int64(n))
	e.end()
	e.endArr()
}

// FinishReasonGemini is the candidate's finishReason: STOP, MAX_TOKENS.
func FinishReasonGemini(a Answer) string {
	switch a.FinishReason {
	case "length", "max_tokens":
		return "MAX_TOKENS"
	case "content_filter":
		return "SAFETY"
	}
	return "STOP"
}

// geminiResponse writes one GenerateContentResponse: the candidate's parts (thought, text, calls;
// any may be empty in a stream chunk), its finish reason when done, and usage when given.
func geminiResponse(e *enc, m Meta, reasoning, text string, calls []ToolCall, finish string, u *GeminiUsage) {
	e.obj()
	e.key("candidates")
	e.arr()
	e.obj()
	e.key("content")
	e.obj()
	e.key("parts")
	e.arr()
	if reasoning != "" {
		e.obj()
		e.kstr("text", reasoning)
		e.kbool("thought", true)
		e.end()
	}
	if text != "" {
		e.obj()
		e.kstr("text", text)
		e.end()
	}
	for _, c := range calls {
		e.obj()
		e.key("functionCall")
		e.obj()
		e.kstr("name", c.Name)
		e.key("args")
		e.raw(toolInput(c))
		e.end()
		e.end()
	}
	e.endArr()
	e.kstr("role", "model")
	e.end()
	if finish != "" {
		e.kstr("finishReason", finish)
	}
	e.kint("index", 0)
	e.end()
	e.endArr()
	if u != nil {
		e.key("usageMetadata")
		u.object(e)
	}
	e.kstr("modelVersion", m.Model)
	e.kstr("responseId", m.ID)
	e.end()
}

// GeminiBody is a non-streamed generateContent answer.
func GeminiBody(m Meta, a Answer, u GeminiUsage) []byte {
	e := enc{b: make([]byte, 0, 512+len(a.Text)+len(a.Reasoning)), first: true}
	text := a.Text
	if text == "" && a.Reasoning == "" && len(a.ToolCalls) == 0 {
		text = " " // a candidate needs a part; an empty answer reads as a space
	}
	geminiResponse(&e, m, a.Reasoning, text, a.ToolCalls, FinishReasonGemini(a), &u)
	return e.b
}

// GeminiStream is a streamed answer (alt=sse): a response per piece of thought, then of text, then
// one with the function calls, the last with the finish reason and the usage, each a GeminiEvent.
func GeminiStream(m Meta, a Answer, u GeminiUsage) [][]byte {
	var out [][]byte
	frame := func(reasoning, text string, calls []ToolCall, finish string, u *GeminiUsage) {
		e := enc{b: make([]byte, 0, 256), first: true}
		geminiResponse(&e, m, reasoning, text, calls, finish, u)
		out = append(out, GeminiEvent(e.b))
	}
	eachPiece(a.Reasoning, a.Chunk, false, func(p string) { frame(p, "", nil, "", nil) })
	var pieces []string
	eachPiece(a.Text, a.Chunk, false, func(p string) { pieces = append(pieces, p) })
	if len(pieces) == 0 && len(a.ToolCalls) == 0 && a.Reasoning == "" {
		pieces = []string{" "}
	}
	for i, p := range pieces {
		if i == len(pieces)-1 && len(a.ToolCalls) == 0 {
			frame("", p, nil, FinishReasonGemini(a), &u)
			return out
		}
		frame("", p, nil, "", nil)
	}
	frame("", "", a.ToolCalls, FinishReasonGemini(a), &u)
	return out
}

// GeminiBody writes the error in Gemini's shape: {"error": {code, message, status}}.
func (e *Error) GeminiBody() []byte {
	st := e.Type
	if !isUpper(st) {
		st = GeminiStatus(e.Status)
	}
	out := enc{b: make([]byte, 0, 128+len(e.Message)), first: true}
	out.obj()
	out.key("error")
	out.obj()
	out.kint("code", int64(e.Status))
	out.kstr("message", e.Message)
	out.kstr("status", st)
	out.end()
	out.end()
	return out.b
}

func isUpper(s string) bool { return s != "" && strings.ToUpper(s) == s }

// GeminiStatus is the status name Google's APIs give an HTTP status.
func GeminiStatus(status int) string { return errorNameOf(status).gemini }

// GeminiCountBody is :countTokens's answer.
func GeminiCountBody(n int) []byte {
	e := enc{b: make([]byte, 0, 64), first: true}
	e.obj()
	e.kint("totalTokens", int64(n))
	e.key("promptTokensDetails")
	modality(&e, n)
	e.end()
	return e.b
}

// GeminiModelsBody is GET /v1beta/models.
func GeminiModelsBody(models []string) []byte {
	e := enc{b: make([]byte, 0, 160*len(models)+16), first: true}
	e.obj()
	kobjs(&e, "models", models, func(m string) {
		e.kstr("name", "models/"+m)
		e.kstr("version", "001")
		e.kstr("displayName", m)
		e.kint("inputTokenLimit", 1048576)
		e.kint("outputTokenLimit", 65536)
		e.kstrs("supportedGenerationMethods", "generateContent", "countTokens")
	})
	e.end()
	return e.b
}
