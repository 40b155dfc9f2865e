package audit

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/progress"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// Settings are the audit's settings as a person gives them (its flags; docs/audit.md), all but
// how its report is written.
type Settings struct {
	// Tokenizer is a llama.cpp server's URL ("": tiktoken, offline).
	Tokenizer string
	// Allow are the causes that do not fail the audit (ParseCauses).
	Allow []string
	// Prices is --prices' file ("": the built-in table).
	Prices string
	// Provider judges chat-completions and Responses requests by this provider's rules too.
	Provider string
	// TTL are PROVIDER=DURATION values (cachesim.ParseTTLs).
	TTL []string
}

// Run audits the recording (or request log) file, with the progress line and the requests it
// skipped on log. A report comes back with the damage in the file that cut it short, if any (said
// after the report); err, said as audit says it, is an audit not made or not finished.
func (s Settings) Run(ctx context.Context, file string, log io.Writer) (rep *Report, damaged, err error) {
	allowed, err := ParseCauses(s.Allow)
	if err != nil {
		return nil, nil, err
	}
	ttl, err := cachesim.ParseTTLs(s.TTL)
	if err != nil {
		return nil, nil, err
	}
	table, err := prices.Open(s.Prices)
	if err != nil {
		return nil, nil, err
	}
	tk, err := tokens.New(s.Tokenizer)
	if err != nil {
		return nil, nil, err
	}
	rd, f, err := replay.OpenFile(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	bar := progress.New(log, "lembas-check audit "+file)
	bar.Phase("tokenizing", progress.FileSize(file), progress.Bytes)
	bar.Poll(rd.Offset)
	bar.Start()
	rep, runErr := Run(ctx, rd, Options{Tokenizer: tk, Allow: allowed, Provider: s.Provider, TTL: ttl, Prices: table},
		func(q *Request) {
			bar.Note(fmt.Sprintf("request %d: %s", q.Seq, q.Cause))
		})
	bar.Stop()
	if rep == nil {
		return nil, nil, runErr
	}
	rep.File, rep.Kind = file, rd.Kind
	var le *replay.LineError
	if runErr != nil && !errors.As(runErr, &le) {
		// Not damage in the file: the tokenizer server went away, or the run was interrupted.
		return nil, nil, fmt.Errorf("audit %s: %v", file, runErr)
	}
	for _, p := range rep.Unreadable {
		fmt.Fprintf(log,
			"lembas-check: warning: %s:line %d (request %d): skipped, not a request the audit can read: "+
				"%s\n", file, p.Line, p.Seq, p.Error)
	}
	return rep, runErr, nil
}
