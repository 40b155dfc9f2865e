package search

import (
	"reflect"
	"regexp"
	"testing"
)

// splitHead reads the example's head as the regexp it stands for does.
func TestSplitHeadIsItsRegexp(t *testing.T) {
	re := regexp.MustCompile(`^(/[^:\s]+)(:)([0-9]+)(-)([0-9]+)$`)
	for _, h := range []string{"/src/a.ts:3-9", "/a:1-2", "/:1-2", "a:1-2", "/a b:1-2", "/a\v:1-2", "/a:1-", "/a:-2",
		"/a:1-2-3", "/a:x-2", "/a:b:1-2", ""} {
		if got, want := splitHead(h), re.FindStringSubmatch(h); !reflect.DeepEqual(got, want) {
			t.Errorf("splitHead(%q) = %q, its regexp %q", h, got, want)
		}
	}
}
