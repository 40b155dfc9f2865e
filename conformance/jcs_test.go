package conformance

import (
	"encoding/json"
	"math"
	"testing"
)

func TestCanonicalRFC8785Examples(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"b": 1, "a": [true, null, "x"]}`, `{"a":[true,null,"x"],"b":1}`},
		// RFC 8785 §3.2.3: sorting by UTF-16 code units puts U+1F600 (a surrogate pair) before U+FB33.
		{`{"\ufb33": 1, "\ud83d\ude00": 2, "\u20ac": 3, "1": 4, "\r": 5}`, "{\"\\r\":5,\"1\":4,\"\u20ac\":3,\"\U0001F600\":2,\"\ufb33\":1}"},
		{`"\u0001\u001f/\u00e9"`, `"\u0001\u001f/` + "\u00e9" + `"`},
		{`[1.0, -0, 1e21, 1e20, 0.000001, 1e-7, 123.456, -5e-324]`, `[1,0,1e+21,100000000000000000000,0.000001,1e-7,123.456,-5e-324]`},
	} {
		got, err := Canonical([]byte(c.in))
		if err != nil {
			t.Fatalf("Canonical(%s): %v", c.in, err)
		}
		if string(got) != c.want {
			t.Errorf("Canonical(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestESNumberMatchesECMAScript(t *testing.T) {
	// Values from RFC 8785 Appendix B.
	for bits, want := range map[uint64]string{
		0x0000000000000000: "0",
		0x0000000000000001: "5e-324",
		0x7fefffffffffffff: "1.7976931348623157e+308",
		0x4340000000000000: "9007199254740992",
		0x444b1ae4d6e2ef50: "1e+21",
		0x3eb0c6f7a0b5ed8d: "0.000001",
		0x3eb0c6f7a0b5ed8c: "9.999999999999997e-7",
		0x4415af1d78b58c3f: "99999999999999980000", // node: String(9.999999999999998e19),
		0x44b52d02c7e14af6: "1e+23",
		0x4024000000000000: "10",
	} {
		f := float64frombits(bits)
		if got := ESNumber(f); got != want {
			t.Errorf("ESNumber(%x) = %s, want %s", bits, got, want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range canonicalTexts {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Canonical(in)
		slow, slowErr := canonicalDecoded(in)
		if string(c) != string(slow) || (err == nil) != (slowErr == nil) {
			t.Fatalf("Canonical(%q) = %q, %v; by the decoder %q, %v", in, c, err, slow, slowErr)
		}
		if err != nil {
			return
		}
		if !json.Valid(c) {
			t.Fatalf("canonical form of %q is not JSON: %q", in, c)
		}
		again, err := Canonical(c)
		if err != nil || string(again) != string(c) {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, c, again, err)
		}
	})
}

// canonicalTexts are texts whose canonical form the one-pass writer and the decoder must agree
// on: escapes, surrogates (paired, lone, followed by another escape), invalid UTF-8, numbers at
// the edges, names out of order, the same name twice, and texts that are not JSON.
var canonicalTexts = []string{
	`{"a":1}`, `[1e300,"\u00e9",{"z":null,"y":[]}]`, `"x"`, `-0.5`, `-0`, `0`, `123456789012345`,
	`1234567890123456789`, `-123456789012345`, `1e400`, `-1e-400`, `1.5E+3`, `[ 1 , 2 ]`,
	`{"b":{"d":1,"c":2},"a":[{"y":1,"x":2}]}`, `{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, `"\ud83d\ud83d\ude00"`,
	"\"\xff\xfe\"", "\"a\xc3\"", "{\"\xff\":1,\"\xfe\":2}", `"\/\"\\\b\f\n\r\t\u0000\u001f\u007f"`,
	"\"\u2028\u00e9\U0001F600\"", `{"\ufb33":1,"\ud83d\ude00":2,"\u20ac":3,"1":4,"\r":5,"":6}`,
	`{"é":1,"e":2,"\ue000":3,"\U0001F600":4}`, `1 2`, `{`, ``, ` `, `[1,]`, `tru`, `{"a" 1}`,
	"\t{\n \"k\" :\r [ true , false , null ] }\n",
}

// The one-pass writer is the decoder's way, byte for byte, on every embedded case's input and
// expectation and on the edges above.
func TestCanonicalIsTheDecoders(t *testing.T) {
	texts := append([]string(nil), canonicalTexts...)
	for _, c := range Embedded() {
		texts = append(texts, string(c.Input), string(c.Expect))
	}
	for _, in := range texts {
		got, err := Canonical([]byte(in))
		want, wantErr := canonicalDecoded([]byte(in))
		if string(got) != string(want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("Canonical(%q) = %q, %v; by the decoder %q, %v", in, got, err, want, wantErr)
		}
	}
}

func BenchmarkCanonical(b *testing.B) {
	cases := Embedded()
	for _, way := range []struct {
		name string
		f    func([]byte) ([]byte, error)
	}{{"one-pass", Canonical}, {"decoder", canonicalDecoded}} {
		b.Run(way.name, func(b *testing.B) {
			for b.Loop() {
				for _, c := range cases {
					if _, err := way.f(c.Expect); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func float64frombits(b uint64) float64 { return math.Float64frombits(b) }
