package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens/tokenstest"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

func recordings(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob("../../../testdata/recordings/*.jsonl")
	if err != nil || len(m) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	return m
}

func tiktoken(t *testing.T) *tokens.Tiktoken {
	t.Helper()
	tk, err := tokens.NewTiktoken()
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func predictor(t *testing.T, c PredictorConfig) *Predictor {
	t.Helper()
	p, err := NewPredictor(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// On every recording, with 1, 2 and 4 slots, in the baseline and a variant, the prediction is
// what the simulator behind the fake caches, request for request: the two are one model
// configured alike, fed the same requests in the same order.
func TestThePredictionIsTheSimulatorsOnEveryRecording(t *testing.T) {
	tok := tiktoken(t)
	v, _ := ParseVariant("date-in-system")
	for _, rec := range recordings(t) {
		for _, slots := range []int{1, 2, 4} {
			// A subtest each, so that each simulator is closed before the next starts.
			t.Run(fmt.Sprintf("%s/%d slots", filepath.Base(rec), slots), func(t *testing.T) {
				recs := []Recording{{Name: rec, Open: opener(rec)}}
				_, o := startSim(t, recs, slots, tok)
				o.Variants, o.Predictor = []Variant{v}, predictor(t, PredictorConfig{Slots: slots, Tokenizer: tok})
				res, err := BenchAll(context.Background(), recs, o)
				if err != nil {
					t.Fatal(err)
				}
				for _, run := range res.Runs {
					if run.Totals.Compared != run.Totals.Requests || run.Totals.Exact != run.Totals.Compared {
						t.Errorf("%s, %d slots, %s: %d of %d exact of %d requests", filepath.Base(rec), slots, run.Name, run.Totals.Exact, run.Totals.Compared, run.Totals.Requests)
					}
					if !strings.HasPrefix(run.ColdCheck, "cold:") {
						t.Errorf("%s: cold check %q", run.Name, run.ColdCheck)
					}
				}
			})
		}
	}
}

// --sim --tokenizer URL: the simulator counts with the tokenizer it is given, as the prediction
// does, so the two agree and the prompt is the tokenizer's length.
func TestTheSimulatorCountsWithTheTokenizerItIsGiven(t *testing.T) {
	tok := tokens.NewServer(tokenstest.LlamaServer(t).URL)
	recs := []Recording{{Name: clean, Open: opener(clean)}}
	_, o := startSim(t, recs, 1, tok)
	o.Predictor = predictor(t, PredictorConfig{Slots: 1, Tokenizer: tok})
	res, err := BenchAll(context.Background(), recs, o)
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	if e, ok := run.Totals.Efficiency(); !ok || e != 1 || run.Totals.Exact != 6 {
		t.Errorf("efficiency %v %v, %d exact", e, ok, run.Totals.Exact)
	}
	for _, r := range run.Rows {
		if *r.Usage.PromptTokens != r.PredictedPrompt {
			t.Errorf("request %d: the simulator counted %d tokens, the tokenizer %d", r.N, *r.Usage.PromptTokens, r.PredictedPrompt)
		}
	}
}

// llamaWith is the fake as a llama-server whose cache is c.
func llamaWith(t *testing.T, c *cachesim.Cache) *fakeprovider.Server {
	t.Helper()
	return llamaFake(t, c, "qwen3-coder", "qwen3-coder-next")
}

// A server that keeps prompts in RAM apart from its slots (llama-server's default --cache-ram):
// with one slot, a conversation evicted by another comes back from RAM, and that request is named;
// with two, each idle slot is kept in RAM as a request starts, so erasing the slots leaves the
// cache warm and the cold check says so and why. The prediction follows the server from there on.
func TestTheColdCheckFindsTheRAMPromptCache(t *testing.T) {
	tok := tiktoken(t)
	for _, c := range []struct {
		slots           int
		baseRAM         int
		secondColdCheck string
	}{
		{1, 1, "cold:"},
		{2, 0, "not cold:"},
	} {
		cache, err := cachesim.NewWith(c.slots, cachesim.Options{Tokenizer: tok, RAM: true, IdleSlots: true})
		if err != nil {
			t.Fatal(err)
		}
		srv := llamaWith(t, cache)
		open := opener("../../../testdata/recordings/interleaved.jsonl")
		v, _ := ParseVariant("tool-churn:9")
		res, err := Bench(context.Background(), open, Options{Sender: replay.Sender{URL: srv.URL}, Cold: true, Tokenizer: tok, Variants: []Variant{v},
			Predictor: predictor(t, PredictorConfig{Slots: c.slots, Tokenizer: tok})})
		if err != nil {
			t.Fatal(err)
		}
		base, again := res.Runs[0], res.Runs[1]
		if !strings.HasPrefix(base.ColdCheck, "cold:") || !strings.HasPrefix(again.ColdCheck, c.secondColdCheck) {
			t.Errorf("%d slots: cold checks %q, %q", c.slots, base.ColdCheck, again.ColdCheck)
		}
		if c.secondColdCheck == "not cold:" && (!strings.Contains(again.ColdCheck, "--cache-ram 0") || again.Rows[0].Off != OffNotCold) {
			t.Errorf("%d slots: %q, first row off %q", c.slots, again.ColdCheck, again.Rows[0].Off)
		}
		var out strings.Builder
		if err := Write(&out, res, "table", true); err != nil || strings.Contains(out.String(), "not cold: not cold") ||
			c.secondColdCheck == "not cold:" && !strings.Contains(out.String(), "request 1: not cold: the first request took") {
			t.Errorf("%d slots: a note says its cause twice, or not at all (%v):\n%s", c.slots, err, out.String())
		}
		if base.Totals.ByOff[OffRAM] != c.baseRAM || base.Totals.Exact != base.Totals.Compared-c.baseRAM {
			t.Errorf("%d slots: baseline %d of %d exact, off %v: want %d named as taken from RAM", c.slots, base.Totals.Exact, base.Totals.Compared, base.Totals.ByOff, c.baseRAM)
		}
		wantExact := again.Totals.Compared
		if c.secondColdCheck == "not cold:" {
			wantExact--
		}
		if again.Totals.Exact != wantExact {
			t.Errorf("%d slots: second run %d of %d exact, off %v: the prediction should follow the RAM prompt cache now", c.slots, again.Totals.Exact, again.Totals.Compared, again.Totals.ByOff)
		}
		if !strings.Contains(res.Predictor, "with the RAM prompt cache the server showed") {
			t.Errorf("%d slots: predictor %q", c.slots, res.Predictor)
		}
	}
}

// A server that refuses what does not fit its context: each refused row carries the server's
// reason, in the table too, the refusals are counted as server errors, not as cache misses, and
// a prediction with the same context expects them.
func TestRefusalsShowTheServersReason(t *testing.T) {
	tok := tiktoken(t)
	cache, err := cachesim.NewWith(1, cachesim.Options{Tokenizer: tok, Context: 300})
	if err != nil {
		t.Fatal(err)
	}
	srv := llamaWith(t, cache)
	res, err := Bench(context.Background(), opener(clean), Options{Sender: replay.Sender{URL: srv.URL}, Cold: true, Tokenizer: tok,
		Predictor: predictor(t, PredictorConfig{Slots: 1, Context: 300, Tokenizer: tok})})
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	refused := 0
	for _, r := range run.Rows {
		if r.PredictedPrompt < 300 {
			continue
		}
		refused++
		if r.Status != 400 || !strings.Contains(r.Why, "refused: 400 Bad Request: exceed_context_size_error: request (") || r.Usage.CachedTokens != nil || !r.simRefused {
			t.Errorf("request %d: %d %q, cached %v, simulator refused %v", r.N, r.Status, r.Why, r.Usage.CachedTokens, r.simRefused)
		}
	}
	if refused == 0 || run.Totals.Errors != refused || run.Totals.Refused != refused || run.Totals.Reported != run.Totals.Requests-refused || run.Totals.Exact != run.Totals.Compared {
		t.Errorf("%d refused: totals %+v", refused, run.Totals)
	}
	var out strings.Builder
	if err := Write(&out, res, "table", true); err != nil {
		t.Fatal(err)
	}
	// Its /metrics has no counters of the prompt cache, and the report says so rather than
	// leaving the line out.
	if run.CountersMissing == "" || run.Counters != nil {
		t.Errorf("server counters %+v, missing %q", run.Counters, run.CountersMissing)
	}
	for _, want := range []string{"refused: 400 Bad Request: exceed_context_size_error", "(" + string(rune('0'+refused)) + " refused for their size)", " refused │",
		"none: " + run.CountersMissing} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// -v shows each request's prompt ms beside its TTFT; under --sim the prompt times are labelled
// modelled and no ratio of wall times is printed.
func TestTheTableSaysWhatItsTimesAre(t *testing.T) {
	t.Setenv("COLUMNS", "400") // the headers whole: a test of what they say, not of the layout
	recs := []Recording{{Name: clean, Open: opener(clean)}}
	_, o := startSim(t, recs, 1, nil)
	v, _ := ParseVariant("date-in-system")
	o.Variants = []Variant{v}
	res, err := BenchAll(context.Background(), recs, o)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	Write(&out, res, "table", true)
	table := out.String()
	for _, want := range []string{"prompt ms (modelled)", "prompt processing (modelled ms)", "baseline TTFT ms"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	for _, l := range strings.Split(table, "\n") {
		if (strings.Contains(l, "time to first token (ms, sum)") || strings.Contains(l, "total time (ms, sum)")) && strings.Contains(l, "×") {
			t.Errorf("a wall-time ratio under the simulator: %s", l)
		}
	}
	res.Simulated = false
	out.Reset()
	Write(&out, res, "table", true)
	if !strings.Contains(out.String(), "prompt processing (server ms)") || strings.Contains(out.String(), "modelled") {
		t.Errorf("a real server's times are the server's:\n%s", out.String())
	}
}

// The probe finds whether the server keeps prompts in RAM (which /props does not say), with one
// slot and with two; with what it found the prediction is exact from the first request, where
// learning it from the server cost the request that showed it.
func TestTheProbeFindsTheRAMPromptCache(t *testing.T) {
	tok := tiktoken(t)
	for _, slots := range []int{1, 2} {
		for _, ram := range []bool{false, true} {
			cache, err := cachesim.NewWith(slots, cachesim.Options{Tokenizer: tok, RAM: ram, IdleSlots: ram})
			if err != nil {
				t.Fatal(err)
			}
			srv := llamaWith(t, cache)
			snd := replay.Sender{URL: srv.URL}
			got, said, ok := snd.ProbeRAMCache(context.Background(), "qwen3-coder")
			if !ok || got != ram {
				t.Fatalf("%d slots, RAM %v: probed %v %v: %s", slots, ram, got, ok, said)
			}
			if info := cache.Info(); info[0].PromptTokens != 0 {
				t.Errorf("the probe left the slots holding %+v", info)
			}
			v, _ := ParseVariant("tool-churn:9")
			res, err := Bench(context.Background(), opener("../../../testdata/recordings/interleaved.jsonl"), Options{Sender: snd, Cold: true, Tokenizer: tok,
				Variants: []Variant{v}, Predictor: predictor(t, PredictorConfig{Slots: slots, Tokenizer: tok, RAM: got, RAMSaid: "probed"}),
				LlamaServer: &replay.LlamaServer{Slots: slots, RAMCache: &got, RAMProbe: said}})
			if err != nil {
				t.Fatal(err)
			}
			// The JSON report says what was probed and how the prediction was configured.
			var js strings.Builder
			if err := WriteJSON(&js, res); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{fmt.Sprintf(`"ram_cache":%v,"ram_probe":%q`, ram, said), fmt.Sprintf(`"predictor":"the cache simulator as llama-server: %d slot(s)`, slots), ", probed)"} {
				if !strings.Contains(js.String(), want) {
					t.Errorf("%d slots, RAM %v: the JSON lacks %s:\n%s", slots, ram, want, js.String())
				}
			}
			for _, run := range res.Runs {
				if run.Totals.Exact != run.Totals.Compared || run.Totals.Compared != 9 {
					t.Errorf("%d slots, RAM %v, %s: %d of %d exact, %v", slots, ram, run.Name, run.Totals.Exact, run.Totals.Compared, run.Totals.ByOff)
				}
			}
		}
	}
	// Slots that cannot be erased: not probed, and said why.
	if _, said, ok := (&replay.Sender{URL: "http://127.0.0.1:1"}).ProbeRAMCache(context.Background(), "m"); ok || !strings.HasPrefix(said, "not probed: ") {
		t.Errorf("%q %v", said, ok)
	}
}

// A llama-server's RAM prompt cache holds what earlier benches sent: a later bench of another
// recording of the same conversation finds prompts there that its own requests never made (on a
// real server, the fourth recording benched, its request 4). Each such row is named (not cold,
// or from the RAM prompt cache), none left unexplained, whether the probe found the RAM cache or
// the prediction learnt it.
func TestARAMPromptFromBeforeTheBenchIsNamed(t *testing.T) {
	tok := tiktoken(t)
	var vs []Variant
	for _, s := range []string{"date-in-system", "prune-results", "tool-churn"} {
		v, err := ParseVariant(s)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	for _, probed := range []bool{false, true} {
		cache, err := cachesim.NewWith(1, cachesim.Options{Tokenizer: tok, RAM: true, IdleSlots: true})
		if err != nil {
			t.Fatal(err)
		}
		srv := llamaWith(t, cache)
		named := 0
		for _, rec := range []string{"clean", "compaction", "date-in-system"} {
			res, err := Bench(context.Background(), opener("../../../testdata/recordings/"+rec+".jsonl"), Options{Sender: replay.Sender{URL: srv.URL}, Cold: true, Tokenizer: tok,
				Variants: vs, Predictor: predictor(t, PredictorConfig{Slots: 1, Tokenizer: tok, RAM: probed})})
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range res.Runs {
				for _, r := range run.Rows {
					switch r.Off {
					case "":
					case OffNotCold, OffRAM:
						named++
					default:
						t.Errorf("probed %v, %s %s request %d: off %q: %s", probed, rec, run.Name, r.N, r.Off, r.Detail)
					}
				}
			}
		}
		if named == 0 {
			t.Errorf("probed %v: no request took a prompt from before its bench", probed)
		}
	}
}

// A server the probe found keeping no prompt in RAM (--cache-ram 0) is never told that a miss
// came from its RAM prompt cache, nor to start with --cache-ram 0: tokens the simulator cannot
// account for there are said as they are.
func TestAServerWithNoRAMCacheIsNotToldOfOne(t *testing.T) {
	tok := tiktoken(t)
	p := predictor(t, PredictorConfig{Slots: 1, Tokenizer: tok, RAMSaid: "probed"})
	a, b := strings.Repeat("alpha ", 50), strings.Repeat("beta ", 50)
	run := Run{Name: "baseline", Cold: "erased 1 slot(s)"}
	for i, text := range []string{a, b, a} {
		pd := p.begin(context.Background(), "/v1/chat/completions", []byte(`{"model":"m","messages":[{"role":"user","content":"`+text+`"}]}`))
		cached := 0
		if i == 2 {
			cached = 5 // 2 more than the 3 tokens of framing a and b share: its slot holds b
		}
		row := Row{Run: "baseline", N: i + 1, Usage: usage.Usage{CachedTokens: &cached}}
		p.end(pd, replay.Sent{})
		p.settle(pd, &row, i == 0)
		run.Rows = append(run.Rows, row)
	}
	explain(&run, Options{}, false)
	if r := run.Rows[2]; r.Off != OffUnexplained || strings.Contains(r.Detail, "RAM") || r.Predicted == nil || *r.Predicted != 3 {
		t.Errorf("off %q: %s (predicted %v)", r.Off, r.Detail, r.Predicted)
	}
}
