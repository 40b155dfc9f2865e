package fakeprovider

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// proxy forwards every request to a real OpenAI-compatible server and streams its answer back
// as it comes, each read written and flushed at once, so the recording (made by observe around
// it) holds the upstream's chunks with their times.
//
// The upstream is a base URL like the one an agent would be given, joined to each request's path
// as the replay joins its server's (replay.JoinURL: a leading `/v1` both have is not repeated).
func (s *Server) proxy(upstream string) (http.Handler, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--upstream %q: want an http(s) base URL such as http://127.0.0.1:8080/v1", upstream)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host = u.Scheme, u.Host
			pr.Out.URL.Path = replay.JoinURL(u.Path, pr.In.URL.Path)
			pr.Out.URL.RawPath = ""
			pr.Out.Host = ""
			// Let the transport ask for gzip and undo it, so what is recorded is readable.
			pr.Out.Header.Del("Accept-Encoding")
		},
		Transport:     tr,
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				fail(r.Context(), "the client hung up before the upstream answered: %v", err)
				return
			}
			fail(r.Context(), "the upstream %s could not be reached: %v", upstream, err)
			writeError(w, &wire.Error{Status: http.StatusBadGateway, Type: wire.TypeServer,
				Code: "upstream_unreachable",
				Message: fmt.Sprintf("lembas-check's recording proxy could not reach the upstream %s: %v", upstream,
					err)})
		},
	}, nil
}
