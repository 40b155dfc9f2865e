package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// `--features DIR` takes the folder as the next word; `--features` alone stays the embedded ones
// (the table was cmd's TestJoinFeatureArg, when the joining was cmd's).
func TestJoinOptional(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Var(&Optional{}, "features", "")
	fs.String("area", "", "")
	for _, c := range []struct{ in, want []string }{
		{[]string{"--features"}, []string{"--features"}},
		{[]string{"--features", "dir"}, []string{"--features=dir"}},
		{[]string{"-features", "dir", "--area", "jobs"}, []string{"-features=dir", "--area", "jobs"}},
		{[]string{"--features", "--area", "jobs"}, []string{"--features", "--area", "jobs"}},
		{[]string{"--features=dir"}, []string{"--features=dir"}},
		{[]string{"--", "--features", "dir"}, []string{"--", "--features", "dir"}},
	} {
		if got := joinOptional(fs, c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("joinOptional(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func newSet(stderr io.Writer) (*flag.FlagSet, *Optional) {
	fs := NewFlagSet("prog", Command{Synopsis: "cmd REC [flags]", Help: "does a thing"}, stderr)
	fs.Duration("timeout", time.Second, "wait at most this long")
	fs.Int("jobs", 1, "run `N` at once")
	fs.Bool("v", false, "say more")
	opt := &Optional{}
	fs.Var(opt, "features", "also `[DIR]`")
	return fs, opt
}

func TestParse(t *testing.T) {
	var errb bytes.Buffer
	fs, opt := newSet(&errb)
	pos, err := Parse(fs, []string{"a.jsonl", "-v", "--features", "dir", "b", "--", "-c"})
	if err != nil || !reflect.DeepEqual(pos, []string{"a.jsonl", "b", "-c"}) || !opt.Given || opt.Value != "dir" {
		t.Fatalf("%q %v %+v", pos, err, opt)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--timeout", "5"}, "prog cmd: --timeout 5: want a duration, such as 5s, 2m or 1h30m\nrun 'prog cmd -h' for its usage\n"},
		{[]string{"--jobs=two"}, "prog cmd: --jobs two: want a whole number\n"},
		{[]string{"--timeout", ""}, `prog cmd: --timeout "": want a duration`},
		{[]string{"--nope"}, "prog cmd: no flag --nope\n"},
	} {
		errb.Reset()
		fs, _ := newSet(&errb)
		if _, err := Parse(fs, c.args); err != ErrUsage || Exit(err) != 2 || !strings.HasPrefix(errb.String(), c.want) {
			t.Errorf("%q: %v, stderr %q, want it to start %q", c.args, err, errb.String(), c.want)
		}
	}
	errb.Reset()
	fs, _ = newSet(&errb)
	if _, err := Parse(fs, []string{"-h"}); err != ErrHelp || Exit(err) != 0 {
		t.Fatalf("-h: %v", err)
	}
	want := "usage: prog cmd REC [flags]\n\ndoes a thing\n\nflags:\n  --features [DIR]\n        also [DIR]\n  --jobs N\n        run N at once (default 1)\n  --timeout DURATION\n        wait at most this long (default 1s)\n  -v\n        say more\n"
	if errb.String() != want {
		t.Errorf("-h:\n%s\nwant:\n%s", errb.String(), want)
	}
}

func TestProgram(t *testing.T) {
	ran := ""
	p := Program{Name: "prog", Version: "prog v1", Footer: "see the docs", Commands: []Command{
		{Synopsis: "run [flags]", Help: "runs", Run: func(_ context.Context, args []string, _, _ io.Writer) int { ran = strings.Join(args, " "); return 1 }},
	}}
	var out, errb bytes.Buffer
	if code := p.Main(context.Background(), nil, &out, &errb); code != 2 || !strings.HasPrefix(errb.String(), "usage: prog <command> [flags]\n\n  run [flags]\n      runs\n\nsee the docs\n") {
		t.Errorf("alone: %d %q", code, errb.String())
	}
	out.Reset()
	if code := p.Main(context.Background(), []string{"--version"}, &out, &errb); code != 0 || out.String() != "prog v1\n" {
		t.Errorf("--version: %d %q", code, out.String())
	}
	if code := p.Main(context.Background(), []string{"run", "x"}, &out, &errb); code != 1 || ran != "x" {
		t.Errorf("run: %d %q", code, ran)
	}
	errb.Reset()
	if code := p.Main(context.Background(), []string{"nope"}, &out, &errb); code != 2 || !strings.HasPrefix(errb.String(), `prog: no command "nope"`) {
		t.Errorf("nope: %d %q", code, errb.String())
	}
}

func TestCommandVar(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	impl := CommandVar(fs, "impl", "builtin", "")
	if err := fs.Parse([]string{"--impl", " "}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("a blank --impl: %v", err)
	}
	if err := fs.Parse([]string{"--impl", "node a.mjs"}); err != nil || *impl != "node a.mjs" {
		t.Errorf("%q %v", *impl, err)
	}
	var l List
	l.Set("a, b")
	l.Set("c")
	if !reflect.DeepEqual([]string(l), []string{"a", "b", "c"}) {
		t.Errorf("List %q", l)
	}
}
