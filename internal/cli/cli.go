// Package cli is lembas-check's command line as a Go user expects one: a table of commands, each
// with a synopsis; `-h` that starts with the synopsis and lists the flags as `--name`; a bad flag
// or value as a message naming it with `--` and saying what it wants, exit 2; flags anywhere among
// the positional arguments; and the few kinds of flag value the commands share.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Command is one subcommand.
type Command struct {
	// Synopsis is how it is called, its name first: "audit REC [flags]".
	Synopsis string
	// Help says in a line what it does.
	Help string
	// Run runs it and returns the exit status: 0 ok, 1 a failure found, 2 not made or not finished.
	Run func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// Name is the command's name, the synopsis's first word.
func (c Command) Name() string { name, _, _ := strings.Cut(c.Synopsis, " "); return name }

// Program is the table of commands and what the program says of itself.
type Program struct {
	Name     string
	Version  string
	Commands []Command
	// Footer ends the usage: where to read more, the exit rule.
	Footer string
}

// Main runs the command args[0] names. Alone, the program prints its usage (exit 2); `help`,
// `-h` and `--help` print it too (exit 0); `--version` prints the version line.
func (p Program) Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		p.Usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		p.Usage(stdout)
		return 0
	case "-version", "--version":
		fmt.Fprintln(stdout, p.Version)
		return 0
	}
	for _, c := range p.Commands {
		if c.Name() == args[0] {
			return c.Run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "%s: no command %q\n\n", p.Name, args[0])
	p.Usage(stderr)
	return 2
}

// Usage lists the commands, each with its synopsis and help.
func (p Program) Usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s <command> [flags]\n\n", p.Name)
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %s\n      %s\n", c.Synopsis, c.Help)
	}
	if p.Footer != "" {
		fmt.Fprintf(w, "\n%s\n", p.Footer)
	}
}

// Lookup finds a command by name.
func (p Program) Lookup(name string) (Command, bool) {
	for _, c := range p.Commands {
		if c.Name() == name {
			return c, true
		}
	}
	return Command{}, false
}

// ErrHelp is -h given: the usage was printed, exit 0.
var ErrHelp = flag.ErrHelp

// ErrUsage is a bad flag or value: the message was printed, exit 2.
var ErrUsage = errors.New("usage")

// NewFlagSet makes a command's flag set. Its usage (-h) is the synopsis, the help, and each flag
// as `--name VALUE`; its errors go to stderr.
func NewFlagSet(program string, c Command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(program+" "+c.Name(), flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { writeUsage(fs.Output(), program, c, fs) }
	return fs
}

func writeUsage(w io.Writer, program string, c Command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s %s\n\n%s\n", program, c.Synopsis, c.Help)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(w, "\nflags:")
			first = false
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if isBool(f) && len(f.Name) == 1 {
			line = "  -" + f.Name // -v, as `go test -v`
		}
		if _, opt := f.Value.(*Optional); !isBool(f) || opt {
			line += " " + placeholder(name)
		}
		fmt.Fprintln(w, line)
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "[]" {
			usage += " (default " + d + ")"
		}
		fmt.Fprintf(w, "        %s\n", usage)
	})
}

