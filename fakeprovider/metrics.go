package fakeprovider

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are what /metrics serves. Each server has its own registry, so tests may run many.
type metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	streams    *prometheus.HistogramVec
	prompt     prometheus.Counter
	cached     prometheus.Counter
	completion prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lembas_fake_requests_total",
			Help: "Requests served, by route and HTTP status.",
		}, []string{"route", "status"}),
		streams: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "lembas_fake_stream_duration_seconds",
			Help:    "How long streamed responses took, from the request to the last byte.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10),
		}, []string{"route"}),
		prompt: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lembas_fake_prompt_tokens_total",
			Help: "Prompt tokens of the requests answered, as the cache simulator counts them.",
		}),
		cached: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lembas_fake_cached_tokens_total",
			Help: "Prompt tokens the cache simulator found cached.",
		}),
		completion: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lembas_fake_completion_tokens_total",
			Help: "Completion tokens of the replies sent.",
		}),
	}
	m.reg.MustRegister(m.requests, m.streams, m.prompt, m.cached, m.completion)
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// proxied are the paths a proxied request is labelled by; any other is "proxy other".
var proxied = []string{"/v1/chat/completions", "/v1/responses", "/v1/models", "/v1/completions", "/v1/embeddings"}

// done counts a finished request. The route is the pattern that served it (for the proxy, a known
// API path), so a client probing random paths cannot grow the label set.
func (m *metrics) done(r *http.Request, tw *trackWriter, d time.Duration, proxy bool) {
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
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	if tw.stream {
		m.streams.WithLabelValues(route).Observe(d.Seconds())
	}
}

func (m *metrics) tokens(prompt, cached, completion int) {
	m.prompt.Add(float64(prompt))
	m.cached.Add(float64(cached))
	m.completion.Add(float64(completion))
}
