package refagent

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Clock is the agent's clock. The live target moves an agent's clock with libfaketime, whose
// LD_PRELOAD never reaches a Go program (the runtime reads the time without libc), so the
// reference agent reads libfaketime's own settings itself: the timestamp file named by
// FAKETIME_TIMESTAMP_FILE, read again on every look (as FAKETIME_NO_CACHE makes libfaketime do),
// else FAKETIME. Without either it is the real clock.
type Clock struct {
	file, spec string
	real       func() time.Time
	started    time.Time
}

// EnvClock is the clock libfaketime's variables in the environment say.
func EnvClock() *Clock {
	return &Clock{file: os.Getenv("FAKETIME_TIMESTAMP_FILE"), spec: os.Getenv("FAKETIME"), real: time.Now,
		started: time.Now()}
}

// Now is the time the clock reads, in the local zone (the person's: "the date is the person's
// own (their zone, else the machine's)", context.md §10 rule 3).
func (c *Clock) Now() time.Time {
	now := c.real()
	s := c.spec
	if c.file != "" {
		if b, err := os.ReadFile(c.file); err == nil {
			s = strings.TrimSpace(string(b))
		}
	}
	if s == "" {
		return now.Local()
	}
	t, err := FakeTime(s, now, c.started)
	if err != nil {
		return now.Local()
	}
	return t.Local()
}

// FakeTime reads one libfaketime setting at real time now (the program started at started):
// "+N" or "-N" seconds, or with a unit (m, h, d, y), an offset from the real time;
// "@YYYY-MM-DD hh:mm:ss" a start time from which the clock runs on; "YYYY-MM-DD hh:mm:ss" a
// clock that stands still.
func FakeTime(s string, now, started time.Time) (time.Time, error) {
	const layout = "2006-01-02 15:04:05"
	switch {
	case strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-"):
		unit := time.Second
		num := s
		switch s[len(s)-1] {
		case 's':
			num = s[:len(s)-1]
		case 'm':
			unit, num = time.Minute, s[:len(s)-1]
		case 'h':
			unit, num = time.Hour, s[:len(s)-1]
		case 'd':
			unit, num = 24*time.Hour, s[:len(s)-1]
		case 'y':
			unit, num = 365*24*time.Hour, s[:len(s)-1]
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("faketime %q: not an offset such as +3600 or -2d", s)
		}
		return now.Add(time.Duration(f * float64(unit))), nil
	case strings.HasPrefix(s, "@"):
		t, err := time.ParseInLocation(layout, s[1:], time.Local)
		if err != nil {
			return time.Time{}, fmt.Errorf("faketime %q: not @YYYY-MM-DD hh:mm:ss", s)
		}
		return t.Add(now.Sub(started)), nil
	}
	t, err := time.ParseInLocation(layout, s, time.Local)
	if err != nil {
		return time.Time{}, fmt.Errorf("faketime %q: not an offset (+N), a start (@YYYY-MM-DD hh:mm:ss) or a time "+
			"(YYYY-MM-DD hh:mm:ss)", s)
	}
	return t, nil
}
