package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/LLeMbas/lembas-check/replay"
	"github.com/LLeMbas/lembas-check/tokens"
)

// ParseVariants reads --variant's values.
func ParseVariants(list []string) ([]Variant, error) {
	var vs []Variant
	for _, s := range list {
		v, err := ParseVariant(s)
		if err != nil {
			return nil, fmt.Errorf("--variant: %v", err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// Recordings are what bench replays: one recording (or request log), or each *.jsonl of a
// folder, in name order, each checked to open. opened is told of each reader as it is opened
// (the progress line counts its bytes).
func Recordings(path string, opened func(*replay.Reader)) ([]Recording, error) {
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		m, err := filepath.Glob(filepath.Join(path, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: a folder with no recording (*.jsonl) in it", path)
		}
		sort.Strings(m)
		files = m
	}
	var out []Recording
	for _, f := range files {
		open := func() (replay.Source, io.Closer, error) {
			r, c, err := replay.OpenFile(f)
			if err == nil {
				opened(r)
			}
			return r, c, err
		}
		_, c, err := open()
		if err != nil {
			return nil, err
		}
		c.Close()
		out = append(out, Recording{Name: f, Open: open})
	}
	return out, nil
}

// Target is what the bench measures and how it predicts, as a person gives it (--server or
// --sim, --cache-slots, --tokenizer, --slot-prompt-similarity; docs/bench.md).
type Target struct {
	Server replay.ServerSettings
	Sim    bool
	Slots  int
	// Tokenizer is "" (the server's own when it is a llama-server, else tiktoken), "server",
	// "tiktoken", or a llama.cpp tokenizer's URL.
	Tokenizer  string
	Similarity float64
}

// Setup fills o's Sender, Tokenizer, LlamaServer, Predictor and Reset for the target: the
// simulator started in-process (returned, for the caller to Close), or the server asked what it
// is, so that the prediction is configured like the server it measures. Its errors name the flag
// at fault, or the recording (path) for a server that could not be asked.
func (t Target) Setup(ctx context.Context, path string, recs []Recording, o *Options) (_ *Sim, err error) {
	var counter tokens.Tokenizer
	switch t.Tokenizer {
	case "", "server":
	case "tiktoken":
		counter, err = tokens.NewTiktoken()
	default:
		counter = tokens.NewServer(t.Tokenizer)
	}
	if err != nil {
		return nil, err
	}
	var sim *Sim
	defer func() {
		if err != nil && sim != nil {
			sim.Close()
		}
	}()
	if t.Sim {
		if t.Tokenizer == "" || t.Tokenizer == "server" {
			if counter, err = tokens.NewTiktoken(); err != nil {
				return nil, err
			}
		}
		if sim, err = StartSim(recs, t.Slots, counter); err != nil {
			return nil, fmt.Errorf("--sim: %v", err)
		}
		t.Server.URL = sim.BaseURL()
		o.Reset = sim.Reset
	}
	if o.Sender, err = t.Server.Sender(); err != nil {
		return nil, err
	}
	predict := PredictorConfig{Slots: t.Slots, Similarity: t.Similarity}
	if sim == nil {
		// Configured like the server it measures: a llama-server says its slots and context, and
		// counts with its own tokenizer.
		info, err := o.Sender.LlamaServer(ctx)
		if err != nil {
			return nil, fmt.Errorf("bench %s: %v", path, err)
		}
		o.LlamaServer = info
		if counter == nil {
			if info != nil {
				counter = tokens.NewServer(t.Server.URL)
			} else if counter, err = tokens.NewTiktoken(); err != nil {
				return nil, err
			}
		}
		if info != nil {
			predict.Slots, predict.Context = info.Slots, info.Context
			if o.Cold {
				// Whether it keeps prompts in RAM, which /props does not say: three requests of
				// one token each.
				ram, said, ok := o.Sender.ProbeRAMCache(ctx, info.Model)
				info.RAMProbe = said
				if ok {
					info.RAMCache, predict.RAM = &ram, ram
					predict.RAMSaid = "probed"
				}
			}
		}
		if t.Tokenizer == "server" && info == nil {
			return nil, fmt.Errorf("--tokenizer server: %s is not a llama-server (GET /props has no total_slots): give a tokenizer's URL, or leave --tokenizer out", t.Server.URL)
		}
	}
	o.Tokenizer = counter
	if sim != nil || o.LlamaServer != nil {
		predict.Tokenizer = counter
		if o.Predictor, err = NewPredictor(predict); err != nil {
			return nil, err
		}
	}
	return sim, nil
}
