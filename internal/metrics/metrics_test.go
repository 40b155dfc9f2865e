package metrics

import (
	"bytes"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// both is one set of metrics made twice, with this package and with client_golang (what
// lembas-check used before): the same calls on each must write the same bytes.
type both struct {
	ours   *Registry
	theirs *prometheus.Registry
	inc    func(labels ...string)
	add    func(v float64, labels ...string)
	set    func(v float64, labels ...string)
	obs    func(v float64, labels ...string)
	plain  func(v float64)
}

func newBoth() both {
	b := both{ours: NewRegistry(), theirs: prometheus.NewRegistry()}
	c := b.ours.CounterVec("lembas_x_requests_total", "Requests, by route\\and \"status\".\nTwo lines.",
		"route", "status")
	pc := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_x_requests_total",
		Help: "Requests, by route\\and \"status\".\nTwo lines."}, []string{"route", "status"})
	g := b.ours.GaugeVec("vllm:ratio", "A ratio.", "model_name")
	pg := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "vllm:ratio", Help: "A ratio."}, []string{"model_name"})
	buckets := ExponentialBuckets(0.001, 4, 10)
	h := b.ours.HistogramVec("lembas_x_seconds", "Durations.", buckets, "route")
	ph := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lembas_x_seconds", Help: "Durations.",
		Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)}, []string{"route"})
	p := b.ours.Counter("lembas_x_tokens_total", "Tokens.")
	pp := prometheus.NewCounter(prometheus.CounterOpts{Name: "lembas_x_tokens_total", Help: "Tokens."})
	b.ours.CounterVec("lembas_x_unused_total", "Never asked for.", "run")
	pu := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lembas_x_unused_total", Help: "Never asked for."},
		[]string{"run"})
	b.theirs.MustRegister(pc, pg, ph, pp, pu)
	b.inc = func(l ...string) { c.With(l[0], l[1]).Inc(); pc.WithLabelValues(l...).Inc() }
	b.add = func(v float64, l ...string) { c.With(l...).Add(v); pc.WithLabelValues(l...).Add(v) }
	b.set = func(v float64, l ...string) { g.With(l...).Set(v); pg.WithLabelValues(l...).Set(v) }
	b.obs = func(v float64, l ...string) { h.With(l...).Observe(v); ph.WithLabelValues(l...).Observe(v) }
	b.plain = func(v float64) { p.Add(v); pp.Add(v) }
	return b
}

func (b both) texts(t *testing.T) (ours, theirs string) {
	t.Helper()
	var o bytes.Buffer
	if err := b.ours.Write(&o); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(b.theirs, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	mine := httptest.NewRecorder()
	b.ours.Handler().ServeHTTP(mine, httptest.NewRequest("GET", "/metrics", nil))
	if a, w := mine.Header().Get("Content-Type"), rec.Header().Get("Content-Type"); a != w {
		t.Errorf("Content-Type %q, client_golang's %q", a, w)
	}
	if mine.Body.String() != o.String() {
		t.Errorf("the handler's text is not Write's")
	}
	return o.String(), rec.Body.String()
}

func TestTextIsClientGolangs(t *testing.T) {
	b := newBoth()
	if o, w := b.texts(t); o != w {
		t.Errorf("at the start:\n%s\nclient_golang:\n%s", o, w)
	}
	b.inc("/v1/chat/completions", "200")
	b.inc("/v1/chat/completions", "200")
	b.inc("proxy \"odd\"\\path\n", "499")
	b.add(2.5, "/a", "500")
	b.add(3, "/a", "500")
	b.add(0.1, "/a", "500")
	b.add(0.2, "/a", "500")
	b.inc("/a", "200")
	b.set(0.25, "m-b")
	b.set(math.Inf(1), "m-a")
	b.set(1e-9, "m-c")
	for _, v := range []float64{0, 0.001, 0.0011, 0.5, 3, 300, 1e6, 0.016} {
		b.obs(v, "/v1/responses")
	}
	b.obs(0.3, "/a")
	b.plain(12)
	b.plain(0.7)
	b.plain(1 << 40)
	o, w := b.texts(t)
	if o != w {
		t.Errorf("ours:\n%s\nclient_golang:\n%s", o, w)
	}
	// And a Prometheus parser reads it.
	parser := expfmt.NewTextParser(model.UTF8Validation)
	if _, err := parser.TextToMetricFamilies(bytes.NewBufferString(o)); err != nil {
		t.Errorf("expfmt does not parse it: %v", err)
	}
}

func TestWriteTextfileIsClientGolangs(t *testing.T) {
	b := newBoth()
	b.inc("/x", "200")
	b.obs(0.02, "/x")
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours.prom"), filepath.Join(dir, "theirs.prom")
	if err := b.ours.WriteTextfile(ours); err != nil {
		t.Fatal(err)
	}
	if err := prometheus.WriteToTextfile(theirs, b.theirs); err != nil {
		t.Fatal(err)
	}
	o, _ := os.ReadFile(ours)
	w, _ := os.ReadFile(theirs)
	if !bytes.Equal(o, w) {
		t.Errorf("ours:\n%s\nclient_golang:\n%s", o, w)
	}
	for _, p := range []string{ours, theirs} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, %v", p, fi.Mode(), err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files left in the folder, want the two", len(entries))
	}
}
