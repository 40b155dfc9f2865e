package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/workspace"
)

// Every workspace case is answered in memory, and the answer is the real disk's.
func TestWorkspaceInMemoryIsTheDisk(t *testing.T) {
	cases, err := EmbeddedCases("workspace")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		d, err := c.Decode()
		if err != nil {
			t.Fatal(err)
		}
		wc := d.(workspaceCase)
		mem, err := workspace.InMemory(wc.Tree, wc.Links)
		if err != nil {
			t.Fatal(err)
		}
		onMem, err := wc.answerOn(mem)
		if err != nil || mem.Unsure() {
			t.Errorf("%s: in memory: %v, unsure %v", c.Where(), err, mem.Unsure())
			continue
		}
		if got, want := answerJSON(t, onMem), onDisk(t, wc); got != want {
			t.Errorf("%s: in memory %s, on the disk %s", c.Where(), got, want)
		}
	}
}

// A case memory cannot answer surely (a name longer than the kernel takes) is answered on the
// disk, as before.
func TestWorkspaceUnsureGoesToTheDisk(t *testing.T) {
	long := "/p/" + strings.Repeat("n", 300)
	def := "/p"
	wc := workspaceCase{Tree: []string{"/p/a"}, Default: &def, Steps: []workspaceStep{{Op: wsOpNew}, {Op: wsOpRead, Path: &long}}}
	got, err := answerWorkspace(wc)
	if err == nil {
		t.Fatalf("a name of 300 bytes answered %s: the disk refuses it", answerJSON(t, got))
	}
	if !strings.Contains(err.Error(), "file name too long") {
		t.Errorf("not the disk's error: %v", err)
	}
}

func onDisk(t *testing.T, wc workspaceCase) string {
	t.Helper()
	disk, err := workspace.Materialize(wc.Tree, wc.Links)
	if err != nil {
		t.Fatal(err)
	}
	defer disk.Close()
	a, err := wc.answerOn(disk)
	if err != nil {
		t.Fatal(err)
	}
	return answerJSON(t, a)
}

func answerJSON(t *testing.T, a workspaceAnswer) string {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
