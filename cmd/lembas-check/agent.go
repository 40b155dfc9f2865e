package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/cli"
	"github.com/LLeMbas/lembas-check/internal/live/refagent"
	"github.com/LLeMbas/lembas-check/runner"
)

// cmdAgent serves the reference agent over ACP on stdio (or A2A, --http), its model OPENAI_BASE_URL's:
// `run --live 'lembas-check agent'` is the live target's proof, a harness held against it request by request.
func cmdAgent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("agent", stderr)
	base := fs.String("base-url", os.Getenv("OPENAI_BASE_URL"),
		"the model's OpenAI-compatible base `URL` (…/v1); default $OPENAI_BASE_URL")
	model := fs.String("model", os.Getenv("OPENAI_MODEL"),
		"the `MODEL` a session starts on; default $OPENAI_MODEL, else fake-model")
	addr := fs.String("http", "", "serve A2A on `ADDR` (HOST:PORT, 0: any port; its URL on stderr), not ACP on stdio")
	var breaks listFlag
	fs.Var(&breaks, "break",
		"break a rule on purpose, for testing a live target: `FAULT,…` of "+strings.Join(refagent.Breaks, ", "))
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "agent takes no arguments (got %q): it speaks ACP on stdin and stdout", pos)
	}
	// A malformed URL is a mistake in the command line, said now, not at the first prompt.
	if err := cli.CheckURL("--base-url", *base); err != nil {
		return errorf(stderr, "agent: %v", err)
	}
	o := refagent.Options{BaseURL: *base, Key: os.Getenv("OPENAI_API_KEY"), Model: *model, Version: runner.ToolVersion,
		Break: breaks}
	if err := refagent.Run(ctx, *addr, os.Stdin, stdout, stderr, o); err != nil {
		return errorf(stderr, "agent: %v", err)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "lembas-check agent: interrupted")
		return 2
	}
	return 0
}
