package main

import (
	"context"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangingAdapter is an adapter command that says hello for the jobs area, then, on its first case,
// touches mark and never answers (nor reads bye).
func hangingAdapter(t *testing.T) (impl, mark string) {
	t.Helper()
	dir := t.TempDir()
	mark = filepath.Join(dir, "holding-a-case")
	script := filepath.Join(dir, "hang.sh")
	body := `read l
echo '{"protocol":1,"implementation":{"name":"hang"},"areas":["jobs"]}'
read l
: > "$1"
exec sleep 600
`
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return "sh " + shellQuote(script) + " " + shellQuote(mark), mark
}

// waitFor waits until path exists or done is closed.
func waitFor(path string, done <-chan struct{}) bool {
	for {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		select {
		case <-done:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// junitCounts reads a JUnit file's root counts.
func junitCounts(t *testing.T, path string) (tests, failures, errors int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
	}
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return root.Tests, root.Failures, root.Errors
}

// lastLine is the last non-empty line of out.
func lastLine(out string) string {
	// A summary too wide for 100 columns goes on in lines that start with a tab (term.Line).
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(out, "\n\t", "\t"), "\n"), "\n")
	return lines[len(lines)-1]
}

// An interrupted run (issue 10: a hanging adapter, then Ctrl-C, gave exit 0, "ok … 0 pass, 186
// skip" and a JUnit file with failures="0") exits 2, its summary says ERROR and how many cases were
// interrupted, and its reports are whole, with those cases as errors.
func TestRunInterrupted(t *testing.T) {
	impl, mark := hangingAdapter(t)
	junit := filepath.Join(t.TempDir(), "r.xml")
	ctx, watched := cancelWhenMarked(t, mark)
	var out, errb strings.Builder
	code := dispatch(ctx, []string{"run", "--impl", impl, "--area", "jobs", "--format", "junit", "--out", junit}, &out, &errb)
	<-watched
	last := lastLine(out.String())
	if code != 2 || !strings.HasPrefix(last, "ERROR\t") || !strings.Contains(last, "10 interrupted") {
		t.Fatalf("exit %d, summary %q\n%s", code, last, errb.String())
	}
	tests, failures, errors := junitCounts(t, junit)
	if tests != 10 || failures+errors != 10 {
		t.Errorf("JUnit: tests=%d failures=%d errors=%d", tests, failures, errors)
	}
}

// The same through the process's own signal handling, for SIGINT and SIGTERM: the binary (here the
// test binary playing it) exits 2 with its report written.
func TestRunInterruptedBySignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			impl, mark := hangingAdapter(t)
			junit := filepath.Join(t.TempDir(), "r.xml")
			cmd := exec.Command(os.Args[0], "run", "--impl", impl, "--area", "jobs", "--format", "junit", "--out", junit)
			cmd.Env = append(os.Environ(), "LEMBAS_CHECK_TEST_MAIN=1")
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			if !waitFor(mark, exited) {
				t.Fatalf("the run ended before the adapter held a case: %s%s", out.String(), errb.String())
			}
			cmd.Process.Signal(sig)
			<-exited
			last := lastLine(out.String())
			if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.HasPrefix(last, "ERROR\t") || !strings.Contains(last, "interrupted") {
				t.Fatalf("exit %d, summary %q\n%s", code, last, errb.String())
			}
			if tests, failures, errors := junitCounts(t, junit); tests != 10 || failures+errors != 10 {
				t.Errorf("JUnit: tests=%d failures=%d errors=%d", tests, failures, errors)
			}
		})
	}
}

// An empty or blank --impl, --a or --b is a usage error (issue 10: `run --impl ”` ran the builtin
// reference and passed, so an empty CI variable passed CI).
func TestEmptyCommandFlags(t *testing.T) {
	refuses(t, map[string]refusal{
		"run --impl empty":   {[]string{"run", "--impl", ""}, "empty"},
		"run --impl blank":   {[]string{"run", "--impl", "  "}, "empty"},
		"run --impl=":        {[]string{"run", "--impl="}, "empty"},
		"run --live empty":   {[]string{"run", "--live", ""}, "empty"},
		"run --live blank":   {[]string{"run", "--live", " "}, "empty"},
		"diff --a empty":     {[]string{"diff", "--a", "", "--b", "builtin"}, "empty"},
		"diff --b blank":     {[]string{"diff", "--b", " "}, "empty"},
		"smoke --impl empty": {[]string{"smoke", "--impl", ""}, "empty"},
	})
}

// A selection that matches nothing is exit 2 naming it, in every command that selects (issue 10:
// `run --run 'nomatch/*'` said "ok … 0 cases", exit 0).
func TestSelectionMatchingNothing(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "jobs.json")
	if code, _, errs := runCLI(t, "run", "--area", "jobs", "--format", "json", "--out", saved); code != 0 {
		t.Fatalf("run: %d %s", code, errs)
	}
	refuses(t, map[string]refusal{
		"run --run":               {[]string{"run", "--run", "nomatch/*"}, "--run 'nomatch/*' matches none"},
		"run --features --run":    {[]string{"run", "--features", "--run", "nomatch/*"}, "--run 'nomatch/*' matches none"},
		"run --features --area":   {[]string{"run", "--no-embedded", "--features", "--area", "jobz"}, "--area jobz"},
		"list --run":              {[]string{"list", "--run", "nomatch/*"}, "--run 'nomatch/*' matches none"},
		"list --area":             {[]string{"list", "--area", "jbos"}, "--area jbos"},
		"show --area":             {[]string{"show", "--area", "jbos", "jobs/"}, "--area jbos"},
		"diff --run":              {[]string{"diff", "--b", "builtin", "--run", "nomatch/*"}, "--run 'nomatch/*' matches none"},
		"diff two reports --area": {[]string{"diff", "--a", saved, "--b", saved, "--area", "jbos"}, "--area jbos"},
		"diff an area not in --a": {[]string{"diff", "--a", saved, "--b", "builtin", "--area", "context"}, "--area context"},
		"smoke --run":             {[]string{"smoke", "--impl", "true", "--run", "nomatch/*"}, "--run 'nomatch/*' matches none"},
	})
}

