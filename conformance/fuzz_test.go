package conformance_test

import (
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/conformancetest"
)

// The areas' fuzz targets: decoding any bytes never panics, nor the reference on a case that
// decodes; its answer is an answer the area accepts (conformancetest.Answer). Seeds: the
// embedded cases, and inputs at the edges below.

func FuzzChunkCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Chunk)
	f.Add([]byte(`{"size": -9223372036854775808, "overlap": 9223372036854775807, "text": "a\r\n\r\nb. c\rd\u00e9\ud83d\ude00"}`))
	f.Fuzz(func(t *testing.T, in []byte) { conformancetest.Answer(t, conformance.Chunk, in, false) })
}

func FuzzChunkTokensCase(f *testing.F) {
	conformancetest.Seed(f, conformance.ChunkTokens)
	f.Add([]byte(`{"tokenizer": "words", "size": 9223372036854775807, "overlap": 0, "text": "\ud800 x"}`))
	f.Fuzz(func(t *testing.T, in []byte) { conformancetest.Answer(t, conformance.ChunkTokens, in, false) })
}

func FuzzFSAccessCase(f *testing.F) {
	conformancetest.Seed(f, conformance.FSAccess)
	f.Add([]byte(`{"tree": ["/a/b/c", "/a/d/"], "mounts": ["/a/d"], "grants": {"/a": "stage", "/a/d/x": "commit"}, "floor": {"/a/b": "none"}, "cwd": "/a/d", "op": "rm", "path": "../b/../d/./x//y/"}`))
	f.Fuzz(func(t *testing.T, in []byte) { conformancetest.Answer(t, conformance.FSAccess, in, false) })
}

func FuzzInstructionsCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Instructions)
	f.Fuzz(func(t *testing.T, in []byte) { conformancetest.Answer(t, conformance.Instructions, in, false) })
}

// FuzzContextCase: the reference may refuse a case that decodes (a recall of an id no step
// gave); when it answers, it answers each step.
func FuzzContextCase(f *testing.F) {
	conformancetest.Seed(f, conformance.Context)
	f.Add([]byte(`{"steps":[{"op":"read","id":"#0001","path":"a","content":"","offset":1},{"op":"recall","id":"#0002","target":"1"}]}`))
	f.Add([]byte(`{"limits":{"max_lines":1,"max_chars":1,"head_lines":1,"head_chars":1,"tail_lines":1,"tail_chars":1},"steps":[{"op":"edit","id":"#0001","path":"a","before":"é\r\n","after":"x"}]}`))
	f.Add([]byte(`{"steps":[{"op":"output","id":"#0001","tool":"bash","args":{},"text":"a\nb"},{"op":"recall","id":"#0002","target":"#0001","offset":2,"limit":9223372036854775807},{"op":"read","id":"#0003","path":"a","content":"a\nb","offset":2,"limit":9223372036854775807}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if b, ok := conformancetest.Answer(t, conformance.Context, raw, true); ok {
			conformancetest.StepAnswers(t, raw, b)
		}
	})
}

// FuzzPrefixDecode: decoding any input as an answer never panics either (the seeds hold the
// cases' expectations); when the reference answers, it answers each step.
func FuzzPrefixDecode(f *testing.F) {
	conformancetest.Seed(f, conformance.Prefix)
	for _, c := range conformancetest.Cases(f, conformance.Prefix) {
		f.Add([]byte(c.Expect))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, _ = conformance.Prefix.DecodeAnswer(raw)
		if b, ok := conformancetest.Answer(t, conformance.Prefix, raw, true); ok {
			conformancetest.StepAnswers(t, raw, b)
		}
	})
}
