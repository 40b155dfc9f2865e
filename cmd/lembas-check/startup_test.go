package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// lembas-check starts with nothing around it: no program on PATH, a HOME it may not write. No
// command starts a process it was not asked to start, or writes under HOME, as it starts or as
// it works (until 2026-12 linking godog ran `go env GOTOOLDIR` at every start, and under `record`
// go wrote $HOME/.config/go/telemetry into the agent's temporary HOME).

var (
	builtMu sync.Mutex
	built   = map[string]string{} // variant → the binary's path
	binDir  string
)

// The baseline of BenchmarkStartup is lembas-check as it was until the features were parsed with
// cucumber's parser directly: godog linked in, and Load going through it. It is put together at
// build time only (go build -overlay), never written into the tree: internal/gherkin's Load is
// renamed, and the godog loader its tests keep (loadWithGodog, godog_test.go) becomes Load.
func godogOverlay(tb testing.TB, dir string) string {
	here, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	pkg := filepath.Join(here, "..", "..", "internal", "gherkin")
	load, err := os.ReadFile(filepath.Join(pkg, "load.go"))
	if err != nil {
		tb.Fatal(err)
	}
	const own = "\nfunc Load(fsys fs.FS, name string) ([]Scenario, error) {"
	if !bytes.Contains(load, []byte(own)) {
		tb.Fatalf("internal/gherkin/load.go has no %q to set aside for the baseline", own)
	}
	load = bytes.Replace(load, []byte(own), []byte("\nfunc loadOwn(fsys fs.FS, name string) ([]Scenario, error) {"), 1)
	test, err := os.ReadFile(filepath.Join(pkg, "godog_test.go"))
	if err != nil {
		tb.Fatal(err)
	}
	start := bytes.Index(test, []byte("\nfunc loadWithGodog("))
	end := bytes.Index(test[max(start, 0):], []byte("\n}\n"))
	if start < 0 || end < 0 {
		tb.Fatal("internal/gherkin/godog_test.go has no loadWithGodog for the baseline")
	}
	fn := bytes.Replace(test[start:start+end+3], []byte("func loadWithGodog("), []byte("func Load("), 1)
	godogLoad := "package gherkin\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"io\"\n\t\"io/fs\"\n\n" +
		"\t\"github.com/LLeMbas/lembas-check/conformance\"\n\t\"github.com/LLeMbas/lembas-check/internal/gherkin/steps\"\n\t\"github.com/cucumber/godog\"\n)\n" + string(fn)
	files := map[string]string{}
	for name, body := range map[string][]byte{"load.go": load, "zz_godog_load.go": []byte(godogLoad)} {
		tmp := filepath.Join(dir, name)
		if err := os.WriteFile(tmp, body, 0o644); err != nil {
			tb.Fatal(err)
		}
		files[filepath.Join(pkg, name)] = tmp
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": files})
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		tb.Fatal(err)
	}
	return ov
}

// buildLembasCheck builds the real binary once per test binary: variant "" is cmd/lembas-check as
// it is, "godog" the baseline (godogOverlay). TestMain removes the folder.
func buildLembasCheck(tb testing.TB, variant string) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds lembas-check")
	}
	builtMu.Lock()
	defer builtMu.Unlock()
	if p, ok := built[variant]; ok {
		return p
	}
	if binDir == "" {
		d, err := os.MkdirTemp("", "lembas-check-startup-")
		if err != nil {
			tb.Fatal(err)
		}
		binDir = d
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		// A test that empties PATH still builds with the toolchain that built it: here, on this
		// machine, the build's root is the one meant.
		//lint:ignore SA1019 the test binary runs where it was built
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out := filepath.Join(binDir, "lembas-check"+variant)
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	args := []string{"build", "-o", out}
	if variant == "godog" {
		args = append(args, "-overlay", godogOverlay(tb, binDir))
	}
	cmd := exec.Command(goTool, append(args, ".")...)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", variant, err, b)
	}
	built[variant] = out
	return out
}

// bare is the environment of a start with nothing around: PATH as given, HOME an empty folder no
// one may write, TMPDIR the test's own; nothing else (no XDG_CONFIG_HOME, no GOPATH, no GOROOT).
func bare(path, home, tmp string, extra ...string) []string {
	env := []string{"PATH=" + path, "HOME=" + home, "TMPDIR=" + tmp, "USERPROFILE=" + home, "TEMP=" + tmp, "TMP=" + tmp}
	if runtime.GOOS == "windows" {
		// Windows cannot start a process without SYSTEMROOT.
		env = append(env, "SYSTEMROOT="+os.Getenv("SYSTEMROOT"))
	}
	return append(env, extra...)
}

