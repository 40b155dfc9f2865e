package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"

	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Settings are the bench's settings as a person gives them (its flags; docs/bench.md), all but
// how its report is written.
type Settings struct {
	Target
	Variants    []string
	Concurrency int
	Rate        float64
	Cold        bool
	// Prices is --prices' file ("": the built-in table).
	Prices string
	// MetricsListen serves Prometheus metrics on this address while the bench runs;
	// MetricsTextfile writes them to this file at the end.
	MetricsListen, MetricsTextfile string
}

// Run benches the recordings at path (one, or a folder's), with the progress line and what the
// metrics say on log. With no result, cut is why the bench was not made, said as bench says it.
// With a result, cut is what cut it short (the result stands, its status says so), and metrics
// the textfile not written (the bench is not done, and its result says so).
func (s Settings) Run(ctx context.Context, path string, log io.Writer) (res *Result, cut, metrics error) {
	if err := s.check(); err != nil {
		return nil, err, nil
	}
	vs, err := ParseVariants(s.Variants)
	if err != nil {
		return nil, err, nil
	}
	// reading is the reader the bench reads now, for the progress line's bytes.
	var reading atomic.Pointer[replay.Reader]
	recs, err := Recordings(path, func(r *replay.Reader) { reading.Store(r) })
	if err != nil {
		return nil, err, nil
	}
	table, err := prices.Open(s.Prices)
	if err != nil {
		return nil, err, nil
	}
	opts := Options{Variants: vs, Cold: s.Cold, Prices: table, Adjust: s.Server.Adjust(), Concurrency: s.Concurrency,
		Rate: s.Rate}
	sim, err := s.Target.Setup(ctx, path, recs, &opts)
	if err != nil {
		return nil, err, nil
	}
	if sim != nil {
		defer sim.Close()
	}
	m, stop, err := s.metrics(path, sim, log)
	if err != nil {
		return nil, err, nil
	}
	defer stop()
	bar := progress.New(log, "lembas-check bench "+path)
	watch(&opts, bar, m, recs, &reading)
	bar.Start()
	res, benchErr := BenchAll(ctx, recs, opts)
	bar.Stop()
	return s.finish(ended{res: res, err: benchErr, m: m, sim: sim}, path, log)
}

// check refuses settings no bench can be made with.
func (s Settings) check() error {
	if (s.Server.URL == "") == !s.Sim {
		return errors.New("bench needs --server URL, or --sim for the simulator (not both)")
	}
	if s.Concurrency < 1 || s.Rate < 0 {
		return fmt.Errorf("--concurrency %d, --rate %g: want 1 or more sessions, and a rate of 0 (all at once) or more",
			s.Concurrency, s.Rate)
	}
	return nil
}

// metrics makes the bench's metrics, served on --metrics-listen's address when it is given;
// stop ends serving them.
func (s Settings) metrics(path string, sim *Sim, log io.Writer) (m *Metrics, stop func(), err error) {
	m = NewMetrics()
	if sim != nil {
		m.Info(path, sim.Name())
	} else {
		m.Info(path, s.Server.URL)
	}
	if s.MetricsListen == "" {
		return m, func() {}, nil
	}
	url, stop, err := m.Listen(s.MetricsListen)
	if err != nil {
		return nil, nil, fmt.Errorf("--metrics-listen: %v", err)
	}
	fmt.Fprintf(log, "lembas-check: metrics on %s\n", url)
	return m, stop, nil
}

// watch hooks the progress line and the metrics to the bench's phases and rows: a phase that
// reads the recordings shows the bytes read, one that sends requests the rows answered.
func watch(opts *Options, bar *progress.Bar, m *Metrics, recs []Recording, reading *atomic.Pointer[replay.Reader]) {
	var size int64
	for _, r := range recs {
		size += progress.FileSize(r.Name)
	}
	var done atomic.Int64
	opts.OnPhase = func(run, step string, requests int) {
		if run != "" {
			m.Start(run)
			step = run + ": " + step
		}
		done.Store(0)
		if requests > 0 {
			bar.Phase(step, int64(requests), "requests")
			return
		}
		bar.Phase(step, size, progress.Bytes)
		reading.Store(nil) // the step's own reader is opened next
		bar.Poll(func() int64 {
			if r := reading.Load(); r != nil {
				return r.Offset()
			}
			return 0
		})
	}
	opts.OnPredicted = func() { bar.Set(done.Add(1), "") }
	opts.OnRow = func(r Row) {
		m.Observe(r)
		note := "cached: not reported"
		switch {
		case r.Usage.CachedTokens != nil && r.Predicted != nil:
			note = fmt.Sprintf("cached %d, predicted %d", *r.Usage.CachedTokens, *r.Predicted)
		case r.Usage.CachedTokens != nil:
			note = fmt.Sprintf("cached %d", *r.Usage.CachedTokens)
		case r.Why != "":
			note = r.Why
		}
		bar.Set(done.Add(1), note)
	}
}

// ended is a bench as BenchAll ended it, with its metrics and simulator (nil for a server).
type ended struct {
	res *Result
	err error
	m   *Metrics
	sim *Sim
}

