package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// `run` on the embedded suite costs, in CPU time, a small multiple of `version`, the process
// that only starts: the bound has room for a loaded machine (the figure is docs/performance.md's,
// from `go run ./scripts/benchrun`: 3.1–3.2× since `version` lost go-cmp's and client_golang's
// init, 3.5 ms), and fails where decoding, the modules files or comparing regress to what they
// were (about 5.5× of today's `version` before the inputs became Go values, 15× before the suite
// became a table).
func TestRunCostsFewVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lembas-check and runs it 14 times")
	}
	bin := filepath.Join(t.TempDir(), "lembas-check")
	if err := build("../..", bin); err != nil {
		t.Fatal(err)
	}
	var version, run []sample
	for range 7 {
		for _, c := range []struct {
			args []string
			to   *[]sample
		}{{[]string{"version"}, &version}, {[]string{"run"}, &run}} {
			s, err := once(bin, c.args)
			if err != nil {
				t.Fatalf("lembas-check %v: %v", c.args, err)
			}
			*c.to = append(*c.to, s)
		}
	}
	v, r := medians(version), medians(run)
	const bound = 5
	t.Logf("CPU: version %s, run %s (%.1f×)", ms(v.cpu), ms(r.cpu), float64(r.cpu)/float64(v.cpu))
	if r.cpu > bound*v.cpu {
		t.Errorf("run took %s of CPU, over %d× version's %s", ms(r.cpu), bound, ms(v.cpu))
	}
}

// A command's leading NAME=value words are its environment, as a shell reads them; the first
// word that is not one (a flag with =, a lower-case name) begins the arguments.
func TestSplitEnv(t *testing.T) {
	for _, c := range []struct {
		in, env, args string
	}{
		{"GOMAXPROCS=1 GOGC=100 run --jobs 1", "GOMAXPROCS=1 GOGC=100", "run --jobs 1"},
		{"run --area=jobs", "", "run --area=jobs"},
		{"gogc=1 run", "", "gogc=1 run"},
		{"1X=2 run", "", "1X=2 run"},
		{"=2 run", "", "=2 run"},
		{"A_1= run X=2", "A_1=", "run X=2"},
	} {
		env, args := splitEnv(strings.Fields(c.in))
		if strings.Join(env, " ") != c.env || strings.Join(args, " ") != c.args {
			t.Errorf("%q: env %q, args %q; want %q, %q", c.in, env, args, c.env, c.args)
		}
	}
}
