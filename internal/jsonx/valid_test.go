package jsonx

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{
	`{"model":"m","messages":[{"role":"user","content":"hi \"there\" \u00e9\n"}],"n":-1.5e+3,"ok":true,"x":null}`,
	`[]`, `{}`, ` [1, 2.0, -0, 0.5, 1e5, 1E-5] `, `"\ud800"`, `"a\x01"`, `"\q"`, `"\u12"`, `"\u12g4"`, `01`, `-`,
	`1.`, `1e`, `.5`, `+1`, `tru`, `nul`, `falsey`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1 2]`, `{"a":1}x`,
	"\"\xff\xfe\"", `"unterminated`, ``, ` `, "\t\r\n 7 \n", `{"a":[{"b":[{}]}]}`, `"\/\b\f\n\r\t"`,
}

// Valid answers as encoding/json does, on these and (FuzzValid) on any input.
func TestValidIsEncodingJSON(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, s := range append(validSeeds, deep(10000), deep(10001), `{"a":`+deep(9999)+`}`, `{"a":`+deep(10000)+`}`) {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json %v", s, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json %v", b, got, want)
		}
		// ValidObject: Valid for an object, each member's value a valid value of its own.
		i := SkipSpace(b, 0)
		want := json.Valid(b) && i < len(b) && b[i] == '{'
		if got := ValidObject(b, func(key []byte, s, e int) bool {
			if !json.Valid(key) || !json.Valid(b[s:e]) || key[0] != '"' {
				t.Fatalf("ValidObject(%q): member %q: %q", b, key, b[s:e])
			}
			return true
		}); got != want {
			t.Fatalf("ValidObject(%q) = %v, want %v", b, got, want)
		}
	})
}

// BenchmarkValid is an agent's request body checked by Valid beside encoding/json's Valid.
func BenchmarkValid(b *testing.B) {
	body := []byte(`{"model":"m","stream":true,"messages":[{"role":"system","content":"` +
		strings.Repeat("You are a coding agent. Follow the rules. ", 40) + `"},{"role":"user","content":"Summarise README.md"}],` +
		`"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`)
	for _, c := range []struct {
		name  string
		valid func([]byte) bool
	}{{"jsonx", Valid}, {"encoding-json", json.Valid}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if !c.valid(body) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// PlainString, where it answers, answers as json.Unmarshal into a string does.
func TestPlainStringIsUnmarshal(t *testing.T) {
	for _, s := range append(validSeeds, `"fake-model"`, `""`, `"é日本"`, "\"a\tb\"", `"a\"`, `"`, `x"`, `"a"b"`) {
		checkPlainString(t, []byte(s))
	}
	if _, ok := PlainString([]byte(`"fake-model"`)); !ok {
		t.Error("a plain string is not taken")
	}
}

func FuzzPlainString(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkPlainString)
}

func checkPlainString(t *testing.T, b []byte) {
	got, ok := PlainString(b)
	if !ok {
		return
	}
	var want string
	if err := json.Unmarshal(b, &want); err != nil || got != want {
		t.Fatalf("PlainString(%q) = %q, encoding/json %q (%v)", b, got, want, err)
	}
}

// plain8 answers as a byte-by-byte look does, for every byte in every place.
func TestPlain8(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 8; at++ {
			for _, fill := range []byte{'a', 0xff, 0x20, 0x80} {
				b := []byte{fill, fill, fill, fill, fill, fill, fill, fill}
				b[at] = byte(c)
				want := true
				for _, x := range b {
					if x < 0x20 || x == '"' || x == '\\' {
						want = false
					}
				}
				if got := plain8(binary.LittleEndian.Uint64(b)); got != want {
					t.Fatalf("plain8(%q) = %v", b, got)
				}
			}
		}
	}
}
