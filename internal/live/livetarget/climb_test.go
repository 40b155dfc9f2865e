package livetarget

import (
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
)

// A path that climbs above the case's / is given so that, read by its text from the session
// directory, it climbs above the disk's / as often and lands where the case's lands, under the
// session directory; a relative one stays relative, and a path that does not climb is callPath's.
func TestClimbPath(t *testing.T) {
	for _, paths := range []string{"", "absolute"} {
		e := &env{root: "/tmp/lembas-live-1/case-3", cwd: "/srv/app",
			t: &Target{o: Options{Profile: &agents.Profile{Tools: agents.Tools{Paths: paths}}}}}
		for _, tc := range []struct{ p, from string }{
			{"/../srv/app/README.md", "/srv/app"},
			{"../../../../etc/passwd", "/srv/app"},
			{"../../../srv/app/x", "/srv/app"},
			{"/srv/../../../etc//./passwd/", "/"},
			{"a/../../../..", "/srv"},
			{"/srv/app/README.md", "/srv/app"},
			{"src/main.go", "/srv/app"},
		} {
			got := e.climbPath(tc.p, tc.from)
			want := e.root + fsaccess.Resolve(tc.from, tc.p)
			if fsaccess.Resolve(tc.from, tc.p) == "/" {
				want = e.root
			}
			if r := fsaccess.Resolve(e.root+tc.from, got); r != want {
				t.Errorf("paths %q: %s from %s is given as %s, which leads to %s, not %s", paths, tc.p, tc.from, got, r,
					want)
			}
			climbs := fsaccess.AboveRoot(tc.from, tc.p)
			if fsaccess.AboveRoot(e.root+tc.from, got) != climbs {
				t.Errorf("paths %q: %s given as %s: climbs above / %v, the case's %v", paths, tc.p, got, !climbs, climbs)
			}
			if paths == "" && (got[0] == '/') != (tc.p[0] == '/') {
				t.Errorf("%s is given as %s: relative and absolute swapped", tc.p, got)
			}
		}
	}
}