// A report or metrics file that cannot be written is exit 2 with a message naming the flag and the
// path, and no temporary file (issue 10: `bench --metrics-textfile /nonexistent/x.prom` exited 0
// and named a temporary file).
func TestUnwritableFilesNameTheirFlag(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	rec := recDir + "clean.jsonl"
	for _, c := range []struct {
		args []string
		flag string
		path string
	}{
		{[]string{"bench", rec, "--sim", "--metrics-textfile", missing + "/x.prom"}, "--metrics-textfile", missing + "/x.prom"},
		{[]string{"bench", rec, "--sim", "--format", "json", "--out", missing + "/b.json"}, "--out", missing + "/b.json"},
		{[]string{"run", "--area", "jobs", "--format", "junit", "--out", missing + "/r.xml"}, "--out", missing + "/r.xml"},
		{[]string{"diff", "--b", "builtin", "--area", "jobs", "--format", "html", "--out", missing + "/d.html"}, "--out", missing + "/d.html"},
		{[]string{"audit", rec, "--svg", missing + "/a.svg"}, "--svg", missing + "/a.svg"},
		{[]string{"export", rec, "--out", missing + "/t.jsonl"}, "--out", missing + "/t.jsonl"},
		{[]string{"record", "--out", missing + "/rec.jsonl", "--", "true"}, "--out", missing + "/rec.jsonl"},
	} {
		code, out, errs := runCLI(t, c.args...)
		want := "lembas-check: " + c.flag + " " + c.path + ": "
		if code != 2 || !strings.Contains(errs, want) || strings.Contains(errs, ".tmp") || strings.Contains(out, "ok\t") {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", c.args, code, errs, want)
		}
	}
}

// A run not made still writes the report --out promises, saying ERROR and why, over any older file
// (issue 21: `run --impl false --format junit --out f.xml` left last run's f.xml in place, so a CI
// uploaded it): a failed hello as a JUnit <error>, a selection of nothing as a JSON footer, an
// unreadable --expect as markdown's ⚠️.
func TestRunNotMadeWritesItsReport(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, format string
		args         []string
		want         []string
	}{
		{"failed hello", "junit", []string{"--impl", "false"}, []string{"<error ", `adapter &#34;false&#34;: exited (exit status 1) before answering hello`, `errors="1"`}},
		{"selection of nothing", "json", []string{"--run", "nomatch/*"}, []string{`"type":"footer","status":"ERROR","exit":2,"failed":true`, "--run 'nomatch/*' matches none"}},
		{"unreadable --expect", "markdown", []string{"--expect", filepath.Join(dir, "nosuch.txt")}, []string{"## ⚠️ ", "not run: --expect " + filepath.Join(dir, "nosuch.txt")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+"."+c.format)
			if err := os.WriteFile(out, []byte("<old/>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, errs := runCLI(t, append([]string{"run", "--format", c.format, "--out", out}, c.args...)...)
			b, _ := os.ReadFile(out)
			if code != 2 || strings.Contains(string(b), "<old/>") || !strings.HasPrefix(lastLine(stdout), "ERROR\t") {
				t.Fatalf("exit %d, stdout %q, stderr %q\n%s", code, stdout, errs, b)
			}
			for _, w := range c.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %q:\n%s", out, w, b)
				}
			}
		})
	}
}

// Ctrl-C while the adapter has not said hello (issue 21: no report was written): the report is
// written, every case interrupted, exit 2.
func TestRunInterruptedDuringHello(t *testing.T) {
	dir := t.TempDir()
	mark, script := filepath.Join(dir, "started"), filepath.Join(dir, "mute.sh")
	if err := os.WriteFile(script, []byte(": > \"$1\"\nexec sleep 600\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(dir, "r.xml")
	ctx, watched := cancelWhenMarked(t, mark)
	var out, errb strings.Builder
	code := dispatch(ctx, []string{"run", "--impl", "sh " + shellQuote(script) + " " + shellQuote(mark), "--area", "jobs", "--format", "junit", "--out", junit}, &out, &errb)
	<-watched
	if last := lastLine(out.String()); code != 2 || !strings.HasPrefix(last, "ERROR\t0 of 10 checked, 0 skipped, 10 interrupted") {
		t.Fatalf("exit %d, summary %q\n%s", code, last, errb.String())
	}
	if tests, failures, errors := junitCounts(t, junit); tests != 11 || failures != 0 || errors != 11 {
		t.Errorf("JUnit: tests=%d failures=%d errors=%d, want the 10 cases and the run, as errors", tests, failures, errors)
	}
}

// cancelWhenMarked is a context cancelled once the file mark exists (the process under test has
// started), as a person's Ctrl-C would; watched closes when the watch ends.
func cancelWhenMarked(t *testing.T, mark string) (context.Context, <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if waitFor(mark, ctx.Done()) {
			cancel()
		}
	}()
	return ctx, watched
}
