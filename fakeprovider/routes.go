package fakeprovider

import (
	"net/http"
	"strings"
)

// routeMux is the server's mux, keeping each pattern registered so that the 404 for an unknown
// path lists every route the fake serves, whichever part of it registered the route.
type routeMux struct {
	*http.ServeMux
	patterns []string
}

func (m *routeMux) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.HandleFunc(pattern, h)
}

func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.Handle(pattern, h)
}

// served lists the routes, each path once with its methods ("GET, POST /v1/x"); a path also
// served without its /v1 (for base URLs that leave it out) is listed once, with /v1.
func (m *routeMux) served() string {
	var paths []string
	methods := map[string][]string{}
	has := map[string]bool{}
	for _, p := range m.patterns {
		method, path, ok := strings.Cut(p, " ")
		if !ok { // the catch-all
			continue
		}
		has[path] = true
		if methods[path] == nil {
			paths = append(paths, path)
		}
		methods[path] = append(methods[path], method)
	}
	var out []string
	for _, p := range paths {
		if !strings.HasPrefix(p, "/v1") && has["/v1"+p] {
			continue
		}
		out = append(out, strings.Join(methods[p], ", ")+" "+p)
	}
	return strings.Join(out, "; ") + "; each /v1 path also without /v1"
}