// trapPATH is a PATH of one folder holding a `go` that, if run, says so in the file it returns:
// a start that looks for the Go tool runs it, and the test sees who did.
func trapPATH(t *testing.T) (string, string) {
	dir, marker := t.TempDir(), filepath.Join(t.TempDir(), "ran")
	script := fmt.Sprintf("#!/bin/sh\necho \"go $*\" >> '%s'\n", marker)
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, marker
}

// call is one command as the test runs it: a name for the subtest, its arguments, its stdin,
// extra environment.
type call struct {
	name  string
	args  []string
	stdin string
	env   []string
}

func TestStartsWithNothingAround(t *testing.T) {
	bin := buildLembasCheck(t, "")
	recs, err := filepath.Abs("../../testdata/recordings/clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	adapter := shellQuote(bin) + " adapter"
	firstCase := func() string {
		out, err := exec.Command(bin, "list", "--json").Output()
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		line, _, _ := strings.Cut(string(out), "\n")
		var c struct{ ID string }
		if err := json.Unmarshal([]byte(line), &c); err != nil || c.ID == "" {
			t.Fatalf("list --json: %q: %v", line, err)
		}
		return c.ID
	}()
	calls := []call{
		{name: "version", args: []string{"version"}},
		{name: "help", args: []string{"help"}},
		{name: "list", args: []string{"list"}},
		{name: "show", args: []string{"show", firstCase}},
		{name: "spec", args: []string{"spec"}},
		{name: "run", args: []string{"run"}},
		{name: "run features", args: []string{"run", "--features"}},
		{name: "run features through the adapter", args: []string{"run", "--features", "--impl", adapter, "--jobs", "2"}},
		{name: "diff", args: []string{"diff", "--a", "builtin", "--b", adapter}},
		{name: "smoke", args: []string{"smoke", "--impl", adapter}},
		{name: "adapter", args: []string{"adapter"}, stdin: `{"cmd":"hello","protocol":1,"harness_spec":"3.1.0"}` + "\n" + `{"cmd":"bye"}` + "\n"},
		{name: "audit", args: []string{"audit", recs}},
		{name: "bench", args: []string{"bench", recs, "--sim"}},
		{name: "export", args: []string{"export", recs, "--out", "trace.jsonl"}},
		// The test binary's TestHelperAgent plays the agent (record_test.go).
		{name: "record", args: []string{"record", "--out", "rec.jsonl", "--timeout", "60s", "--", os.Args[0], "-test.run=^TestHelperAgent$"}, env: []string{"LEMBAS_AGENT=chat"}},
		// fake and replay: run together (fakeAndReplay).
		{name: "fake and replay", args: []string{"fake"}},
	}
	paths := map[string]func(t *testing.T) (string, string){
		"empty PATH": func(*testing.T) (string, string) { return "", "" },
	}
	if runtime.GOOS != "windows" {
		paths["a go on PATH that tells"] = trapPATH
	}
	for name, mk := range paths {
		t.Run(name, func(t *testing.T) {
			path, marker := mk(t)
			for _, c := range calls {
				t.Run(c.name, func(t *testing.T) {
					home, work, tmp := t.TempDir(), t.TempDir(), t.TempDir()
					if err := os.Chmod(home, 0o555); err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { os.Chmod(home, 0o755) })
					env := bare(path, home, tmp, c.env...)
					var code int
					var out, errs string
					if c.args[0] == "fake" {
						code, out, errs = fakeAndReplay(t, bin, env, work, recs)
					} else {
						code, out, errs = runBinary(t, bin, env, work, c.stdin, c.args...)
					}
					if code != 0 {
						t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(c.args, " "), code, out, errs)
					}
					if entries, err := os.ReadDir(home); err != nil || len(entries) > 0 {
						var names []string
						filepath.WalkDir(home, func(p string, _ os.DirEntry, _ error) error {
							names = append(names, p)
							return nil
						})
						t.Errorf("%s wrote under HOME: %v (%v)", c.args[0], names, err)
					}
					if marker != "" {
						if ran, err := os.ReadFile(marker); err == nil {
							t.Errorf("%s ran a program from PATH nobody asked for: %s", c.args[0], ran)
							os.Remove(marker)
						}
					}
				})
			}
		})
	}
}

