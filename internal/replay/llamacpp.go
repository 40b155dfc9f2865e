package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// LlamaServer is what a llama.cpp llama-server says of itself (GET /props, GET /slots): what a
// prediction of its cache must be configured with. Its --slot-prompt-similarity and --cache-ram
// are not among what it says.
type LlamaServer struct {
	// Slots is total_slots (-np); Context each slot's context in tokens (n_ctx).
	Slots   int `json:"slots"`
	Context int `json:"context"`
	// Model is the one model it serves, whatever a request names.
	Model string `json:"model"`
	Build string `json:"build,omitempty"`
	// SlotIDs are the slots GET /slots lists; nil with SlotsError when it does not answer
	// (started with --no-slots).
	SlotIDs    []int  `json:"slot_ids,omitempty"`
	SlotsError string `json:"slots_error,omitempty"`
	// RAMCache is what ProbeRAMCache found (nil: not probed), RAMProbe what it did.
	RAMCache *bool  `json:"ram_cache,omitempty"`
	RAMProbe string `json:"ram_probe,omitempty"`
}

// base is the server's root, without /v1.
func (s *Sender) base() string { return strings.TrimSuffix(strings.TrimRight(s.URL, "/"), "/v1") }

// get asks the server (GET or POST without a body) and reads up to 16 MiB of the answer.
func (s *Sender) get(ctx context.Context, method, url string) ([]byte, int, error) {
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, 0, err
	}
	for k, v := range s.Header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return b, resp.StatusCode, err
}

// LlamaServer asks the server whether it is a llama-server and how it is set up. It answers nil
// and no error for a server that is not one (GET /props does not answer with total_slots), and an
// error only when the server cannot be reached at all.
func (s *Sender) LlamaServer(ctx context.Context) (*LlamaServer, error) {
	b, code, err := s.get(ctx, http.MethodGet, s.base()+"/props")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: GET /props: %v", ErrUnreachable, err)
	}
	if code != http.StatusOK {
		return nil, nil
	}
	var props struct {
		Slots    *int `json:"total_slots"`
		Defaults struct {
			Context int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		Alias string `json:"model_alias"`
		Path  string `json:"model_path"`
		Build string `json:"build_info"`
	}
	if json.Unmarshal(b, &props) != nil || props.Slots == nil {
		return nil, nil
	}
	info := &LlamaServer{Slots: *props.Slots, Context: props.Defaults.Context, Model: props.Alias, Build: props.Build}
	if info.Model == "" {
		info.Model = props.Path
	}
	b, code, err = s.get(ctx, http.MethodGet, s.base()+"/slots")
	switch {
	case err != nil:
		info.SlotsError = err.Error()
	case code != http.StatusOK:
		info.SlotsError = fmt.Sprintf("GET /slots: %d %s: %.120s", code, http.StatusText(code), bytes.TrimSpace(b))
	default:
		if info.SlotIDs, err = SlotIDs(b); err != nil {
			info.SlotsError = "GET /slots: " + err.Error()
		}
	}
	return info, nil
}

// EmptyCache empties a server's prompt cache where it offers a way and says what it did: a
// llama-server's slots (GET /slots, then POST /slots/{id}?action=erase for each; llama-server
// answers 501 without --slot-save-path), else vLLM's POST /reset_prefix_cache (served with
// VLLM_SERVER_DEV_MODE=1), else SGLang's POST /flush_cache. slots is true when it erased a
// llama-server's slots. A llama-server's RAM prompt cache (--cache-ram) is not a slot: nothing
// erases it.
func (s *Sender) EmptyCache(ctx context.Context) (said string, slots bool) {
	b, code, err := s.get(ctx, http.MethodGet, s.base()+"/slots")
	if err == nil && code == http.StatusOK {
		return s.eraseSlots(ctx, b)
	}
	tried := []string{"GET /slots: " + statusText(code, err)}
	for _, path := range []string{"/reset_prefix_cache", "/flush_cache"} {
		_, code, err := s.get(ctx, http.MethodPost, s.base()+path)
		if err == nil && code == http.StatusOK {
			return "emptied (POST " + path + ")", false
		}
		tried = append(tried, "POST "+path+": "+statusText(code, err))
	}
	return "not offered (" + strings.Join(tried, "; ") + "): the cache may hold earlier requests", false
}

