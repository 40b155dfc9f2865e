package fakeprovider

import (
	"net/http"
	"strconv"
	"time"

	"github.com/LLeMbas/lembas-check/internal/metrics"
)

// serverMetrics are what /metrics serves. Each server has its own registry, so tests may run many.
type serverMetrics struct {
	reg        *metrics.Registry
	requests   metrics.CounterVec
	streams    metrics.HistogramVec
	prompt     metrics.Counter
	cached     metrics.Counter
	completion metrics.Counter
}

func newMetrics() *serverMetrics {
	reg := metrics.NewRegistry()
	return &serverMetrics{
		reg: reg,
		requests: reg.CounterVec("lembas_fake_requests_total",
			"Requests served, by route and HTTP status.", "route", "status"),
		streams: reg.HistogramVec("lembas_fake_stream_duration_seconds",
			"How long streamed responses took, from the request to the last byte.",
			metrics.ExponentialBuckets(0.001, 4, 10), "route"),
		prompt: reg.Counter("lembas_fake_prompt_tokens_total",
			"Prompt tokens of the requests answered, as the cache simulator counts them."),
		cached:     reg.Counter("lembas_fake_cached_tokens_total", "Prompt tokens the cache simulator found cached."),
		completion: reg.Counter("lembas_fake_completion_tokens_total", "Completion tokens of the replies sent."),
	}
}

func (m *serverMetrics) handler() http.Handler { return m.reg.Handler() }

// proxied are the paths a proxied request is labelled by; any other is "proxy other".
var proxied = []string{"/v1/chat/completions", "/v1/responses", "/v1/models", "/v1/completions", "/v1/embeddings"}

// done counts a finished request. The route is the pattern that served it (for the proxy, a known
// API path), so a client probing random paths cannot grow the label set.
func (m *serverMetrics) done(r *http.Request, tw *trackWriter, d time.Duration, proxy bool) {
	route := r.Pattern
	if proxy && route == "/" {
		route = "proxy other"
		for _, p := range proxied {
			if r.URL.Path == p {
				route = "proxy " + r.Method + " " + p
			}
		}
	}
	if route == "" || route == "/" {
		route = "other"
	}
	status := tw.status
	if status == 0 {
		status = 499 // the client went away before any byte, as nginx counts it
	}
	m.requests.With(route, strconv.Itoa(status)).Inc()
	if tw.stream {
		m.streams.With(route).Observe(d.Seconds())
	}
}

func (m *serverMetrics) tokens(prompt, cached, completion int) {
	m.prompt.Add(float64(prompt))
	m.cached.Add(float64(cached))
	m.completion.Add(float64(completion))
}
