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
func TypeFor(status int) string { return errorNameOf(status).openai }

// errorName is what each API calls an HTTP status: OpenAI's error type, Anthropic's error type,
// Google's status name.
type errorName struct{ openai, anthropic, gemini string }

// errorNames are the statuses some API names apart; any other is otherClient or otherServer.
var errorNames = map[int]errorName{
	http.StatusBadRequest:            {TypeInvalidRequest, "invalid_request_error", "INVALID_ARGUMENT"},
	http.StatusUnauthorized:          {TypeAuthentication, "authentication_error", "UNAUTHENTICATED"},
	http.StatusPaymentRequired:       {TypeInvalidRequest, "billing_error", "FAILED_PRECONDITION"},
	http.StatusForbidden:             {TypePermission, "permission_error", "PERMISSION_DENIED"},
	http.StatusNotFound:              {TypeInvalidRequest, "not_found_error", "NOT_FOUND"},
	http.StatusRequestEntityTooLarge: {TypeInvalidRequest, "request_too_large", "FAILED_PRECONDITION"},
	http.StatusTooManyRequests:       {TypeRateLimit, "rate_limit_error", "RESOURCE_EXHAUSTED"},
	http.StatusServiceUnavailable:    {TypeServer, "api_error", "UNAVAILABLE"},
	http.StatusGatewayTimeout:        {TypeServer, "timeout_error", "DEADLINE_EXCEEDED"},
	529:                              {TypeServer, "overloaded_error", "INTERNAL"}, // Anthropic's "overloaded"
}

var (
	otherClient = errorName{TypeInvalidRequest, "invalid_request_error", "FAILED_PRECONDITION"}
	otherServer = errorName{TypeServer, "api_error", "INTERNAL"}
)

func errorNameOf(status int) errorName {
	if n, ok := errorNames[status]; ok {
		return n
	}
	if status >= 500 {
		return otherServer
	}
	return otherClient
}

func badJSON(why string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Code: "invalid_json",
		Message: "We could not parse the JSON body of your request: " + why + ". The API expects a JSON object."}
}

func missing(param string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: param,
		Code:    "missing_required_parameter",
		Message: fmt.Sprintf("Missing required parameter: '%s'.", param)}
}

func invalidType(param, want string, got json.RawMessage) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: param, Code: "invalid_type",
		Message: fmt.Sprintf("Invalid type for '%s': expected %s, but got %s instead.", param, want, jsonKind(got))}
}

// UnknownModel is the 404 for a model the server does not serve.
func UnknownModel(model string, served []string) *Error {
	return &Error{Status: http.StatusNotFound, Type: TypeInvalidRequest, Param: "model", Code: "model_not_found",
		Message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it. This server serves %s.",
			model, quoteList(served))}
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
