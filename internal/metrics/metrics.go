// Package metrics is the few Prometheus metrics lembas-check serves (the fake's /metrics, the
// bench's --metrics-listen and --metrics-textfile): counters, gauges and histograms, with or
// without labels, written in the text exposition format 0.0.4 as client_golang writes it (families
// sorted by name, children by their label values, HELP then TYPE). It replaces client_golang,
// whose init (its registry, procfs, protobuf: about 1.5 ms) every lembas-check process paid.
package metrics

import (
	"bufio"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry holds metric families and writes them.
type Registry struct {
	mu   sync.Mutex
	fams []*family
}

// NewRegistry is an empty registry.
func NewRegistry() *Registry { return &Registry{} }

type kind int

const (
	counter kind = iota
	gauge
	histogram
)

// family is one metric name: its children, by their label values.
type family struct {
	name, help string
	kind       kind
	labels     []string
	buckets    []float64
	// mu is read-locked to find a child: every request of a server looks its series up.
	mu       sync.RWMutex
	children map[string]*child
}

// child is one labelled series.
type child struct {
	values []string
	// A counter's or gauge's value: an integer part and a float part, added apart as
	// client_golang's counter does, so the sums are the same doubles.
	ints  atomic.Uint64
	bits  atomic.Uint64
	mu    sync.Mutex // a histogram's observations
	count uint64
	sum   float64
	hits  []uint64 // per bucket, not cumulative
}

func (r *Registry) add(name, help string, k kind, labels []string, buckets []float64) *family {
	f := &family{name: name, help: help, kind: k, labels: labels, buckets: buckets, children: map[string]*child{}}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, g := range r.fams {
		if g.name == name {
			panic("metrics: " + name + " registered twice")
		}
	}
	r.fams = append(r.fams, f)
	return f
}

// with is the child of these label values, made at 0 when first asked for.
func (f *family) with(values []string) *child {
	if len(values) != len(f.labels) {
		panic("metrics: " + f.name + ": " + strconv.Itoa(len(values)) + " label values for " +
			strconv.Itoa(len(f.labels)) + " labels")
	}
	key := strings.Join(values, "\xff")
	f.mu.RLock()
	c, ok := f.children[key]
	f.mu.RUnlock()
	if ok {
		return c
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok = f.children[key]
	if !ok {
		c = &child{values: append([]string(nil), values...)}
		if f.kind == histogram {
			c.hits = make([]uint64, len(f.buckets))
		}
		f.children[key] = c
	}
	return c
}

// Counter is a value that only goes up.
type Counter struct{ c *child }

// Inc adds 1.
func (c Counter) Inc() { c.c.ints.Add(1) }

// Add adds v (≥ 0): whole numbers to the integer part, the rest to the float part.
func (c Counter) Add(v float64) {
	if v < 0 {
		panic("metrics: a counter cannot go down")
	}
	if u := uint64(v); float64(u) == v {
		c.c.ints.Add(u)
		return
	}
	addFloat(&c.c.bits, v)
}

func addFloat(bits *atomic.Uint64, v float64) {
	for {
		old := bits.Load()
		if bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// Gauge is a value that is set.
type Gauge struct{ c *child }

// Set makes the gauge v.
func (g Gauge) Set(v float64) { g.c.bits.Store(math.Float64bits(v)) }

// Histogram counts observations into buckets.
type Histogram struct {
	c       *child
	buckets []float64
}

// Observe counts v in the first bucket whose upper bound is ≥ v, and in the sum.
func (h Histogram) Observe(v float64) {
	i := sort.SearchFloat64s(h.buckets, v)
	h.c.mu.Lock()
	defer h.c.mu.Unlock()
	if i < len(h.buckets) {
		h.c.hits[i]++
	}
	h.c.count++
	h.c.sum += v
}

// CounterVec is a counter per set of label values.
type CounterVec struct{ f *family }

// With is the counter of these label values (in the order the labels were named).
func (v CounterVec) With(values ...string) Counter { return Counter{v.f.with(values)} }

// GaugeVec is a gauge per set of label values.
type GaugeVec struct{ f *family }

// With is the gauge of these label values.
func (v GaugeVec) With(values ...string) Gauge { return Gauge{v.f.with(values)} }

// HistogramVec is a histogram per set of label values.
type HistogramVec struct{ f *family }

// With is the histogram of these label values.
func (v HistogramVec) With(values ...string) Histogram {
	return Histogram{v.f.with(values), v.f.buckets}
}

// Counter registers a counter without labels: it is written from the start, at 0.
func (r *Registry) Counter(name, help string) Counter {
	return Counter{r.add(name, help, counter, nil, nil).with(nil)}
}

// CounterVec registers a labelled counter; a child is written once it has been asked for.
func (r *Registry) CounterVec(name, help string, labels ...string) CounterVec {
	return CounterVec{r.add(name, help, counter, labels, nil)}
}

// GaugeVec registers a labelled gauge.
func (r *Registry) GaugeVec(name, help string, labels ...string) GaugeVec {
	return GaugeVec{r.add(name, help, gauge, labels, nil)}
}

// HistogramVec registers a labelled histogram with these bucket upper bounds (ascending; +Inf is
// implied).
func (r *Registry) HistogramVec(name, help string, buckets []float64, labels ...string) HistogramVec {
	return HistogramVec{r.add(name, help, histogram, labels, buckets)}
}

// ExponentialBuckets is count bounds, the first start, each the one before times factor.
func ExponentialBuckets(start, factor float64, count int) []float64 {
	b := make([]float64, count)
	for i := range b {
		b[i] = start
		start *= factor
	}
	return b
}

// ContentType is the text format's, as client_golang's handler says it.
const ContentType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"

// Handler serves the metrics in the text format.
func (r *Registry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ContentType)
		_ = r.Write(w)
	})
}

// WriteTextfile writes the metrics to path for node_exporter's textfile collector, atomically (a
// temporary file beside it, renamed into place).
func (r *Registry) WriteTextfile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := r.Write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Write writes every family that has a child, in the text format.
func (r *Registry) Write(w io.Writer) error {
	r.mu.Lock()
	fams := append([]*family(nil), r.fams...)
	r.mu.Unlock()
	sort.Slice(fams, func(i, j int) bool { return fams[i].name < fams[j].name })
	bw := bufio.NewWriter(w)
	for _, f := range fams {
		f.write(bw)
	}
	return bw.Flush()
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

var kinds = [...]string{counter: "counter", gauge: "gauge", histogram: "histogram"}

// write writes a family: nothing when it has no child, as client_golang writes none.
func (f *family) write(w *bufio.Writer) {
	f.mu.RLock()
	children := make([]*child, 0, len(f.children))
	for _, c := range f.children {
		children = append(children, c)
	}
	f.mu.RUnlock()
	if len(children) == 0 {
		return
	}
	// Labels are written sorted by name, and children sorted by their values in that order.
	order := make([]int, len(f.labels))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return f.labels[order[i]] < f.labels[order[j]] })
	sort.Slice(children, func(i, j int) bool {
		for _, k := range order {
			if a, b := children[i].values[k], children[j].values[k]; a != b {
				return a < b
			}
		}
		return false
	})
	w.WriteString("# HELP " + f.name + " ")
	helpEscaper.WriteString(w, f.help)
	w.WriteString("\n# TYPE " + f.name + " " + kinds[f.kind] + "\n")
	for _, c := range children {
		labels := f.labelText(c, order)
		if f.kind != histogram {
			value := math.Float64frombits(c.bits.Load()) + float64(c.ints.Load())
			sample(w, f.name, labels, "", value)
			continue
		}
		c.mu.Lock()
		var cum uint64
		for i, bound := range f.buckets {
			cum += c.hits[i]
			sample(w, f.name+"_bucket", labels, `le="`+float(bound)+`"`, float64(cum))
		}
		sample(w, f.name+"_bucket", labels, `le="+Inf"`, float64(c.count))
		sample(w, f.name+"_sum", labels, "", c.sum)
		sample(w, f.name+"_count", labels, "", float64(c.count))
		c.mu.Unlock()
	}
}

// labelText is a child's labels as written between the braces: name="value", comma-separated.
func (f *family) labelText(c *child, order []int) string {
	var b strings.Builder
	for n, k := range order {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.labels[k] + `="`)
		labelEscaper.WriteString(&b, c.values[k])
		b.WriteByte('"')
	}
	return b.String()
}

// sample writes one line: the name, the labels and extra in braces if any, the value.
func sample(w *bufio.Writer, name, labels, extra string, value float64) {
	w.WriteString(name)
	if labels != "" || extra != "" {
		w.WriteByte('{')
		w.WriteString(labels)
		if labels != "" && extra != "" {
			w.WriteByte(',')
		}
		w.WriteString(extra + "}")
	}
	w.WriteString(" " + float(value) + "\n")
}

// float is a value as the text format writes it (Go's shortest form, +Inf, -Inf, NaN).
func float(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
