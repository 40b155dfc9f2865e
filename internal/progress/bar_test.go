package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	if got := Line("bench baseline", 6, 24, 1500*time.Millisecond, "cached 10"); got != "bench baseline [######..................] 6/24  25 % 1.5 s  cached 10" {
		t.Errorf("%q", got)
	}
	if got := Line("audit", 3, 0, time.Second, ""); got != "audit 3 done 1.0 s" {
		t.Errorf("%q", got)
	}
}

func TestBarShowsOnlyForLongJobs(t *testing.T) {
	var quick bytes.Buffer
	b := &Bar{W: &quick, Label: "x", Total: 2, After: time.Hour}
	b.Start()
	b.Set(2, "")
	b.Stop()
	if quick.Len() != 0 {
		t.Errorf("a quick job printed %q", quick.String())
	}
	var slow bytes.Buffer
	b = &Bar{W: &slow, Label: "y", Total: 2, After: time.Millisecond, Every: time.Millisecond}
	b.Start()
	b.Set(1, "half")
	time.Sleep(20 * time.Millisecond)
	b.Set(2, "all")
	b.Stop()
	lines := strings.Split(strings.TrimSpace(slow.String()), "\n")
	if len(lines) < 2 || !strings.Contains(lines[len(lines)-1], "2/2 100 %") || !strings.Contains(lines[len(lines)-1], "all") {
		t.Errorf("%q", slow.String())
	}
}
