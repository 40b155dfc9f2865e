package fsaccess

import (
	"slices"
	"testing"
)

func TestDeviceSkippedIsTheSentencesNames(t *testing.T) {
	if got := DeviceSkipped(); !slices.Equal(got, []string{".git", "node_modules"}) {
		t.Errorf("DeviceSkipped() = %q", got)
	}
}

func TestDeviceTree(t *testing.T) {
	tree := []string{"/p/.git/HEAD", "/p/.gitignore", "/p/src/a.go", "/p/src/a.log", "/p/web/node_modules/x/i.js",
		"/p/web/app.js", "/p/out/bin", "/p/empty/", "/p/logs/a.log", "/p/docs/keep.log", "/p/sub/.gitignore",
		"/p/sub/gen/g.go", "/p/sub/z.go"}
	got := DeviceTree(tree, map[string][]string{"/p/.gitignore": {"# build", "out/", "*.log", "!docs/keep.log", ""},
		"/p/sub/.gitignore": {"/gen"}}, "/p")
	want := []string{"/p/", "/p/.gitignore", "/p/docs/", "/p/docs/keep.log", "/p/src/", "/p/src/a.go", "/p/sub/",
		"/p/sub/.gitignore", "/p/sub/z.go", "/p/web/", "/p/web/app.js"}
	if !slices.Equal(got, want) {
		t.Errorf("DeviceTree:\n got %q\nwant %q", got, want)
	}
	if got := DeviceTree([]string{"/p/empty/"}, nil, "/p/empty"); !slices.Equal(got, []string{"/p/", "/p/empty/"}) {
		t.Errorf("the listed directory stays: %q", got)
	}
	for _, bad := range []string{"**/x", "[a"} {
		if CheckGitignoreLine(bad) == nil {
			t.Errorf("CheckGitignoreLine(%q): nil", bad)
		}
	}
}
