// Command benchrun times lembas-check's commands as whole processes, side by side in one run:
// `version` (the floor: a process that starts, prints a line and ends) beside `run` on the
// embedded suite, one area, and the features. It builds cmd/lembas-check once, then runs each
// command N times, interleaved so a machine's load falls on all of them alike, and prints the
// median wall time, CPU time (user + system, from getrusage) and peak RSS of each, and each
// median over version's. docs/performance.md's figures are its output:
//
//	go run ./scripts/benchrun            # 31 rounds
//	go run ./scripts/benchrun -n 101 -- run --area jobs
//	go run ./scripts/benchrun -baseline /tmp/old   # also an older checkout's build, interleaved
//	go run ./scripts/benchrun -also 'GOMAXPROCS=1 run' -also 'GOGC=100 run'   # leading NAME=value: its environment
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// sample is one process's cost.
type sample struct {
	wall, cpu time.Duration
	rssKiB    int64
}

func main() { os.Exit(run()) }

func run() int {
	n := flag.Int("n", 31, "rounds: each command runs `N` times")
	baseline := flag.String(
		"baseline",
		"",
		"also build lembas-check from the module at `DIR` (an older checkout) and time its commands beside, "+
			"interleaved",
	)
	var also [][]string
	flag.Func("also", "one more command to time, `'[NAME=value ...] ARGS'` split at spaces, its leading NAME=value "+
		"words set in its environment (repeatable)", func(v string) error {
		if len(strings.Fields(v)) == 0 {
			return fmt.Errorf("an empty command")
		}
		also = append(also, strings.Fields(v))
		return nil
	})
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr,
			"usage: go run ./scripts/benchrun [-n N] [-- ARGS ...]  (ARGS: one more command to time, e.g. run --area "+
				"jobs)")
		flag.PrintDefaults()
	}
	flag.Parse()
	cmds := [][]string{{"version"}, {"run"}, {"run", "--area", "jobs"}, {"run", "--features"}}
	cmds = append(cmds, also...)
	if flag.NArg() > 0 {
		cmds = append(cmds, flag.Args())
	}
	dir, err := os.MkdirTemp("", "benchrun-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	bins := []string{filepath.Join(dir, "lembas-check")}
	if err := build(".", bins[0]); err != nil {
		fmt.Fprintf(os.Stderr, "benchrun: %v (run it from the module's root)\n", err)
		return 2
	}
	if *baseline != "" {
		bins = append(bins, filepath.Join(dir, "lembas-check-baseline"))
		if err := build(*baseline, bins[1]); err != nil {
			fmt.Fprintf(os.Stderr, "benchrun: -baseline %s: %v\n", *baseline, err)
			return 2
		}
	}
	samples := make([][][]sample, len(bins))
	for b := range bins {
		samples[b] = make([][]sample, len(cmds))
	}
	for range *n {
		for i, args := range cmds {
			for b, bin := range bins {
				s, err := once(bin, args)
				if err != nil {
					fmt.Fprintf(os.Stderr, "benchrun: %s %s: %v\n", bin, strings.Join(args, " "), err)
					return 1
				}
				samples[b][i] = append(samples[b][i], s)
			}
		}
	}
	write(os.Stdout, cmds, samples[0], *n, "")
	if len(bins) > 1 {
		fmt.Fprintln(os.Stdout)
		write(os.Stdout, cmds, samples[1], *n, "baseline "+*baseline+", same rounds: ")
	}
	return 0
}

// build builds cmd/lembas-check of the module at dir into bin.
func build(dir, bin string) error {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", abs, "./cmd/lembas-check")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/lembas-check: %v\n%s", err, out)
	}
	return nil
}

// once runs lembas-check with args, its output discarded, and says what it cost. A command that
// does not exit 0 is an error: a time of a failed run is no figure.
func once(bin string, args []string) (sample, error) {
	env, args := splitEnv(args)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	began := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, err
	}
	wall := time.Since(began)
	ps := cmd.ProcessState
	s := sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}
	s.rssKiB = peakKiB(ps)
	return s, nil
}

// splitEnv takes a command's leading NAME=value words (an upper-case name, as a shell's
// assignments before a command) off its arguments.
func splitEnv(words []string) (env, args []string) {
	for len(words) > 0 && isAssignment(words[0]) {
		env, words = append(env, words[0]), words[1:]
	}
	return env, words
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func write(w io.Writer, cmds [][]string, samples [][]sample, n int, title string) {
	fmt.Fprintf(w, "%slembas-check as a whole process: median of %d runs each, interleaved (%s/%s, %d CPUs)\n\n", title,
		n, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "command\twall\tCPU\tpeak RSS\twall − version\tCPU − version\t")
	floor := medians(samples[0])
	for i, args := range cmds {
		m := medians(samples[i])
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f MiB\t%s\t%s\t\n", strings.Join(args, " "), ms(m.wall), ms(m.cpu),
			float64(m.rssKiB)/1024, ms(m.wall-floor.wall), ms(m.cpu-floor.cpu))
	}
	tw.Flush()
}

// medians is each measure's median, taken on its own.
func medians(ss []sample) sample {
	pick := func(f func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	return sample{
		wall:   time.Duration(pick(func(s sample) int64 { return int64(s.wall) })),
		cpu:    time.Duration(pick(func(s sample) int64 { return int64(s.cpu) })),
		rssKiB: pick(func(s sample) int64 { return s.rssKiB }),
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
