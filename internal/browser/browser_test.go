package browser

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
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
