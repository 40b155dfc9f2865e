package wire

import "github.com/LLeMbas/lembas-check/internal/api/usage"

// ModelsBody is GET /v1/models: OpenAI's list, or llama-server's (its `models` list beside
// `data`, and `aliases`, `tags` and `meta` on each entry) in the llama.cpp dialect. The meta
// numbers are those of the model in testdata/llamacpp: a client reading n_ctx gets a plausible
// context size.
func ModelsBody(d usage.Dialect, models []string, created int64) []byte {
	e := enc{b: make([]byte, 0, 256*(1+len(models))), first: true}
	llama := d == usage.LlamaCpp
	e.obj()
	if llama {
		llamaModels(&e, models)
	}
	e.kstr("object", "list")
	kobjs(&e, "data", models, func(m string) {
		e.kstr("id", m)
		if llama {
			e.kstrs("aliases", m)
			e.kstrs("tags")
		}
		e.kstr("object", "model")
		e.kint("created", created)
		if !llama {
			e.kstr("owned_by", "lembas-check")
			return
		}
		e.kstr("owned_by", "llamacpp")
		e.key("meta")
		e.obj()
		e.kbool("vocab_type", true)
		e.kint("n_vocab", 32000)
		e.kint("n_ctx", 4096)
		e.kint("n_ctx_train", 4096)
		e.kint("n_embd", 512)
		e.kint("n_params", 60039680)
		e.kint("size", 120096768)
		e.kstr("ftype", "F16")
		e.end()
	})
	e.end()
	return e.b
}

// llamaModels is llama-server's `models` list, written before `data`.
func llamaModels(e *enc, models []string) {
	kobjs(e, "models", models, func(m string) {
		e.kstr("name", m)
		e.kstr("model", m)
		for _, k := range []string{"modified_at", "size", "digest"} {
			e.kstr(k, "")
		}
		e.kstr("type", "model")
		e.kstr("description", "")
		e.kstrs("tags", "")
		e.kstrs("capabilities", "completion")
		e.kstr("parameters", "")
		e.key("details")
		e.obj()
		e.kstr("parent_model", "")
		e.kstr("format", "gguf")
		e.kstr("family", "")
		e.kstrs("families", "")
		e.kstr("parameter_size", "")
		e.kstr("quantization_level", "")
		e.end()
	})
}
