package fakeprovider

import (
	"context"
	"fmt"
	"strings"
)

// requestNumber is the request's number among all the server received (observe counts them), so
// that an error's id and a success's come from one counter: a 200 after a 400 is the next id.
func requestNumber(ctx context.Context) int {
	if n, ok := ctx.Value(noteKey{}).(*exchangeNote); ok {
		return n.num
	}
	return 0
}

// anthropicRequestID is the id the Messages API gives request n, in its header and error bodies.
func anthropicRequestID(n int) string { return fmt.Sprintf("req_fake%d", n) }

// ModelsAbout says which model ids the server answers, for the line that announces it.
func (s *Server) ModelsAbout() string {
	if s.anyModel {
		return "any model id (--model or a script's models: restricts them)"
	}
	return "the models " + strings.Join(s.models, ", ") + " (404 for any other)"
}
