package chunk

import "testing"

func fuzzSeeds(f *testing.F) {
	f.Add("One short paragraph that fits in a single piece.", 480, 64)
	f.Add("a\r\n\r\nb\rc. d\n\ne😀é\u0301", 16, 40)
	f.Add(genText(newRand(), 5000), 0, -1)
	f.Add("\xff\xe2\x82 \x80word. ", -5, 3)
}

// FuzzChars: the character splitter never panics and keeps its properties on any text.
func FuzzChars(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		checkChars(t, text, size%2000, overlap%2000)
	})
}

// FuzzTokens: the token splitter (words) never panics and keeps its properties on any text.
func FuzzTokens(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		checkTokens(t, text, size%300, overlap%300)
	})
}
