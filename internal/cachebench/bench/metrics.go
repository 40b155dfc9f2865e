package bench

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are one bench's as Prometheus metrics — served while it runs (`--metrics-listen`) or
// written as a textfile for node_exporter's textfile collector (`--metrics-textfile`) —
// labelled by run (baseline, or the variant).
type Metrics struct {
	Registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	prompt      *prometheus.CounterVec
	cached      *prometheus.CounterVec
	notReported *prometheus.CounterVec
	predicted   *prometheus.CounterVec
	simulated   *prometheus.CounterVec
	errors      *prometheus.CounterVec
	promptSecs  *prometheus.CounterVec
	ttft        *prometheus.HistogramVec
	total       *prometheus.HistogramVec
	lastCached  *prometheus.GaugeVec
	info        *prometheus.GaugeVec
}

// NewMetrics registers the bench's metrics in a registry of their own.
func NewMetrics() *Metrics {
	m := &Metrics{Registry: prometheus.NewRegistry()}
	run := []string{"run"}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_requests_total",
		Help: "Requests replayed, by run and HTTP status."}, []string{"run", "status"})
	m.prompt = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_prompt_tokens_total",
		Help: "Prompt tokens the server reported."}, run)
	m.cached = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_cached_tokens_total",
		Help: "Prompt tokens the server reported taking from its cache."}, run)
	m.notReported = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_cache_not_reported_total",
		Help: "Answers that did not report cached tokens (not the same as 0)."}, run)
	m.predicted = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_predicted_reusable_tokens_total",
		Help: "Tokens the audit predicted a prefix cache could reuse."}, run)
	m.simulated = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_predicted_cached_tokens_total",
		Help: "Tokens the simulator configured like the server predicted it would take from its cache."}, run)
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_server_errors_total",
		Help: "Requests the server answered with an error or cut short (counted apart from cache misses)."}, run)
	m.promptSecs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_bench_prompt_processing_seconds_total",
		Help: "Time the server reported reading prompts (llama.cpp timings.prompt_ms)."}, run)
	buckets := prometheus.ExponentialBuckets(0.01, 2, 16)
	m.ttft = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lembas_bench_time_to_first_token_seconds",
		Help: "Time to the first token of each answer.", Buckets: buckets}, run)
	m.total = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lembas_bench_request_seconds",
		Help: "Time to the last byte of each answer.", Buckets: buckets}, run)
	// A ratio, as Prometheus names a 0–1 fraction (it was lembas_bench_last_cached_share before any
	// release; docs/bench.md).
	m.lastCached = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "lembas_bench_last_cached_ratio",
		Help: "The last answer's cached tokens ÷ its prompt tokens (0–1)."}, run)
	m.info = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "lembas_bench_info",
		Help: "1, labelled with the recording benched and the server it was benched " +
			"against."}, []string{"recording", "server"})
	m.Registry.MustRegister(m.requests, m.prompt, m.cached, m.notReported, m.predicted, m.simulated, m.errors,
		m.promptSecs, m.ttft, m.total, m.lastCached, m.info)
	return m
}

// Info names what is benched — the recording and the server (its URL, or the simulator) — in
// lembas_bench_info, as Prometheus's _info metrics name a target.
func (m *Metrics) Info(recording, server string) {
	m.info.WithLabelValues(recording, server).Set(1)
}

// Start makes every metric of a run exist at 0 before its first request (a counter that is
// absent is not the same as one at 0).
func (m *Metrics) Start(run string) {
	m.requests.WithLabelValues(run, "200")
	for _, c := range []*prometheus.CounterVec{m.prompt, m.cached, m.notReported, m.predicted, m.simulated, m.errors,
		m.promptSecs} {
		c.WithLabelValues(run)
	}
	m.ttft.WithLabelValues(run)
	m.total.WithLabelValues(run)
	m.lastCached.WithLabelValues(run)
}

// Observe records one request of a run.
func (m *Metrics) Observe(r Row) {
	m.requests.WithLabelValues(r.Run, strconv.Itoa(r.Status)).Inc()
	m.predicted.WithLabelValues(r.Run).Add(float64(r.Reusable))
	if r.counted() {
		m.simulated.WithLabelValues(r.Run).Add(float64(*r.Predicted))
	}
	if r.Error != "" {
		m.errors.WithLabelValues(r.Run).Inc()
	}
	if r.Usage.PromptTokens != nil {
		m.prompt.WithLabelValues(r.Run).Add(float64(*r.Usage.PromptTokens))
	}
	if r.Usage.CachedTokens != nil {
		m.cached.WithLabelValues(r.Run).Add(float64(*r.Usage.CachedTokens))
		if r.Usage.PromptTokens != nil && *r.Usage.PromptTokens > 0 {
			m.lastCached.WithLabelValues(r.Run).Set(float64(*r.Usage.CachedTokens) / float64(*r.Usage.PromptTokens))
		}
	} else {
		m.notReported.WithLabelValues(r.Run).Inc()
	}
	if r.Usage.PromptMS != nil {
		m.promptSecs.WithLabelValues(r.Run).Add(*r.Usage.PromptMS / 1000)
	}
	m.ttft.WithLabelValues(r.Run).Observe(r.TTFT.Seconds())
	m.total.WithLabelValues(r.Run).Observe(r.Total.Seconds())
}

// Handler serves the metrics (GET /metrics).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

// Listen serves the metrics on addr (GET /metrics) until stop is called, and says where.
func (m *Metrics) Listen(addr string) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/metrics", func() { srv.Close() }, nil
}

// WriteTextfile writes the metrics for node_exporter's textfile collector (atomically, as
// prometheus.WriteToTextfile does: a temporary file renamed into place).
func (m *Metrics) WriteTextfile(path string) error {
	return prometheus.WriteToTextfile(path, m.Registry)
}
