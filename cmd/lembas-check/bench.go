package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/LLeMbas/lembas-check/internal/format"
	"io"
	"sync/atomic"

	"github.com/LLeMbas/lembas-check/cachebench/bench"
	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/prices"
	"github.com/LLeMbas/lembas-check/replay"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench", stderr)
	sf := addServerFlags(fs)
	useSim := fs.Bool("sim", false, "bench against the fake provider in-process, its cached tokens from the cache simulator (no server needed: for CI)")
	slots := fs.Int("cache-slots", 1, "with --sim: the simulator's prompt cache slots, `N` (as llama-server -np N)")
	fs.IntVar(slots, "slots", 1, "the same as --cache-slots (the name fake and record use)")
	var variants listFlag
	fs.Var(&variants, "variant", "also run the session rewritten by `VARIANT`: date-in-system[:N], prune-results, tool-churn[:N] (N: the request where it changes; default the middle)")
	tok := fs.String("tokenizer", "", "count tokens for the predictions with a llama.cpp server's tokenizer at `URL` (\"server\": the --server; \"tiktoken\": o200k_base offline); default: the server's own when it is a llama-server, else tiktoken")
	similarity := fs.Float64("slot-prompt-similarity", 0, "predict with the llama-server's --slot-prompt-similarity `F`, which it does not report (default its default, 0.1)")
	concurrency := fs.Int("concurrency", 1, "replay `N` sessions at once: N copies of the recording, or N of a folder's recordings at a time")
	rate := fs.Float64("rate", 0, "with --concurrency: start at most `R` sessions a second (default: all at once)")
	cold := fs.Bool("cold", true, "empty the server's slots before each run where it offers it (llama.cpp POST /slots/{id}?action=erase)")
	form := fs.String("format", "table", "report `FORMAT`: "+bench.Formats.Help())
	out := fs.String("out", "", "write the report to `FILE` (the summary lines still go to stdout)")
	verbose := fs.Bool("v", false, "list every request of every run side by side")
	listen := fs.String("metrics-listen", "", "serve Prometheus metrics on `ADDR` (/metrics) while the bench runs")
	textfile := fs.String("metrics-textfile", "", "write Prometheus metrics to `FILE` at the end (node_exporter's textfile collector)")
	pf := addPriceFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "bench takes one recording, request log or folder of recordings (got %d arguments)", len(pos))
	}
	if (sf.URL == "") == !*useSim {
		return errorf(stderr, "bench needs --server URL, or --sim for the simulator (not both)")
	}
	if _, err := bench.Formats.Lookup(*form); err != nil {
		return errorf(stderr, "%v", err)
	}
	if *concurrency < 1 || *rate < 0 {
		return errorf(stderr, "--concurrency %d, --rate %g: want 1 or more sessions, and a rate of 0 (all at once) or more", *concurrency, *rate)
	}
	vs, err := bench.ParseVariants(variants)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	path := pos[0]
	// reading is the reader the bench reads now, for the progress line's bytes.
	var reading atomic.Pointer[replay.Reader]
	recs, err := bench.Recordings(path, func(r *replay.Reader) { reading.Store(r) })
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	table, err := prices.Open(*pf)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	opts := bench.Options{Variants: vs, Cold: *cold, Prices: table, Adjust: sf.Adjust(), Concurrency: *concurrency, Rate: *rate}
	bt := bench.Target{Server: *sf, Sim: *useSim, Slots: *slots, Tokenizer: *tok, Similarity: *similarity}
	sim, err := bt.Setup(ctx, path, recs, &opts)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if sim != nil {
		defer sim.Close()
	}
	m := bench.NewMetrics()
	if sim != nil {
		m.Info(path, sim.Name())
	} else {
		m.Info(path, sf.URL)
	}
	if *listen != "" {
		url, stop, err := m.Listen(*listen)
		if err != nil {
			return errorf(stderr, "--metrics-listen: %v", err)
		}
		defer stop()
		fmt.Fprintf(stderr, "lembas-check: metrics on %s\n", url)
	}
	bar := progress.New(stderr, "lembas-check bench "+path)
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
	opts.OnRow = func(r bench.Row) {
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
	bar.Start()
	res, benchErr := bench.BenchAll(ctx, recs, opts)
	bar.Stop()
	var textErr error
	if *textfile != "" {
		textErr = format.FileErr("--metrics-textfile", *textfile, m.WriteTextfile(*textfile))
	}
	if res == nil {
		if textErr != nil {
			fmt.Fprintf(stderr, "lembas-check: %v\n", textErr)
		}
		return errorf(stderr, "bench %s: %v", path, benchErr)
	}
	if textErr != nil && res.Stopped == "" {
		// The bench is not done until its metrics are written: its summary must not say ok.
		res.Stopped = textErr.Error()
	}
	res.File = path
	if sim != nil {
		res.Server = sim.Name()
	}
	o := format.Output{Format: *form, Out: *out, Verbose: *verbose}
	if err := format.Write(bench.Formats, o, res, stdout, writeSummaries); err != nil {
		return errorf(stderr, "%v", err)
	}
	if benchErr != nil {
		var le *replay.LineError
		if errors.As(benchErr, &le) {
			fmt.Fprintf(stderr, "lembas-check: %v\n", benchErr)
		} else {
			fmt.Fprintf(stderr, "lembas-check: bench %s: %v\n", path, benchErr)
		}
	}
	if textErr != nil {
		return errorf(stderr, "%v", textErr)
	}
	return bench.Status(res).Code()
}

func writeSummaries(w io.Writer, res *bench.Result) error {
	for _, s := range bench.Summaries(res) {
		if _, err := fmt.Fprintln(w, s); err != nil {
			return err
		}
	}
	return nil
}
