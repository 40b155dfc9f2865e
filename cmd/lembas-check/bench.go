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
	"github.com/LLeMbas/lembas-check/replay"
	"github.com/LLeMbas/lembas-check/tokens"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench", stderr)
	sf := addServerFlags(fs)
	useSim := fs.Bool("sim", false, "bench against the fake provider in-process, its cached tokens from the cache simulator (no server needed: for CI)")
	slots := fs.Int("cache-slots", 1, "with --sim: the simulator's prompt cache slots, `N` (as llama-server -np N)")
	fs.IntVar(slots, "slots", 1, "the same as --cache-slots (the name fake and record use)")
	var variants listFlag
	fs.Var(&variants, "variant", "also run the session rewritten by `VARIANT`: date-in-system[:N], prune-results, tool-churn[:N] (N: the request where it changes; default the middle)")
	tok := fs.String("tokenizer", "", "predict with a llama.cpp server's tokenizer at `URL` (\"server\": the --server), default tiktoken o200k_base offline")
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
		return errorf(stderr, "bench takes one recording or request log (got %d arguments)", len(pos))
	}
	if (sf.url == "") == !*useSim {
		return errorf(stderr, "bench needs --server URL, or --sim for the simulator (not both)")
	}
	if _, err := bench.Formats.Lookup(*form); err != nil {
		return errorf(stderr, "%v", err)
	}
	var vs []bench.Variant
	for _, s := range variants {
		v, err := bench.ParseVariant(s)
		if err != nil {
			return errorf(stderr, "--variant: %v", err)
		}
		vs = append(vs, v)
	}
	path := pos[0]
	// reading is the reader the bench reads now, for the progress line's bytes.
	var reading atomic.Pointer[replay.Reader]
	open := func() (replay.Source, io.Closer, error) {
		r, f, err := openRecording(path)
		if err == nil {
			reading.Store(r)
		}
		return r, f, err
	}
	if _, c, err := open(); err != nil {
		return errorf(stderr, "%v", err)
	} else {
		c.Close()
	}
	table, err := pf.table()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	opts := bench.Options{Variants: vs, Cold: *cold, Prices: table, Adjust: sf.adjust()}
	var sim *bench.Sim
	if *useSim {
		if sim, err = bench.StartSim(open, *slots); err != nil {
			return errorf(stderr, "--sim: %v", err)
		}
		defer sim.Close()
		sf.url = sim.BaseURL()
		opts.Reset = sim.Reset
	}
	if opts.Sender, err = sf.sender(); err != nil {
		return errorf(stderr, "%v", err)
	}
	switch *tok {
	case "":
		opts.Tokenizer, err = tokens.NewTiktoken()
	case "server":
		opts.Tokenizer = tokens.NewServer(sf.url)
	default:
		opts.Tokenizer = tokens.NewServer(*tok)
	}
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	m := bench.NewMetrics()
	if sim != nil {
		m.Info(path, sim.Name())
	} else {
		m.Info(path, sf.url)
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
	size := fileSize(path)
	opts.OnPhase = func(run, step string, requests int) {
		if run != "" {
			step = run + ": " + step
		}
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
		if r.Usage.CachedTokens != nil {
			note = fmt.Sprintf("cached %d, predicted %d", *r.Usage.CachedTokens, r.Predicted)
		}
		bar.Set(int64(r.N), note)
	}
	bar.Start()
	res, benchErr := bench.Bench(ctx, open, opts)
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
