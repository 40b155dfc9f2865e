package wire

import "strconv"

// llama-server's slot endpoints, as the llama.cpp dialect serves them over the cache simulator.

// slotCtx is the context size a slot says it has: the n_ctx of the model in testdata/llamacpp,
// as ModelsBody says.
const slotCtx = 4096

// SlotsBody is GET /slots: one object per slot, with its id and the length of the prompt it holds
// (n_prompt_tokens), fields in llama-server's order (testdata/llamacpp/06-slots.json) and the
// sampling parameters, which nothing of lembas-check reads, left out.
func SlotsBody(prompts []int) []byte {
	e := enc{b: make([]byte, 0, 96*(1+len(prompts))), first: true}
	e.arr()
	for i, n := range prompts {
		e.obj()
		e.kint("id", int64(i))
		e.kint("n_ctx", slotCtx)
		e.kbool("speculative", false)
		e.kbool("is_processing", false)
		e.kint("n_prompt_tokens", int64(n))
		e.end()
	}
	e.endArr()
	return e.b
}

// SlotErasedBody is POST /slots/{id}?action=erase's answer: the slot and how many tokens it held.
func SlotErasedBody(id, erased int) []byte {
	return []byte(`{"id_slot":` + strconv.Itoa(id) + `,"n_erased":` + strconv.Itoa(erased) + `}`)
}

// ContextRefusalBody is llama-server's 400 for a prompt of n tokens that does not fit a slot's
// context of ctx tokens (testdata/llamacpp/11-refused-context.json).
func ContextRefusalBody(n, ctx int) []byte {
	ns, cs := strconv.Itoa(n), strconv.Itoa(ctx)
	return []byte(`{"error":{"code":400,"message":"request (` + ns + ` tokens) exceeds the available context ` +
		`size (` + cs + ` tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":` + ns +
		`,"n_ctx":` + cs + `}}`)
}
