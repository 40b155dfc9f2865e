package bench

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// okFake is the fake provider answering "ok" to every request, set up as cfg says (its dialect,
// models, cache). A rule without a condition, not a default policy answering "ok": the policy
// would call a read tool the request offers, and give a JSON format its own text.
func okFake(t *testing.T, cfg fakeprovider.Config) *fakeprovider.Server {
	t.Helper()
	cfg.Script = &script.Script{Name: "ok", Rules: []script.Rule{{Reply: script.Reply{Text: "ok"}}}}
	return fakeprovidertest.NewWith(t, cfg)
}

// llamaFake is the fake provider as a simulated llama-server serving models: the llama.cpp
// dialect, cached tokens from the simulator c (nil: one slot of the fake's own), one fixed answer.
func llamaFake(t *testing.T, c *cachesim.Cache, models ...string) *fakeprovider.Server {
	t.Helper()
	return okFake(t, fakeprovider.Config{Models: models, Dialect: usage.LlamaCpp, Cache: c})
}

func opener(path string) Open {
	return func() (replay.Source, io.Closer, error) {
		r, f, err := replay.Open(path)
		return r, f, err
	}
}

const clean = "../../../testdata/recordings/clean.jsonl"

// Against the fake as a simulated llama-server, the baseline and a variant run in one go: the server's
// cached tokens are what the audit predicted (the simulator tokenizes as the audit does), and the
// variant shows the break it makes.
func TestBaselineAndVariantSideBySide(t *testing.T) {
	t.Setenv("COLUMNS", "400") // the cells whole, as they come: a test of what they say, not of the layout
	srv := llamaFake(t, nil, "qwen3-coder")
	v, _ := ParseVariant("date-in-system")
	var rows []Row
	res, err := Bench(context.Background(), opener(clean), Options{Sender: replay.Sender{URL: srv.URL}, Variants: []Variant{v}, Cold: true,
		OnRow: func(r Row) { rows = append(rows, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || len(rows) != 12 || res.Runs[1].Name != "date-in-system:3" {
		t.Fatalf("%d runs, %d rows", len(res.Runs), len(rows))
	}
	for _, run := range res.Runs {
		if run.Cold != "erased 1 slot(s)" {
			t.Errorf("%s: cold %q", run.Name, run.Cold)
		}
		if e, ok := run.Totals.Efficiency(); !ok || e != 1 {
			t.Errorf("%s: efficiency %v %v", run.Name, e, ok)
		}
		for _, r := range run.Rows {
			if r.Usage.CachedTokens == nil || *r.Usage.CachedTokens != r.Reusable || r.Error != "" {
				t.Errorf("%s request %d: cached %v, predicted %d, error %q", run.Name, r.N, r.Usage.CachedTokens, r.Reusable, r.Error)
			}
		}
	}
	b, d := res.Runs[0].Rows[2], res.Runs[1].Rows[2]
	if d.Cause != "system prompt changed" || *d.Usage.CachedTokens >= *b.Usage.CachedTokens/4 || *d.Usage.PromptMS <= *b.Usage.PromptMS {
		t.Errorf("the date change: baseline %+v, variant %+v", b, d)
	}
	var out strings.Builder
	if err := Write(&out, res, "table", true); err != nil {
		t.Fatal(err)
	}
	// The column is as wide as its widest figure, and the timings' width varies with the
	// machine's speed (1.7 / 14.8 / 14.8 against 12.3 / 14.8 / 14.8): the name is centred in it,
	// one space or more on either side.
	if !regexp.MustCompile(`│ +date-in-system:3 +│`).MatchString(out.String()) || !strings.Contains(out.String(), " ×0.87 │") || !strings.Contains(out.String(), "system prompt changed") {
		t.Errorf("table:\n%s", out.String())
	}
	out.Reset()
	if err := Write(&out, res, "json", false); err != nil || strings.Count(out.String(), `"type":"row"`) != 12 || strings.Count(out.String(), `"type":"run"`) != 2 {
		t.Errorf("json: %v\n%s", err, out.String())
	}
	// The last line is the footer every command writes (issue 21: bench's JSON had none).
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var foot format.Footer
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &foot); err != nil || foot.Type != "footer" || foot.Status != Status(res).Word() || foot.Exit != Status(res).Code() || foot.Counts["runs"] != 2 || foot.Counts["requests"] != 12 {
		t.Errorf("footer %s (%v)", lines[len(lines)-1], err)
	}
	if f := Footer(&Result{Stopped: "replaying: context canceled"}); f.Status != "ERROR" || !f.Failed || !f.Interrupted || !strings.Contains(f.Error, "not finished") {
		t.Errorf("an interrupted bench's footer: %+v", f)
	}
}

// A server without slots is benched all the same, saying the cache could not be emptied; one
// that refuses requests has them counted as errors.
func TestServerWithoutSlotsAndWithErrors(t *testing.T) {
	sim := llamaFake(t, nil, "qwen3-coder").Handler()
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/slots") || r.URL.Path == "/reset_prefix_cache" || r.URL.Path == "/flush_cache" || r.URL.Path == "/metrics" {
			http.NotFound(w, r)
			return
		}
		n++
		if n == 2 {
			http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
			return
		}
		sim.ServeHTTP(w, r)
	}))
	defer srv.Close()
	res, err := Bench(context.Background(), opener(clean), Options{Sender: replay.Sender{URL: srv.URL}, Cold: true})
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	if !strings.HasPrefix(run.Cold, "not offered (GET /slots: 404") || run.Totals.Errors != 1 || run.Rows[1].Status != 503 {
		t.Errorf("cold %q, errors %d", run.Cold, run.Totals.Errors)
	}
}

// A row with no cached figure says why, whatever the reason: the server's error or refusal with
// its words, an answer cut short, or usage missing or without a cached-token field of any dialect.
func TestARowWithoutACachedFigureSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name string
		sent replay.Sent
		want string
	}{
		{"server error", replay.Sent{Status: 500, Error: "500 Internal Server Error: server_error: The model produced output"}, "server error: 500 Internal Server Error: server_error: The model produced output"},
		{"refused", replay.Sent{Status: 400, Error: "400 Bad Request: exceed_context_size_error"}, "refused: 400 Bad Request: exceed_context_size_error"},
		{"cut short", replay.Sent{Status: 200, Error: "the stream ended before its last event"}, "the stream ended before its last event"},
		{"stream without usage", replay.Sent{Status: 200, Stream: true}, "the stream carried no usage"},
		{"answer without usage", replay.Sent{Status: 200}, "the answer carried no usage"},
		{"usage without a cached field", replay.Sent{Status: 200, Reply: replay.Reply{Usage: json.RawMessage(`{"prompt_tokens":12}`)}}, `the usage has no cached-token field of any dialect ({"prompt_tokens":12})`},
		{"cached", replay.Sent{Status: 200, Reply: replay.Reply{Timings: json.RawMessage(`{"cache_n":3,"prompt_n":9}`)}}, ""},
	} {
		if got := whyNoCache(c.sent, c.sent.Reply.TokenUsage()); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
