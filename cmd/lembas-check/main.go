// Command lembas-check tells whether implementations of harness spec 3.1.0 behave as the spec
// says, and how much prompt cache their sessions keep. This package holds flags and wiring only.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/cli"
	"github.com/LLeMbas/lembas-check/internal/proc"
	"github.com/LLeMbas/lembas-check/runner"
)

// program is lembas-check's command table; adding a command is adding a value here. Each Run
// returns the exit status: 0 ok, 1 a failure found, 2 the job not made or not finished.
func program() cli.Program {
	return cli.Program{
		Name:    "lembas-check",
		Version: "lembas-check " + runner.ToolVersion + " (harness spec " + spec.Version() + ")",
		Commands: []cli.Command{
			{Synopsis: "run [flags]", Help: "run the conformance suite against the reference or an implementation",
				Run: cmdRun},
			{Synopsis: "list [flags]", Help: "list the cases, with their ids", Run: cmdList},
			{Synopsis: "show ID [flags]", Help: "print one case (by its id, or the start of one) with its expectation",
				Run: cmdShow},
			{Synopsis: "spec [verify DIR] [flags]",
				Help: "print the vendored spec's version and pinned files, or compare a project's copy with them",
				Run:  cmdSpec},
			{Synopsis: "fake [flags]",
				Help: "serve a fake model server speaking OpenAI's chat completions and Responses, Anthropic's " +
					"Messages and Gemini's generateContent (prints its URL first)", Run: cmdFake},
			{Synopsis: "record --out FILE [flags] -- CMD [ARGS]",
				Help: "run CMD against the fake (or a recording proxy) and record every exchange", Run: cmdRecord},
			{Synopsis: "live --agent NAME|FILE|'CMD' [flags]",
				Help: "drive a real agent through scenarios (midnight, a mode change, two prompts, a compaction) " +
					"with the fake as its model, and judge what it sent by the prefix rules", Run: cmdLive},
			{Synopsis: "diff --b Y [--a X] [flags]",
				Help: "compare two implementations case by case: builtin, an adapter command, or a saved JSON report",
				Run:  cmdDiff},
			{Synopsis: "smoke --impl CMD [flags]",
				Help: "check an adapter itself: hello, areas, one trivial case per area, bye", Run: cmdSmoke},
			{Synopsis: "agent [flags]",
				Help: "serve lembas-check's reference agent over ACP on stdin/stdout, its model $OPENAI_BASE_URL " +
					"(the live target's proof: run --live 'lembas-check agent')", Run: cmdAgent},
			{Synopsis: "adapter", Help: "serve the builtin reference over the adapter protocol on stdin/stdout",
				Run: cmdAdapter},
			{Synopsis: "audit REC [flags]",
				Help: "find where each request of a recorded session breaks the prefix, and what it costs; exit 1 on " +
					"a break the spec does not allow", Run: cmdAudit},
			{Synopsis: "diff-recordings A B [flags]",
				Help: "compare two recordings request by request: what differs apart from ids and times, the prefix " +
					"they share and its cost; exit 1 on a difference that changes a cached prefix",
				Run: cmdDiffRecordings},
			{Synopsis: "replay REC --server URL [flags]",
				Help: "send a recording's requests to an OpenAI-compatible server again, timing each and reading its " +
					"cached tokens", Run: cmdReplay},
			{Synopsis: "bench REC --server URL|--sim [flags]",
				Help: "replay a recording against a server (or the simulator) and measure cached tokens and times " +
					"beside the audit's prediction; variants side by side", Run: cmdBench},
			{Synopsis: "export REC [flags]",
				Help: "write a recording as a Mooncake-style trace (timestamps, lengths, prefix block hash ids; no " +
					"text)", Run: cmdExport},
			{Synopsis: "schema [AREA…]",
				Help: "print the JSON Schemas (draft 2020-12) of the areas' cases and answers, " +
					"made from their Go types",
				Run: cmdSchema},
			{Synopsis: "version", Help: "print lembas-check's version (from the build) and the spec version it checks",
				Run: cmdVersion},
		},
		Footer: "`lembas-check <command> -h` lists a command's flags. Exit status: 0 ok, 1 a failure found, 2 not " +
			"made or not finished.",
	}
}

func main() { os.Exit(runMain(os.Args[1:])) }

// runMain runs a command as the process does: Ctrl-C (SIGINT) and SIGTERM end its context, and
// the command ends what it started, writes what it has, and says it was interrupted (exit 2).
func runMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal asks for an orderly end; a second one is not caught, and ends the process.
	context.AfterFunc(ctx, stop)
	code := dispatch(ctx, args, os.Stdout, os.Stderr)
	// Nothing outlives lembas-check: what a process it started left (and its own end missed) is
	// ended here, and named.
	if s := proc.Summary(proc.Sweep(2*time.Second), "a command"); s != "" {
		fmt.Fprintf(os.Stderr, "lembas-check: %s\n", s)
	}
	return code
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return program().Main(ctx, args, stdout, stderr)
}

// newFlags makes a command's flag set: -h shows its synopsis and flags; its errors go to stderr.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	c, _ := program().Lookup(name)
	return cli.NewFlagSet("lembas-check", c, stderr)
}

// parse parses flags among the positional arguments and returns those (cli.Parse).
func parse(fs *flag.FlagSet, args []string) ([]string, error) { return cli.Parse(fs, args) }

// flagExit is the exit status for a parse error: 0 for -h, 2 for a bad flag.
func flagExit(err error) int { return cli.Exit(err) }

type (
	listFlag   = cli.List
	repeatFlag = cli.Repeat
)

func addCommandFlag(fs *flag.FlagSet, name, value, usage string) *string {
	return cli.CommandVar(fs, name, value, usage)
}

func errorf(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "lembas-check: "+format+"\n", args...)
	return 2
}
