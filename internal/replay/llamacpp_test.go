package replay_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/replay"
)

func TestSlotIDsOfTheFixture(t *testing.T) {
	b, err := os.ReadFile("../../testdata/llamacpp/06-slots.json")
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

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/llamacpp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A real llama-server's /props and /slots (-np 4 -c 16384): four slots of 4096 tokens each.
func TestLlamaServerReadsTheServersSetup(t *testing.T) {
	props, slots := fixture(t, "09-props-np4.json"), fixture(t, "10-slots-np4.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/props":
			w.Write(props)
		case "/slots":
			w.Write(slots)
		default:
			http.Error(w, string(fixture(t, "12-erase-without-slot-save-path.json")), http.StatusNotImplemented)
		}
	}))
	defer srv.Close()
	s := &replay.Sender{URL: srv.URL + "/v1"}
	info, err := s.LlamaServer(t.Context())
	if err != nil || info == nil || info.Slots != 4 || info.Context != 4096 || len(info.SlotIDs) != 4 || info.SlotIDs[3] != 3 || info.Model == "" {
		t.Errorf("%+v %v", info, err)
	}
	// Without --slot-save-path every slot action is a 501: the bench says what to start it with.
	said, erased := s.EmptyCache(t.Context())
	if erased || !strings.Contains(said, "POST /slots/0?action=erase: 501 Not Implemented (llama-server erases slots only when started with --slot-save-path DIR)") {
		t.Errorf("%q %v", said, erased)
	}
	// A server with no /props is not a llama-server, and not an error.
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	if info, err := (&replay.Sender{URL: other.URL}).LlamaServer(t.Context()); info != nil || err != nil {
		t.Errorf("%+v %v", info, err)
	}
	// One that cannot be reached is.
	if _, err := (&replay.Sender{URL: "http://127.0.0.1:1"}).LlamaServer(t.Context()); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("%v", err)
	}
}

// A real llama-server's /metrics, and the stream it ended with an error event after a 200 (its
// tool-call parser failing on what a random model wrote).
func TestLlamaServerMetricsAndStreamError(t *testing.T) {
	c := replay.ParseCacheCounters(fixture(t, "13-metrics.txt"))
	if c == nil || c.Source != "llama.cpp" || c.Cached != 2991 || c.Prompt != 2449+2991 || c.PromptSeconds != 2.90704 {
		t.Errorf("%+v", c)
	}
	r, err := replay.ParseStream([][]byte{fixture(t, "14-stream-error.sse")})
	if err != nil || r.Error != "server_error: The model produced output that does not match the expected peg-native format" {
		t.Errorf("%q %v", r.Error, err)
	}
}
