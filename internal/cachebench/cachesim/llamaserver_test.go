package cachesim

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
)

// seq is a prompt of the tokens from..to-1, as one piece (as a llama.cpp server's tokenizer
// gives a prompt).
func seq(from, to uint32) tokens.Prompt { return flat(span(from, to)...) }

func span(from, to uint32) []uint32 {
	var out []uint32
	for t := from; t < to; t++ {
		out = append(out, t)
	}
	return out
}

func flat(toks ...uint32) tokens.Prompt {
	h := sha256.New()
	var b [4]byte
	for _, t := range toks {
		binary.LittleEndian.PutUint32(b[:], t)
		h.Write(b[:])
	}
	pc := tokens.Piece{Tokens: toks}
	h.Sum(pc.Sum[:0])
	return tokens.Prompt{Pieces: []tokens.Piece{pc}, N: len(toks)}
}

func cat(parts ...[]uint32) []uint32 {
	var out []uint32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func mustNew(t *testing.T, n int, o Options) *Cache {
	t.Helper()
	c, err := NewWith(n, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Of slots equally long unused, llama-server's LRU takes the last (t_last_used <= the least).
func TestLRUTakesTheLastOfEquals(t *testing.T) {
	c := mustNew(t, 3, Options{})
	if r := c.ServePrompt(seq(0, 100)); r.Slot != 2 {
		t.Errorf("first request on slot %d, want 2", r.Slot)
	}
	if r := c.ServePrompt(seq(1000, 1100)); r.Slot != 1 {
		t.Errorf("second conversation on slot %d, want 1", r.Slot)
	}
}

// A slot holds the prompt and what was generated after it but the last token (sampled, never
// decoded): a request that continues the generation finds it cached.
func TestGeneratedTokensStayInTheSlot(t *testing.T) {
	c := mustNew(t, 1, Options{})
	p := span(0, 100)
	tk := c.Begin(flat(p...))
	c.End(tk, []uint32{7000, 7001, 7002, 7003}, 0)
	if r := c.ServePrompt(flat(cat(p, []uint32{7000, 7001, 7002, 7003, 9})...)); r.CachedTokens != 103 {
		t.Errorf("cached %d, want the prompt and 3 of the 4 generated tokens (103)", r.CachedTokens)
	}
	// Tokens only counted match nothing, but the slot holds them.
	tk = c.Begin(flat(p...))
	c.End(tk, nil, 16)
	if got := c.Info()[0].PromptTokens; got != 115 {
		t.Errorf("the slot holds %d tokens, want 100 + 15", got)
	}
	if r := c.ServePrompt(flat(cat(p, span(7000, 7010))...)); r.CachedTokens != 100 {
		t.Errorf("cached %d, want 100: unknown generated tokens match nothing", r.CachedTokens)
	}
}

// A busy slot is not chosen; with every slot busy a request waits, and gets the first freed slot
// in the order requests came.
func TestBusySlotsMakeRequestsWait(t *testing.T) {
	c := mustNew(t, 1, Options{})
	a := c.Begin(seq(0, 100))
	b := c.Begin(seq(1000, 1100))
	d := c.Begin(seq(2000, 2100))
	if _, ok := b.Result(); ok {
		t.Fatal("the second request got the busy slot")
	}
	select {
	case <-b.Ready():
		t.Fatal("ready while waiting")
	default:
	}
	if !c.Info()[0].Processing {
		t.Error("the slot does not say it is processing")
	}
	c.End(a, nil, 0)
	<-b.Ready()
	if _, ok := d.Result(); ok {
		t.Error("the third request went before the second")
	}
	c.End(d, nil, 0) // a request given up while waiting leaves the queue
	c.End(b, nil, 0)
	// The slot's ticks: a took it and gave it back before b took it; d never took one.
	at, ar := a.Span()
	bt, br := b.Span()
	dt, dr := d.Span()
	if !(0 < at && at < ar && ar < bt && bt < br) || dt != 0 || dr != 0 {
		t.Errorf("spans a %d–%d, b %d–%d, d %d–%d", at, ar, bt, br, dt, dr)
	}
	if r := c.ServePrompt(seq(1000, 1200)); r.CachedTokens != 100 {
		t.Errorf("cached %d: the second request's prompt should be in the slot", r.CachedTokens)
	}

	// With two slots, a conversation whose own slot is busy goes to the other.
	c = mustNew(t, 2, Options{})
	c.ServePrompt(seq(0, 100))
	own := c.Begin(seq(0, 200))
	other := c.Begin(seq(0, 300))
	r, ok := other.Result()
	o, _ := own.Result()
	if !ok || r.Slot == o.Slot || r.CachedTokens != 0 {
		t.Errorf("own %+v, other %+v %v: want the other slot, nothing cached", o, r, ok)
	}
}

// A prompt as long as the slot's context or longer is refused (exceed_context_size_error); the
// slot keeps what it held.
func TestContextRefuses(t *testing.T) {
	c := mustNew(t, 1, Options{Context: 200})
	c.ServePrompt(seq(0, 150))
	if r := c.ServePrompt(seq(0, 200)); !r.Refused || r.CachedTokens != 0 {
		t.Errorf("%+v: want refused", r)
	}
	if r := c.ServePrompt(seq(0, 199)); r.Refused || r.CachedTokens != 150 {
		t.Errorf("%+v: want 150 cached: the refused request changed nothing", r)
	}
}

// llama-server's RAM prompt cache (--cache-ram): a conversation evicted from the only slot is
// kept in RAM and comes back from there; erasing the slot does not empty it.
func TestRAMPromptCache(t *testing.T) {
	a, b := span(0, 400), span(5000, 5300)
	for _, ram := range []bool{false, true} {
		c := mustNew(t, 1, Options{RAM: ram, IdleSlots: true})
		c.ServePrompt(flat(a...))
		c.ServePrompt(flat(b...)) // takes the slot by LRU: a goes to RAM
		r := c.ServePrompt(flat(cat(a, span(9000, 9050))...))
		want := 0
		if ram {
			want = 400
		}
		if r.CachedTokens != want || (r.FromRAM > 0) != ram {
			t.Errorf("ram %v: %+v, want %d cached", ram, r, want)
		}
		c.EraseAll()
		r = c.ServePrompt(flat(b...))
		if want := map[bool]int{false: 0, true: 299}[ram]; r.CachedTokens != want {
			t.Errorf("ram %v, after erasing: %d cached, want %d", ram, r.CachedTokens, want)
		}
		c.EraseRAM()
		c.EraseAll()
		if r := c.ServePrompt(flat(b...)); r.CachedTokens != 0 {
			t.Errorf("ram %v, after erasing RAM too: %d cached", ram, r.CachedTokens)
		}
	}
}

// A state must keep a quarter of itself to be loaded: a long prompt is not thrown away for a
// request that shares only its head.
func TestRAMDoesNotTrashLongPrompts(t *testing.T) {
	c := mustNew(t, 1, Options{RAM: true})
	c.ServePrompt(seq(0, 1000))
	c.ServePrompt(seq(5000, 5100))
	if r := c.ServePrompt(flat(cat(span(0, 200), span(8000, 8100))...)); r.CachedTokens != 0 || r.FromRAM != 0 {
		t.Errorf("%+v: 200 of 1000 is under a quarter, nothing should be loaded", r)
	}
}

// With --cache-idle-slots every idle slot is kept in RAM as a request starts; with a unified KV
// cache (-np auto) the idle slots are then emptied, and a conversation comes back from RAM.
func TestIdleSlots(t *testing.T) {
	c := mustNew(t, 2, Options{RAM: true, IdleSlots: true, Unified: true})
	c.ServePrompt(seq(0, 300))
	c.ServePrompt(seq(5000, 5300)) // slot of the first is idle: kept in RAM, emptied
	if info := c.Info(); info[0].PromptTokens+info[1].PromptTokens != 300 {
		t.Errorf("slots %+v: one should have been emptied", info)
	}
	if r := c.ServePrompt(seq(0, 350)); r.CachedTokens != 300 || r.FromRAM != 300 {
		t.Errorf("%+v: the first conversation should come back from RAM", r)
	}
	c.EraseAll()
	if r := c.ServePrompt(seq(5000, 5400)); r.CachedTokens != 300 {
		t.Errorf("%+v: erased slots, but RAM holds the second conversation", r)
	}
}

// A request served whole (ServePrompt, the fake's) holds its slot for no simulated time, so no
// other request ever finds the slot busy with it. When it held the slot from Begin to End with the
// lock let go between, 64 streams on one slot queued behind each other, each woken in turn.
func TestAnInstantRequestIsNeverSeenBusy(t *testing.T) {
	c := mustNew(t, 1, Options{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 20000; i++ {
			c.ServePrompt(seq(0, 50))
		}
	}()
	busy, looked := 0, 0
	for running := true; running; looked++ {
		select {
		case <-done:
			running = false
		default:
		}
		tk := c.Begin(seq(5000, 5050))
		if _, ok := tk.Result(); !ok {
			busy++
		}
		c.End(tk, nil, 0)
	}
	if busy > 0 {
		t.Errorf("%d of %d requests found the slot busy with a request served whole", busy, looked)
	}
}
