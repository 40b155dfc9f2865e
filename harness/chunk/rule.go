package chunk

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"

	"github.com/LLeMbas/lembas-check/harness/spec"
)

// Rule is one splitter's numbers. They are read from the vendored spec's own sentences (the
// about of the splitter's case file), not typed here, so a spec that changes them changes this.
type Rule struct {
	// MinSize: a smaller size is raised to it ("raised to N when smaller").
	MinSize int
	// MinPiece: a piece of a cut text under this many characters is dropped.
	MinPiece int
}

// TokenRule is the token splitter's numbers, from conformance/chunk_tokens.json's about.
var TokenRule = sync.OnceValue(func() Rule {
	b, err := fs.ReadFile(spec.Conformance(), "chunk_tokens.json")
	if err != nil {
		panic(err)
	}
	var f struct {
		About string `json:"about"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		panic(fmt.Sprintf("harness/chunk: conformance/chunk_tokens.json: %v", err))
	}
	return ruleOf("conformance/chunk_tokens.json's about", f.About)
})

// CharRule is the character splitter's numbers, from conformance/chunk.json's about, which only
// extra/chunk.json carries (the seed holds no other part of that file).
var CharRule = sync.OnceValue(func() Rule {
	return ruleOf("extra/chunk.json chunk.about", spec.Text("chunk.about"))
})

// ruleOf reads a Rule from an about; a sentence that is not there is a vendoring mistake.
func ruleOf(where, about string) Rule {
	num := func(sentence string) int {
		n, ok := spec.FindNumber(about, sentence)
		if !ok {
			panic(fmt.Sprintf("harness/chunk: %s does not say %q", where, sentence))
		}
		return n
	}
	return Rule{MinSize: num("(raised to {} when smaller)"), MinPiece: num("pieces under {} characters dropped")}
}
