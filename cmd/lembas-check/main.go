// Command lembas-check tells whether implementations of harness spec 3.1.0 behave as the spec
// says, and how much prompt cache their sessions keep. This package holds flags and wiring only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand: its name, a line of help, and what runs it. run returns the process's
// exit status: 0 success, 1 a failure found, 2 the job could not be done.
type command struct {
	name, usage, help string
	run               func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands is every subcommand; adding one is adding a value here.
func commands() []command {
	return []command{
		{"run", "run [flags]", "run the conformance suite against the reference or an implementation", cmdRun},
		{"list", "list [flags] [--json]", "list the cases, with their ids", cmdList},
		{"show", "show [flags] ID", "print one case with its expectation", cmdShow},
		{"spec", "spec [verify DIR [--allow-extra]]", "print the vendored spec's version and pinned files, or compare a project's copy with them", cmdSpec},
		{"fake", "fake [--script FILE] [--listen ADDR] [--record FILE]", "serve an OpenAI-compatible fake model server (prints its URL first)", cmdFake},
		{"record", "record --out FILE [--script FILE | --upstream URL] -- CMD", "run CMD against the fake (or a recording proxy) and record every exchange", cmdRecord},
		{"live", "live --agent NAME|FILE|'CMD' [--acp|--oneshot] [--scenario S]… [--record DIR] [flags]", "drive a real agent through scenarios (midnight, a mode change, two prompts, a compaction) with the fake as its model, and judge what it sent by the prefix rules", cmdLive},
		{"diff", "diff --a X --b Y [flags]", "compare two implementations case by case: builtin, an adapter command, or a saved JSON report", cmdDiff},
		{"smoke", "smoke --impl 'CMD ARGS'", "check an adapter itself: hello, areas, one trivial case per area, bye", cmdSmoke},
		{"adapter", "adapter", "serve the builtin reference over the adapter protocol on stdin/stdout", cmdAdapter},
		{"audit", "audit REC [--format F] [--svg FILE] [--tokenizer URL] [--allow CAUSE]", "find where each request of a recorded session breaks the prefix, and what it costs; exit 1 on a break the spec does not allow", cmdAudit},
		{"replay", "replay REC --server URL [--mode frozen|live|timed] [--record FILE]", "send a recording's requests to an OpenAI-compatible server again, timing each and reading its cached tokens", cmdReplay},
		{"bench", "bench REC --server URL|--sim [--variant V] [--metrics-listen ADDR]", "replay a recording against a server (or the simulator) and measure cached tokens and times beside the audit's prediction; variants side by side", cmdBench},
		{"export", "export REC [--out FILE] [--block N]", "write a recording as a Mooncake-style trace (timestamps, lengths, prefix block hash ids; no text)", cmdExport},
		{"version", "version", "print lembas-check's version and the spec version it checks", cmdVersion},
	}
}

func main() { os.Exit(runMain(os.Args[1:])) }

// runMain runs a command as the process does: Ctrl-C (SIGINT) and SIGTERM end its context, and
// the command ends what it started, writes what it has, and says it was interrupted (exit 2).
func runMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return dispatch(ctx, args, os.Stdout, os.Stderr)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// The main job on the embedded defaults.
		args = []string{"run"}
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "lembas-check: no command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: lembas-check <command> [flags]")
	fmt.Fprintln(w)
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  %s\n      %s\n", c.usage, c.help)
	}
	fmt.Fprintln(w, "\n`lembas-check <command> -h` lists a command's flags. Exit status: 0 ok, 1 a failure found, 2 could not run.")
}

// newFlags makes a command's flag set; its errors go to stderr and mean exit 2.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("lembas-check "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags wherever they stand among the positional arguments (`show ID -v` works as
// `show -v ID`), and returns the positional ones. A bad flag returns errBadFlags (exit 2).
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, errBadFlags
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

var (
	errBadFlags = errors.New("bad flags")
	errHelp     = errors.New("help")
)

// flagExit is the exit status for a parse error: 0 for -h, 2 for a bad flag.
func flagExit(err error) int {
	if errors.Is(err, errHelp) {
		return 0
	}
	return 2
}

// listFlag is a flag that may be given several times, or once with commas.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// commandFlag is a flag naming a command or an implementation (--impl, --a, --b): given, it must
// say something. An empty or blank value is a usage error, not the default: `--impl "$IMPL"` with
// the variable unset must not run the builtin reference and pass.
type commandFlag struct{ value *string }

func (c commandFlag) String() string {
	if c.value == nil {
		return ""
	}
	return *c.value
}

func (c commandFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty: give a command ('CMD ARGS'); is the variable that should hold it set?")
	}
	*c.value = s
	return nil
}

func addCommandFlag(fs *flag.FlagSet, name, value, usage string) *string {
	p := new(string)
	*p = value
	fs.Var(commandFlag{p}, name, usage)
	return p
}

// repeatFlag is a flag that may be given several times (paths may hold commas).
type repeatFlag []string

func (r *repeatFlag) String() string { return strings.Join(*r, " ") }

func (r *repeatFlag) Set(s string) error { *r = append(*r, s); return nil }

func errorf(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "lembas-check: "+format+"\n", args...)
	return 2
}
