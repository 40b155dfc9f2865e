package replay_test

import (
	"os"
	"testing"

	"github.com/LLeMbas/lembas-check/replay"
)

func TestSlotIDsOfTheFixture(t *testing.T) {
	b, err := os.ReadFile("../testdata/llamacpp/06-slots.json")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := replay.SlotIDs(b)
	if err != nil || len(ids) != 1 || ids[0] != 0 {
		t.Errorf("%v %v", ids, err)
	}
	if _, err := replay.SlotIDs([]byte(`{"slots":1}`)); err == nil {
		t.Error("an object read as slots")
	}
	if _, err := replay.SlotIDs([]byte(`[{"n_ctx":1}]`)); err == nil {
		t.Error("a slot with no id")
	}
}
