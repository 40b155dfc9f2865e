package table

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzPlainIsTablewriter: a table plain draws is drawn byte for byte as tablewriter draws it.
func FuzzPlainIsTablewriter(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(4), uint8(1), true, "")
	f.Add(uint64(2), uint8(7), uint8(12), uint8(1), true, " ")
	f.Add(uint64(3), uint8(1), uint8(0), uint8(0), false, " ")
	f.Fuzz(func(t *testing.T, seed uint64, cols, nrows, left uint8, footer bool, pad string) {
		if pad != "" {
			pad = " "
		}
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		cell := func() any {
			const chars = "abcXYZ019 .,:%-_()"
			n := 1 + r.IntN(14)
			if r.IntN(6) == 0 {
				return r.IntN(100000) // a number, as the reports append them
			}
			var b strings.Builder
			for range n {
				b.WriteByte(chars[r.IntN(len(chars))])
			}
			return b.String()
		}
		mk := func() []any {
			row := make([]any, 1+int(cols)%8)
			for i := range row {
				row[i] = cell()
			}
			return row
		}
		tb := &Table{left: int(left) % 4}
		tb.header = mk()
		for range int(nrows) % 16 {
			tb.rows = append(tb.rows, mk())
		}
		if footer {
			tb.footer = mk()
		}
		var got, want bytes.Buffer
		if !tb.plain(&got, pad) {
			return
		}
		if err := tb.render(&want, nil, pad); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("plain drew\n%s\ntablewriter\n%s", got.String(), want.String())
		}
	})
}

// The run report's table is one plain draws.
func TestPlainDrawsTheRunTable(t *testing.T) {
	tb := &Table{left: 1}
	tb.Header("Area", "Cases", "Pass", "Fail", "XFail", "Skip", "Time")
	tb.Append("chunk_tokens", 17, 17, 0, 0, 0, "0.4ms")
	tb.Append("jobs", 10, 10, 0, 0, 0, "0.1ms")
	tb.Footer("all", 27, 27, 0, 0, 0, "31.4ms")
	var got, want bytes.Buffer
	if !tb.plain(&got, " ") {
		t.Fatal("the run table is not drawn plainly")
	}
	if err := tb.render(&want, nil, " "); err != nil || got.String() != want.String() {
		t.Errorf("plain drew\n%s\ntablewriter (%v)\n%s", got.String(), err, want.String())
	}
}