// finish writes the metrics' textfile and returns what Run does for the bench's result.
func (s Settings) finish(e ended, path string, log io.Writer) (*Result, error, error) {
	res, benchErr, m, sim := e.res, e.err, e.m, e.sim
	var textErr error
	if s.MetricsTextfile != "" {
		textErr = format.FileErr("--metrics-textfile", s.MetricsTextfile, m.WriteTextfile(s.MetricsTextfile))
	}
	if res == nil {
		if textErr != nil {
			fmt.Fprintf(log, "lembas-check: %v\n", textErr)
		}
		return nil, fmt.Errorf("bench %s: %v", path, benchErr), nil
	}
	if textErr != nil && res.Stopped == "" {
		// The bench is not done until its metrics are written: its summary must not say ok.
		res.Stopped = textErr.Error()
	}
	res.File = path
	if sim != nil {
		res.Server = sim.Name()
	}
	var le *replay.LineError
	if benchErr != nil && !errors.As(benchErr, &le) {
		benchErr = fmt.Errorf("bench %s: %v", path, benchErr)
	}
	return res, benchErr, textErr
}

// WriteSummaries writes the summary lines (Summaries), for the table's stdout.
func WriteSummaries(w io.Writer, res *Result) error {
	for _, s := range Summaries(res) {
		if _, err := fmt.Fprintln(w, s); err != nil {
			return err
		}
	}
	return nil
}

// ParseVariants reads --variant's values.
func ParseVariants(list []string) ([]Variant, error) {
	var vs []Variant
	for _, s := range list {
		v, err := ParseVariant(s)
		if err != nil {
			return nil, fmt.Errorf("--variant: %v", err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// Recordings are what bench replays: one recording (or request log), or each *.jsonl of a
// folder, in name order, each checked to open. opened is told of each reader as it is opened
// (the progress line counts its bytes).
func Recordings(path string, opened func(*replay.Reader)) ([]Recording, error) {
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		m, err := filepath.Glob(filepath.Join(path, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: a folder with no recording (*.jsonl) in it", path)
		}
		sort.Strings(m)
		files = m
	}
	var out []Recording
	for _, f := range files {
		open := func() (replay.Source, io.Closer, error) {
			r, c, err := replay.OpenFile(f)
			if err == nil {
				opened(r)
			}
			return r, c, err
		}
		_, c, err := open()
		if err != nil {
			return nil, err
		}
		c.Close()
		out = append(out, Recording{Name: f, Open: open, scanned: &scanned{}})
	}
	return out, nil
}

// Target is what the bench measures and how it predicts, as a person gives it (--server or
// --sim, --cache-slots, --tokenizer, --slot-prompt-similarity; docs/bench.md).
type Target struct {
	Server replay.ServerSettings
	Sim    bool
	Slots  int
	// Tokenizer is "" (the server's own when it is a llama-server, else tiktoken), "server",
	// "tiktoken", or a llama.cpp tokenizer's URL.
	Tokenizer  string
	Similarity float64
}

// Setup fills o's Sender, Tokenizer, LlamaServer, Predictor and Reset for the target: the
// simulator started in-process (returned, for the caller to Close), or the server asked what it
// is, so that the prediction is configured like the server it measures. Its errors name the flag
// at fault, or the recording (path) for a server that could not be asked.
func (t Target) Setup(ctx context.Context, path string, recs []Recording, o *Options) (_ *Sim, err error) {
	var counter tokens.Tokenizer
	switch t.Tokenizer {
	case "", "server": // the server's own, once it says what it is
	default:
		counter, err = tokens.New(t.Tokenizer)
	}
	if err != nil {
		return nil, err
	}
	var sim *Sim
	defer func() {
		if err != nil && sim != nil {
			sim.Close()
		}
	}()
	if t.Sim {
		if t.Tokenizer == "" || t.Tokenizer == "server" {
			if counter, err = tokens.NewTiktoken(); err != nil {
				return nil, err
			}
		}
		if sim, err = StartSim(recs, t.Slots, counter); err != nil {
			return nil, fmt.Errorf("--sim: %v", err)
		}
		t.Server.URL = sim.BaseURL()
		o.Reset, o.ServerOrder = sim.Reset, sim.Order
	}
	if o.Sender, err = t.Server.Sender(); err != nil {
		return nil, err
	}
	predict := PredictorConfig{Slots: t.Slots, Similarity: t.Similarity}
	if sim == nil {
		// Configured like the server it measures: a llama-server says its slots and context, and
		// counts with its own tokenizer.
		info, err := o.Sender.LlamaServer(ctx)
		if err != nil {
			return nil, fmt.Errorf("bench %s: %v", path, err)
		}
		o.LlamaServer = info
		if counter == nil {
			if info != nil {
				counter = tokens.NewServer(t.Server.URL)
			} else if counter, err = tokens.NewTiktoken(); err != nil {
				return nil, err
			}
		}
		if info != nil {
			predict.Slots, predict.Context = info.Slots, info.Context
			if o.Cold {
				// Whether it keeps prompts in RAM, which /props does not say: three requests of
				// one token each.
				ram, said, ok := o.Sender.ProbeRAMCache(ctx, info.Model)
				info.RAMProbe = said
				if ok {
					info.RAMCache, predict.RAM = &ram, ram
					predict.RAMSaid = "probed"
				}
			}
		}
		if t.Tokenizer == "server" && info == nil {
			return nil, fmt.Errorf("--tokenizer server: %s is not a llama-server (GET /props has no total_slots): "+
				"give a tokenizer's URL, or leave --tokenizer out", t.Server.URL)
		}
	}
	o.Tokenizer = counter
	if sim != nil || o.LlamaServer != nil {
		predict.Tokenizer = counter
		if o.Predictor, err = NewPredictor(predict); err != nil {
			return nil, err
		}
	}
	return sim, nil
}
