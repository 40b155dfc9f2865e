package refagent

import (
	"testing"
	"time"
)

func TestFakeTime(t *testing.T) {
	now := time.Date(2026, 11, 30, 23, 58, 0, 0, time.UTC)
	started := now.Add(-time.Hour)
	for _, tc := range []struct {
		s    string
		want time.Time
	}{
		{"+120", now.Add(2 * time.Minute)},
		{"-1d", now.Add(-24 * time.Hour)},
		{"+2.5h", now.Add(150 * time.Minute)},
		{"+90s", now.Add(90 * time.Second)},
		{"@2026-12-01 00:00:30", time.Date(2026, 12, 1, 1, 0, 30, 0, time.Local)},
		{"2026-12-01 00:00:30", time.Date(2026, 12, 1, 0, 0, 30, 0, time.Local)},
	} {
		got, err := FakeTime(tc.s, now, started)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("FakeTime(%q) = %v, %v; want %v", tc.s, got, err, tc.want)
		}
	}
	for _, bad := range []string{"+", "+x", "@yesterday", "soon"} {
		if _, err := FakeTime(bad, now, started); err == nil {
			t.Errorf("FakeTime(%q) read", bad)
		}
	}
}

func FuzzFakeTime(f *testing.F) {
	for _, s := range []string{"+120", "-1d", "@2026-12-01 00:00:30", "2026-12-01 00:00:30", "+1e400y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		FakeTime(s, time.Now(), time.Now())
	})
}
