package main

import (
	"context"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/internal/cachebench/bench"
	"github.com/LLeMbas/lembas-check/internal/format"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench", stderr)
	sf := addServerFlags(fs)
	var st bench.Settings
	fs.BoolVar(&st.Sim, "sim", false,
		"bench against the fake provider in-process, its cached tokens from the cache simulator (no server needed: "+
			"for CI)")
	fs.IntVar(&st.Slots, "cache-slots", 1,
		"with --sim: the simulator's prompt cache slots, `N` (as llama-server -np N)")
	fs.IntVar(&st.Slots, "slots", 1, "the same as --cache-slots (the name fake and record use)")
	fs.Var((*listFlag)(&st.Variants), "variant",
		"also run the session rewritten by `VARIANT`: date-in-system[:N], prune-results, tool-churn[:N] (N: the "+
			"request where it changes; default the middle)")
	fs.StringVar(&st.Tokenizer, "tokenizer", "",
		"count tokens for the predictions with a llama.cpp server's tokenizer at `URL` (\"server\": the --server; "+
			"\"tiktoken\": o200k_base offline); default: the server's own when it is a llama-server, else tiktoken")
	fs.Float64Var(&st.Similarity, "slot-prompt-similarity", 0,
		"predict with the llama-server's --slot-prompt-similarity `F`, which it does not report (default its "+
			"default, 0.1)")
	fs.IntVar(&st.Concurrency, "concurrency", 1,
		"replay `N` sessions at once: N copies of the recording, or N of a folder's recordings at a time")
	fs.Float64Var(&st.Rate, "rate", 0, "with --concurrency: start at most `R` sessions a second (default: all at once)")
	fs.BoolVar(&st.Cold, "cold", true,
		"empty the server's slots before each run where it offers it (llama.cpp POST /slots/{id}?action=erase)")
	form := fs.String("format", "table", "report `FORMAT`: "+bench.Formats.Help())
	out := fs.String("out", "", format.OutUsage)
	verbose := fs.Bool("v", false, "list every request of every run side by side")
	fs.StringVar(&st.MetricsListen, "metrics-listen", "",
		"serve Prometheus metrics on `ADDR` (/metrics) while the bench runs")
	fs.StringVar(&st.MetricsTextfile, "metrics-textfile", "",
		"write Prometheus metrics to `FILE` at the end (node_exporter's textfile collector)")
	pf := addPriceFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "bench takes one recording, request log or folder of recordings (got %d arguments)",
			len(pos))
	}
	if _, err := bench.Formats.Lookup(*form); err != nil {
		return errorf(stderr, "%v", err)
	}
	st.Server, st.Prices = *sf, *pf
	res, cut, metricsErr := st.Run(ctx, pos[0], stderr)
	if res == nil {
		return errorf(stderr, "%v", cut)
	}
	o := format.Output{Format: *form, Out: *out, Verbose: *verbose}
	if err := format.Write(bench.Formats, o, res, stdout, bench.WriteSummaries); err != nil {
		return errorf(stderr, "%v", err)
	}
	if cut != nil {
		fmt.Fprintf(stderr, "lembas-check: %v\n", cut)
	}
	if metricsErr != nil {
		return errorf(stderr, "%v", metricsErr)
	}
	return bench.Status(res).Code()
}
