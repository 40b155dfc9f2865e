package main

import (
	"context"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/format"
)

// tokenizerUsage is --tokenizer's of audit and export: tiktoken offline by default, or a llama.cpp
// server's own.
const tokenizerUsage = "count tokens with a llama.cpp server's /apply-template and /tokenize at `URL` (\"tiktoken\" " +
	"or none: tiktoken o200k_base, offline)"

func cmdAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("audit", stderr)
	form := fs.String("format", "table", "report `FORMAT`: "+audit.Formats.Help())
	out := fs.String("out", "", format.OutUsage)
	svg := fs.String("svg", "", "also draw the chart (cached share and lost tokens per request) to `FILE`")
	verbose := fs.Bool("v", false, "list every request in the table, not only the breaks")
	var st audit.Settings
	fs.StringVar(&st.Tokenizer, "tokenizer", "", tokenizerUsage)
	fs.Var(
		(*listFlag)(&st.Allow),
		"allow",
		"breaks that do not fail the audit: `CAUSE,…` "+
			"(system-prompt-changed, tools-changed, earlier-message-rewritten)",
	)
	pf := addPriceFlags(fs)
	fs.StringVar(&st.Provider, "provider", "",
		"judge chat-completions and Responses requests by this provider's cache rules too: `NAME` (openai; Anthropic "+
			"and Gemini requests always follow their own)")
	fs.Var((*listFlag)(&st.TTL), "ttl",
		"a provider's cache TTL instead of its default: `PROVIDER=DURATION,…` (openai=10m, gemini=1h)")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "audit takes one recording or request log (got %d arguments)", len(pos))
	}
	if _, err := audit.Formats.Lookup(*form); err != nil {
		return errorf(stderr, "%v", err)
	}
	st.Prices = *pf
	rep, damaged, err := st.Run(ctx, pos[0], stderr)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if *svg != "" {
		if err := format.WriteFile("--svg", *svg, func(w io.Writer) error {
			return audit.WriteSVG(w,
				rep)
		}); err != nil {
			return errorf(stderr, "%v", err)
		}
	}
	o := format.Output{Format: *form, Out: *out, Verbose: *verbose}
	if err := format.Write(audit.Formats, o, rep, stdout, func(w io.Writer, r *audit.Report) error {
		_,
			err := fmt.Fprintln(w, audit.Summary(r))
		return err
	}); err != nil {
		return errorf(stderr, "%v", err)
	}
	if damaged != nil {
		fmt.Fprintf(stderr, "lembas-check: %v\n", damaged)
	}
	return audit.Status(rep).Code()
}