// No package of lembas-check does work as the binary starts: a regexp to compile, a template to
// parse, a spec file to read wait for their first use (sync.OnceValue), so `version`, and an
// adapter process per case, pay nothing for the commands they do not run. Allocations are what
// is counted (deterministic for a build; a wall-clock bound would depend on the machine): a
// package's init may make a few plain values, not more.
func TestInitDoesNoWork(t *testing.T) {
	const maxAllocs, maxBytes = 128, 32 << 10
	bin := buildLembasCheck(t, "")
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		// init github.com/LLeMbas/lembas-check/runner @5.5 ms, 0.13 ms clock, 39544 bytes, 826 allocs
		var pkg string
		var at, clock float64
		var bytes, allocs int
		if _, err := fmt.Sscanf(line, "init %s @%f ms, %f ms clock, %d bytes, %d allocs", &pkg, &at, &clock, &bytes, &allocs); err != nil {
			continue
		}
		if !strings.HasPrefix(pkg, "github.com/LLeMbas/lembas-check/") {
			continue
		}
		seen++
		if allocs > maxAllocs || bytes > maxBytes {
			t.Errorf("%s works at init: %d allocations, %d bytes (at most %d, %d): make what its package-level vars compute (a regexp, a template, a spec text) on first use, with sync.OnceValue", pkg, allocs, bytes, maxAllocs, maxBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("GODEBUG=inittrace=1 named no package of lembas-check:\n%s", out)
	}
}

// runBinary runs the built lembas-check in dir with env, feeding stdin, and gives its exit status
// and output. No bound of its own: a run that hangs is killed shortly before go test's -timeout
// (so that it does not outlive the test binary, and its output is shown) and fails the test.
func runBinary(t *testing.T, bin string, env []string, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	ctx := t.Context()
	if end, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, end.Add(-10*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = env, dir, strings.NewReader(stdin)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s: still running as go test's -timeout nears (killed)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), out.String(), errs.String())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String(), errs.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errs.String()
}

// fakeAndReplay starts `fake` on a loopback port, replays a recording against it with `replay`
// (both with env), and stops the fake. The exit status is replay's, or the fake's if it failed.
func fakeAndReplay(t *testing.T, bin string, env []string, dir, rec string) (int, string, string) {
	t.Helper()
	fake := exec.Command(bin, "fake", "--listen", "127.0.0.1:0", "--model", "qwen3-coder")
	fake.Env, fake.Dir = env, dir
	var ferr bytes.Buffer
	fake.Stderr = &ferr
	stdout, err := fake.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		fake.Process.Kill()
		fake.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return 2, "", "fake: " + err.Error() + "\n" + ferr.String()
	}
	code, out, errs := runBinary(t, bin, env, dir, "", "replay", rec, "--server", strings.TrimSpace(line))
	return code, out, errs
}

// Start-up, the binary as it is beside the baseline, the binary parsing through godog: one
// `version` a run, with the Go tool on PATH and with PATH empty; and `run --features`, the whole
// command (the JSON cases and the scenarios against the builtin), the time a CI job pays. Each
// iteration runs both binaries, one after the other, so a busy machine slows both alike; the
// figures are ms/run of each and how many times slower the baseline is.
func BenchmarkStartup(b *testing.B) {
	home := b.TempDir()
	goDir := filepath.Dir(must(exec.LookPath("go")))
	own, baseline := buildLembasCheck(b, ""), buildLembasCheck(b, "godog")
	for _, c := range []struct {
		name, path string
		args       []string
	}{
		{"version", goDir, []string{"version"}},
		{"version/empty-PATH", "", []string{"version"}},
		{"run-features", goDir, []string{"run", "--features"}},
		{"run-features/empty-PATH", "", []string{"run", "--features"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			// TMPDIR unset, as on most machines: the workspace cases' trees go to memory (/dev/shm).
			env := []string{"PATH=" + c.path, "HOME=" + home}
			var ownTime, godogTime time.Duration
			for b.Loop() {
				ownTime += timeRun(b, own, env, c.args)
				godogTime += timeRun(b, baseline, env, c.args)
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
			b.ReportMetric(ms(ownTime), "ms/run")
			b.ReportMetric(ms(godogTime), "ms/run-godog")
			b.ReportMetric(float64(godogTime)/float64(ownTime), "×")
		})
	}
}

// timeRun runs a binary to its end and says how long it took.
func timeRun(b *testing.B, bin string, env, args []string) time.Duration {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	began := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(began)
	if err != nil {
		b.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	return took
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
