package live

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// Clock moves an agent's clock while it runs: libfaketime, preloaded into the agent, reads a
// timestamp file on every call (FAKETIME_NO_CACHE), and the runner rewrites that file with the
// offset from the real time. The monotonic clock is left alone, so the agent's timers still run.
type Clock struct {
	file string
	lib  string
	now  func() time.Time
	// at is the time last set, and when (in real time) it was set.
	at, setAt time.Time
}

// libfaketimePaths are where Debian, Fedora, Homebrew and a source build put the library.
var libfaketimePaths = []string{
	"/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib64/faketime/libfaketime.so.1",
	"/usr/lib/faketime/libfaketime.so.1",
	"/usr/local/lib/faketime/libfaketime.so.1",
	"/opt/homebrew/lib/faketime/libfaketime.1.dylib",
}

// FindLibfaketime is the preload library: $LEMBAS_LIBFAKETIME, else where packages put it.
func FindLibfaketime() (string, error) {
	if p := os.Getenv("LEMBAS_LIBFAKETIME"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("LEMBAS_LIBFAKETIME=%s: %v", p, err)
		}
		return p, nil
	}
	for _, p := range libfaketimePaths {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("libfaketime is not installed (apt-get install libfaketime, or LEMBAS_LIBFAKETIME=PATH to " +
		"libfaketime.so.1)")
}

// NewClock makes a clock whose timestamp file is in dir, set to start.
func NewClock(lib, dir string, start time.Time) (*Clock, error) {
	c := &Clock{file: filepath.Join(dir, "faketime"), lib: lib, now: time.Now}
	return c, c.Set(start)
}

// Env is what the agent runs with to have its clock moved (no preload for an agent that reads
// the timestamp file itself).
func (c *Clock) Env() []string {
	env := []string{"FAKETIME_TIMESTAMP_FILE=" + c.file, "FAKETIME_NO_CACHE=1", "FAKETIME_DONT_FAKE_MONOTONIC=1",
		"TZ=UTC"}
	if c.lib == "" {
		return env
	}
	return append([]string{"LD_PRELOAD=" + c.lib, "DYLD_INSERT_LIBRARIES=" + c.lib}, env...)
}

// StartClock is the clock of the agent of profile p (its program bin), its timestamp file in
// dir, set to start — where the profile says a moved clock reaches it: through libfaketime (not
// a static binary, which LD_PRELOAD does not reach), or by the file alone for an agent that
// reads it itself (agents.ClockFile). Else it is nil, and why says why not.
func StartClock(p *agents.Profile, bin, dir string, start time.Time) (c *Clock, why string, err error) {
	lib := ""
	switch {
	case !p.ClockMoves():
		return nil, p.Clock, nil
	case p.Clock != agents.ClockFile && Static(bin):
		return nil, "not controlled: " + bin + " is a static binary, which libfaketime's LD_PRELOAD does not reach", nil
	case p.Clock != agents.ClockFile:
		if lib, err = FindLibfaketime(); err != nil {
			return nil, "not controlled: " + err.Error(), nil
		}
	}
	c, err = NewClock(lib, dir, start)
	return c, "", err
}

// Set makes the agent's clock read t from now on.
func (c *Clock) Set(t time.Time) error {
	real := c.now()
	off := int64(t.Sub(real).Round(time.Second) / time.Second)
	c.at, c.setAt = t, real
	// Written whole, then moved into place: the agent never reads half a line.
	tmp := c.file + ".new"
	if err := os.WriteFile(tmp, []byte(fmt.Sprintf("%+d\n", off)), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.file)
}

// Move moves the agent's clock by d.
func (c *Clock) Move(d time.Duration) error { return c.Set(c.Now().Add(d)) }

// Now is the time the agent's clock reads.
func (c *Clock) Now() time.Time { return c.at.Add(c.now().Sub(c.setAt)) }

// Static says whether a program is a statically linked ELF binary, which LD_PRELOAD cannot
// reach (false for anything else: a script, a dynamic binary, another format).
func Static(program string) bool {
	f, err := elf.Open(program)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	return true
}