func (s *Sender) eraseSlots(ctx context.Context, list []byte) (string, bool) {
	ids, err := SlotIDs(list)
	if err != nil {
		return "not offered (GET /slots: " + err.Error() + ")", false
	}
	for _, id := range ids {
		if _, code, err := s.get(ctx, http.MethodPost, fmt.Sprintf("%s/slots/%d?action=erase", s.base(),
			id)); err != nil || code != http.StatusOK {
			why := ""
			if code == http.StatusNotImplemented {
				why = " (llama-server erases slots only when started with --slot-save-path DIR)"
			}
			return fmt.Sprintf("not offered (POST /slots/%d?action=erase: %s%s): the cache may hold earlier requests",
				id, statusText(code, err), why), false
		}
	}
	return fmt.Sprintf("erased %d slot(s)", len(ids)), true
}

// probeTexts are the probe's two prompts: unlike each other (the second must not continue the
// first's slot) and unlike any session, and long enough that the few framing tokens they share
// with one are under the quarter of itself the RAM cache must keep to hand a prompt over.
var probeTexts = [2]string{
	strings.Repeat("lembas-check asks whether this llama-server keeps prompts in RAM apart from its slots; ", 8),
	strings.Repeat("zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn; ", 8),
}

// ProbeRAMCache finds whether a llama-server keeps prompts in RAM apart from its slots
// (--cache-ram, on by default, which /props does not say): it sends a prompt, another, erases
// every slot and sends the first again, each answered with one token. Cached tokens the third
// time came from RAM. model is what the requests name (llama-server serves its one model whatever
// they name). It needs the slots erasable (--slot-save-path); ok is false, with the reason
// in said, when the probe could not be made. The slots are left erased.
func (s *Sender) ProbeRAMCache(ctx context.Context, model string) (ram bool, said string, ok bool) {
	ask := func(n int) (int, error) {
		body, _ := json.Marshal(map[string]any{"model": model, "messages": []map[string]string{{"role": "user",
			"content": probeTexts[n-1]}}, "max_tokens": 1})
		sent, err := s.Send(ctx, "/v1/chat/completions", body)
		if err != nil {
			return 0, err
		}
		if sent.Error != "" {
			return 0, fmt.Errorf("%s", sent.Error)
		}
		u := sent.Reply.TokenUsage()
		if u.CachedTokens == nil {
			return 0, fmt.Errorf("the answer reported no cached tokens")
		}
		return *u.CachedTokens, nil
	}
	if _, err := ask(1); err != nil {
		return false, "not probed: " + err.Error(), false
	}
	if _, err := ask(2); err != nil {
		return false, "not probed: " + err.Error(), false
	}
	if erased, ok := s.EmptyCache(ctx); !ok {
		return false, "not probed: the slots could not be erased: " + erased, false
	}
	n, err := ask(1)
	if err != nil {
		return false, "not probed: " + err.Error(), false
	}
	s.EmptyCache(ctx)
	if n > 0 {
		return true, fmt.Sprintf("keeps prompts in RAM (--cache-ram): a prompt sent again after its slot was erased "+
			"took %d tokens from the cache", n), true
	}
	return false, "keeps no prompt in RAM (--cache-ram 0): a prompt sent again after its slot was erased took " +
		"nothing from the cache", true
}

func statusText(code int, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

// SlotIDs reads the slot ids of a llama.cpp `GET /slots` answer.
func SlotIDs(b []byte) ([]int, error) {
	var slots []struct {
		ID *int `json:"id"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(b), &slots); err != nil {
		return nil, fmt.Errorf("not a list of slots: %v", err)
	}
	var ids []int
	for i, s := range slots {
		if s.ID == nil {
			return nil, fmt.Errorf("slot %d has no id", i)
		}
		ids = append(ids, *s.ID)
	}
	return ids, nil
}
