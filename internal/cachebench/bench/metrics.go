package bench

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/LLeMbas/lembas-check/internal/metrics"
)

// Metrics are one bench's as Prometheus metrics — served while it runs (`--metrics-listen`) or
// written as a textfile for node_exporter's textfile collector (`--metrics-textfile`) —
// labelled by run (baseline, or the variant).
type Metrics struct {
	Registry    *metrics.Registry
	requests    metrics.CounterVec
	prompt      metrics.CounterVec
	cached      metrics.CounterVec
	notReported metrics.CounterVec
	predicted   metrics.CounterVec
	simulated   metrics.CounterVec
	errors      metrics.CounterVec
	promptSecs  metrics.CounterVec
	ttft        metrics.HistogramVec
	total       metrics.HistogramVec
	lastCached  metrics.GaugeVec
	info        metrics.GaugeVec
}

// NewMetrics registers the bench's metrics in a registry of their own.
func NewMetrics() *Metrics {
	reg := metrics.NewRegistry()
	m := &Metrics{Registry: reg}
	const run = "run"
	m.requests = reg.CounterVec("lembas_bench_requests_total",
		"Requests replayed, by run and HTTP status.", "run", "status")
	m.prompt = reg.CounterVec("lembas_bench_prompt_tokens_total",
		"Prompt tokens the server reported.", run)
	m.cached = reg.CounterVec("lembas_bench_cached_tokens_total",
		"Prompt tokens the server reported taking from its cache.", run)
	m.notReported = reg.CounterVec("lembas_bench_cache_not_reported_total",
		"Answers that did not report cached tokens (not the same as 0).", run)
	m.predicted = reg.CounterVec("lembas_bench_predicted_reusable_tokens_total",
		"Tokens the audit predicted a prefix cache could reuse.", run)
	m.simulated = reg.CounterVec("lembas_bench_predicted_cached_tokens_total",
		"Tokens the simulator configured like the server predicted it would take from its cache.", run)
	m.errors = reg.CounterVec("lembas_bench_server_errors_total",
		"Requests the server answered with an error or cut short (counted apart from cache misses).", run)
	m.promptSecs = reg.CounterVec("lembas_bench_prompt_processing_seconds_total",
		"Time the server reported reading prompts (llama.cpp timings.prompt_ms).", run)
	buckets := metrics.ExponentialBuckets(0.01, 2, 16)
	m.ttft = reg.HistogramVec("lembas_bench_time_to_first_token_seconds",
		"Time to the first token of each answer.", buckets, run)
	m.total = reg.HistogramVec("lembas_bench_request_seconds",
		"Time to the last byte of each answer.", buckets, run)
	// A ratio, as Prometheus names a 0–1 fraction (it was lembas_bench_last_cached_share before any
	// release; docs/bench.md).
	m.lastCached = reg.GaugeVec("lembas_bench_last_cached_ratio",
		"The last answer's cached tokens ÷ its prompt tokens (0–1).", run)
	m.info = reg.GaugeVec("lembas_bench_info",
		"1, labelled with the recording benched and the server it was benched against.", "recording", "server")
	return m
}

// Info names what is benched — the recording and the server (its URL, or the simulator) — in
// lembas_bench_info, as Prometheus's _info metrics name a target.
func (m *Metrics) Info(recording, server string) {
	m.info.With(recording, server).Set(1)
}

// Start makes every metric of a run exist at 0 before its first request (a counter that is
// absent is not the same as one at 0).
func (m *Metrics) Start(run string) {
	m.requests.With(run, "200")
	for _, c := range []metrics.CounterVec{m.prompt, m.cached, m.notReported, m.predicted, m.simulated, m.errors,
		m.promptSecs} {
		c.With(run)
	}
	m.ttft.With(run)
	m.total.With(run)
	m.lastCached.With(run)
}

// Observe records one request of a run.
func (m *Metrics) Observe(r Row) {
	m.requests.With(r.Run, strconv.Itoa(r.Status)).Inc()
	m.predicted.With(r.Run).Add(float64(r.Reusable))
	if r.counted() {
		m.simulated.With(r.Run).Add(float64(*r.Predicted))
	}
	if r.Error != "" {
		m.errors.With(r.Run).Inc()
	}
	if r.Usage.PromptTokens != nil {
		m.prompt.With(r.Run).Add(float64(*r.Usage.PromptTokens))
	}
	if r.Usage.CachedTokens != nil {
		m.cached.With(r.Run).Add(float64(*r.Usage.CachedTokens))
		if r.Usage.PromptTokens != nil && *r.Usage.PromptTokens > 0 {
			m.lastCached.With(r.Run).Set(float64(*r.Usage.CachedTokens) / float64(*r.Usage.PromptTokens))
		}
	} else {
		m.notReported.With(r.Run).Inc()
	}
	if r.Usage.PromptMS != nil {
		m.promptSecs.With(r.Run).Add(*r.Usage.PromptMS / 1000)
	}
	m.ttft.With(r.Run).Observe(r.TTFT.Seconds())
	m.total.With(r.Run).Observe(r.Total.Seconds())
}

// Handler serves the metrics (GET /metrics).
func (m *Metrics) Handler() http.Handler {
	return m.Registry.Handler()
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

// WriteTextfile writes the metrics for node_exporter's textfile collector (atomically: a
// temporary file renamed into place).
func (m *Metrics) WriteTextfile(path string) error {
	return m.Registry.WriteTextfile(path)
}