// placeholder names a flag's value in the usage: the word the flag's help quotes with `…`, or, for
// the flag package's own type names, one word per kind.
func placeholder(name string) string {
	switch name {
	case "duration":
		return "DURATION"
	case "int", "uint", "int64", "uint64":
		return "N"
	case "float":
		return "X"
	case "string", "value", "":
		return "VALUE"
	}
	return name
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Parse parses flags wherever they stand among the positional arguments (`show ID -v` works as
// `show -v ID`; everything after `--` is positional) and returns the positional ones. -h prints the
// usage and returns ErrHelp; a bad flag or value prints what is wrong, naming it with `--`, and
// returns ErrUsage.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	args = joinOptional(fs, args)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				fs.Usage()
				return nil, ErrHelp
			}
			fmt.Fprintf(out, "%s: %s\nrun '%s -h' for its usage\n", fs.Name(), explain(fs, err), fs.Name())
			return nil, ErrUsage
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

// Exit is the exit status for Parse's error: 0 for -h, 2 for a bad flag.
func Exit(err error) int {
	if errors.Is(err, ErrHelp) {
		return 0
	}
	return 2
}

// explain rewrites the flag package's errors as a person wants them: a bad value names its flag
// with `--` and says what kind of value it wants. (No regexp: nothing is compiled at start-up.)
func explain(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		// The flag as a person types it (issue 27: `--nosuch` was echoed as `-nosuch`).
		dashes := "--"
		if len(name) == 1 {
			dashes = "-"
		}
		return fmt.Sprintf("no flag %s%s", dashes, name)
	}
	rest, ok := strings.CutPrefix(msg, "invalid value ")
	if !ok {
		return msg
	}
	val, rest, ok := strings.Cut(rest, " for flag -")
	if !ok {
		return msg
	}
	name, why, ok := strings.Cut(rest, ": ")
	if !ok {
		return msg
	}
	if f := fs.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case time.Duration:
				why = "want a duration, such as 5s, 2m or 1h30m"
			case int, int64, uint, uint64:
				why = "want a whole number"
			case float64:
				why = "want a number"
			case bool:
				why = "want true or false"
			}
		}
	}
	if v, err := strconv.Unquote(val); err == nil && v != "" && !strings.ContainsAny(v, " \t'\"") {
		val = v
	}
	return fmt.Sprintf("--%s %s: %s", name, val, why)
}

// List is a flag that may be given several times, or once with commas: `--area a,b --area c`.
type List []string

func (l *List) String() string { return strings.Join(*l, ",") }

// Set adds the value's comma-separated parts.
func (l *List) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// Repeat is a flag that may be given several times; each value is kept whole (a path may hold a
// comma).
type Repeat []string

func (r *Repeat) String() string { return strings.Join(*r, " ") }

// Set adds the value.
func (r *Repeat) Set(s string) error { *r = append(*r, s); return nil }

// command is a flag naming a command or an implementation: given, it must say something.
type command struct{ value *string }

func (c command) String() string {
	if c.value == nil {
		return ""
	}
	return *c.value
}

func (c command) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty: give a command ('CMD ARGS'); is the variable that should hold it set?")
	}
	*c.value = s
	return nil
}

// CommandVar defines a flag naming a command (--impl, --a, --b). An empty or blank value is a
// usage error, not the default: `--impl "$IMPL"` with the variable unset must not quietly run
// something else and pass.
func CommandVar(fs *flag.FlagSet, name, value, usage string) *string {
	p := new(string)
	*p = value
	CommandTo(fs, p, name, usage)
	return p
}

// CommandTo is CommandVar into a string of the caller's (--live's, a field of its settings).
func CommandTo(fs *flag.FlagSet, p *string, name, usage string) {
	fs.Var(command{p}, name, usage)
}

// Optional is a flag that may stand alone (`--features`: Given, no Value) or take the next word as
// its value (`--features DIR`, as --suite DIR does), when that word is not a flag.
type Optional struct {
	Given bool
	Value string
}

func (o *Optional) String() string {
	if o == nil {
		return ""
	}
	return o.Value
}

// Set marks the flag given, with its value when it has one.
func (o *Optional) Set(s string) error {
	o.Given = true
	if s != "true" {
		o.Value = s
	}
	return nil
}

// IsBoolFlag lets the flag stand alone.
func (o *Optional) IsBoolFlag() bool { return true }

// joinOptional reads `--name VALUE` as `--name=VALUE` for an Optional flag when the next word is
// not a flag, so its value may follow it as another flag's does. Nothing after `--` is touched.
func joinOptional(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name := strings.TrimLeft(a, "-")
		if f := fs.Lookup(name); f != nil && strings.HasPrefix(a,
			"-") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			if _, ok := f.Value.(*Optional); ok {
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// Given says whether the flag name was given on the command line (not left at its default).
func Given(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// CheckURL checks a flag's URL (agent --base-url) at the start, not at its first use: an absolute
// http or https URL with a host. "" is left to the caller (a default, or its own message).
func CheckURL(flag, value string) error {
	if value == "" {
		return nil
	}
	u, err := url.Parse(value)
	if err == nil && (u.Scheme != "http" && u.Scheme != "https" || u.Host == "") {
		err = errors.New("want an http or https URL with a host, as http://127.0.0.1:8080/v1")
	}
	if err != nil {
		return fmt.Errorf("%s %q: %v", flag, value, err)
	}
	return nil
}
