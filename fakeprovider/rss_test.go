package fakeprovider_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
)

// The fake's memory is measured in a process of its own — this test binary run again as a
// server (TestServeForRSS) — beside a bare net/http server sending the same bytes, in the same
// run: the peak resident set (VmHWM) before and after 64 streaming clients' load.

// rssBound is the peak RSS of lembas-check fake after the load (issue 23: under 40 MB); rssAdded
// what the fake may add over the bare server when both run in this test binary, whose own
// baseline (the SDKs the tests link) is ~12 MB over lembas-check's.
const (
	rssBound = 40 << 20
	rssAdded = 20 << 20
)

// TestServeForRSS is the child: with LEMBAS_RSS_CHILD=fake the fake (benchScript, usage from the
// cache simulator), with =bare a bare server replaying the events in LEMBAS_RSS_EVENTS. It prints
// its URL and serves until its standard input closes.
func TestServeForRSS(t *testing.T) {
	kind := os.Getenv("LEMBAS_RSS_CHILD")
	if kind == "" {
		t.Skip("the child of TestRSSAfterLoad")
	}
	var url string
	switch kind {
	case "fake":
		srv, err := fakeprovider.Start(fakeprovider.Config{Script: mustParse(t, benchScript)})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		url = srv.URL
	default:
		b, err := os.ReadFile(os.Getenv("LEMBAS_RSS_EVENTS"))
		if err != nil {
			t.Fatal(err)
		}
		var events [][]byte
		for _, ev := range strings.SplitAfter(string(b), "\n\n") {
			if ev != "" {
				events = append(events, []byte(ev))
			}
		}
		srv := &http.Server{Handler: bareHandler(events)}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go srv.Serve(ln)
		defer srv.Close()
		url = "http://" + ln.Addr().String()
	}
	fmt.Println(url)
	io.Copy(io.Discard, os.Stdin)
}

// child is a server process: its URL, its pid, and how to end it.
type child struct {
	url  string
	cmd  *exec.Cmd
	stop io.Closer
}

func startChild(t *testing.T, kind, events string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeForRSS$")
	cmd.Env = append(os.Environ(), "LEMBAS_RSS_CHILD="+kind, "LEMBAS_RSS_EVENTS="+events)
	if bin := os.Getenv("LEMBAS_FAKE_BIN"); kind == "fake" && bin != "" {
		// The command as shipped, not this test binary (which carries the SDKs the tests use).
		script := t.TempDir() + "/bench.yaml"
		if err := os.WriteFile(script, []byte(benchScript), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd = exec.Command(bin, "fake", "--script", script)
	}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stop: in}
	t.Cleanup(func() {
		c.stop.Close()
		c.cmd.Process.Signal(syscall.SIGTERM) // lembas-check fake serves until a signal
		c.cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the %s server did not start: %v", kind, err)
	}
	c.url = strings.TrimSpace(line)
	go io.Copy(io.Discard, out)
	return c
}

// status reads a VmHWM- or VmRSS-style line of /proc/PID/status, in bytes.
func status(t *testing.T, pid int, key string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", key, pid)
	return 0
}

// TestRSSAfterLoad (LEMBAS_FAKE_BIN=path/to/lembas-check: that binary's `fake` is measured
// instead of this test binary's server): the fake's peak RSS after 6,000 streamed requests from 64 clients stays under
// 40 MB; the bare server's is logged beside it. Memory, not time: it holds on a loaded machine.
func TestRSSAfterLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status: linux only")
	}
	if raceOn {
		t.Skip("-race: the race detector multiplies memory (5-10x); run without it to measure")
	}
	if testing.Short() {
		t.Skip("-short: starts two server processes and sends each 6,000 streamed requests")
	}
	fake := startChild(t, "fake", "")
	idle := status(t, fake.cmd.Process.Pid, "VmHWM")
	events := t.TempDir() + "/events"
	var all []byte
	for _, ev := range captureEvents(t, fake.url) {
		all = append(all, ev...)
	}
	if err := os.WriteFile(events, all, 0o644); err != nil {
		t.Fatal(err)
	}
	bare := startChild(t, "bare", events)
	bareIdle := status(t, bare.cmd.Process.Pid, "VmHWM")
	for _, c := range []*child{bare, fake} {
		load(t, clients(t, c.url), c.url, 6000, 0)
	}
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
	peak, barePeak := status(t, fake.cmd.Process.Pid, "VmHWM"), status(t, bare.cmd.Process.Pid, "VmHWM")
	t.Logf("peak RSS (VmHWM) idle → after 6,000 streamed requests from 64 clients: bare %s → %s, fake %s → %s (VmRSS now %s)",
		mb(bareIdle), mb(barePeak), mb(idle), mb(peak), mb(status(t, fake.cmd.Process.Pid, "VmRSS")))
	if os.Getenv("LEMBAS_FAKE_BIN") != "" {
		if peak >= rssBound {
			t.Errorf("the fake's peak RSS after the load is %s, the bound %s (bare: %s)", mb(peak), mb(rssBound), mb(barePeak))
		}
		return
	}
	// Both servers in this test binary: what the fake adds over bare is its own.
	if added := peak - barePeak; added >= rssAdded {
		t.Errorf("the fake's peak RSS after the load is %s, %s over the bare server's %s; the bound is %s over", mb(peak), mb(added), mb(barePeak), mb(rssAdded))
	}
}
