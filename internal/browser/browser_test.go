package browser

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFindSaysWhatToSet(t *testing.T) {
	t.Setenv(EnvVar, "")
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "LEMBAS_CHROMIUM") || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("%v", err)
	}
	t.Setenv(EnvVar, "/nonexistent/chromium")
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "/nonexistent/chromium") {
		t.Errorf("%v", err)
	}
}

// descendants counts the processes below this one whose command names chromium (Linux: /proc).
func descendants(t *testing.T) int {
	parent := map[int]int{}
	cmd := map[int]string{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 {
			parent[pid], _ = strconv.Atoi(fields[1])
		}
		c, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		cmd[pid] = string(c)
	}
	n := 0
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == os.Getpid() {
				if strings.Contains(cmd[pid], "chromium") || strings.Contains(cmd[pid], "chrome") {
					n++
				}
				break
			}
		}
	}
	return n
}

// A page is loaded and its DOM read after its scripts ran; nothing Chromium started outlives the
// call.
func TestDOMAndNothingLeft(t *testing.T) {
	c, err := Find()
	if err != nil {
		t.Skipf("SKIP: %v", err)
	}
	page := filepath.Join(t.TempDir(), "p.html")
	os.WriteFile(page, []byte(`<!doctype html><p id="x">before</p><script>document.getElementById("x").textContent = "after " + location.hash</script>`), 0o644)
	url, _ := FileURL(page, "frag")
	dom, err := c.DOM(context.Background(), url, 800, 600)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dom, `<p id="x">after #frag</p>`) {
		t.Errorf("DOM:\n%s", dom)
	}
	if runtime.GOOS == "linux" {
		if n := descendants(t); n != 0 {
			t.Errorf("%d chromium processes outlive the call", n)
		}
	}
}

// A browser that fails is named with the tail of its stderr (proc.Tail), never cut inside a
// character (it was cut at a byte: an é came out broken).
func TestFailureQuotesTheStderrTail(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake browser is a shell script")
	}
	fake := filepath.Join(t.TempDir(), "chromium")
	script := "#!/bin/sh\ni=0; while [ $i -lt 1500 ]; do printf 'é' >&2; i=$((i+1)); done; printf 'y' >&2\nexit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Chromium{Path: fake}.DOM(context.Background(), "about:blank", 10, 10)
	if err == nil || !utf8.ValidString(err.Error()) || !strings.Contains(err.Error(), "exit status 1 (stderr: …") || !strings.HasSuffix(err.Error(), "éy)") {
		t.Errorf("%.120q", err)
	}
}
