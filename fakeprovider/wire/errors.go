package wire

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error types as OpenAI names them.
const (
	TypeInvalidRequest = "invalid_request_error"
	TypeRateLimit      = "rate_limit_error"
	TypeServer         = "server_error"
	TypeAuthentication = "authentication_error"
	TypePermission     = "permission_error"
)

// Error is an HTTP error answered with OpenAI's body: {"error": {message, type, param, code}}.
// Param and Code are null when empty.
type Error struct {
	Status  int
	Message string
	Type    string
	Param   string
	Code    string
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Message) }

// Body is the error's JSON body.
func (e *Error) Body() []byte {
	typ := e.Type
	if typ == "" {
		typ = TypeFor(e.Status)
	}
	e2 := enc{b: make([]byte, 0, 128+len(e.Message)), first: true}
	e2.obj()
	e2.key("error")
	e2.obj()
	e2.kstr("message", e.Message)
	e2.kstr("type", typ)
	e2.kstrOrNull("param", e.Param)
	e2.kstrOrNull("code", e.Code)
	e2.end()
	e2.end()
	return e2.b
}

// TypeFor is the error type OpenAI gives a status.
func TypeFor(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return TypeAuthentication
	case status == http.StatusForbidden:
		return TypePermission
	case status == http.StatusNotFound:
		return TypeInvalidRequest
	case status == http.StatusTooManyRequests:
		return TypeRateLimit
	case status >= 500:
		return TypeServer
	}
	return TypeInvalidRequest
}

func badJSON(why string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Code: "invalid_json",
		Message: "We could not parse the JSON body of your request: " + why + ". The API expects a JSON object."}
}

func missing(param string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: param, Code: "missing_required_parameter",
		Message: fmt.Sprintf("Missing required parameter: '%s'.", param)}
}

func invalidType(param, want string, got json.RawMessage) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: param, Code: "invalid_type",
		Message: fmt.Sprintf("Invalid type for '%s': expected %s, but got %s instead.", param, want, jsonKind(got))}
}

// UnknownModel is the 404 for a model the server does not serve.
func UnknownModel(model string, served []string) *Error {
	return &Error{Status: http.StatusNotFound, Type: TypeInvalidRequest, Param: "model", Code: "model_not_found",
		Message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it. This server serves %s.", model, quoteList(served))}
}

// TooLarge is the 413 for a body over the limit.
func TooLarge(limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Type: TypeInvalidRequest, Code: "request_too_large",
		Message: fmt.Sprintf("The request body is over this server's limit of %d bytes.", limit)}
}

func quoteList(s []string) string {
	if len(s) == 0 {
		return "no model"
	}
	out := ""
	for i, m := range s {
		if i > 0 {
			out += ", "
		}
		out += "`" + m + "`"
	}
	return out
}
