package spec

import (
	"bytes"
	"flag"
	"reflect"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/golit"
)

var update = flag.Bool("update", false, "write decoded.go from the vendored files")

// decodedFuncs are decoded.go's functions, each with what it holds read from the vendored files.
var decodedFuncs = []struct {
	name       string
	typ        string
	read, made func() any
}{
	{"decodedLoop", "Loop", func() any { return readLoop() }, func() any { return decodedLoop() }},
	{"decodedExtras", "Extra", func() any { return readExtras() }, func() any { return decodedExtras() }},
	{"decodedTools", "map[string]Tool", func() any { return readTools() }, func() any { return decodedTools() }},
	{"decodedNoteOrder", "[]string", func() any { return readNoteOrder() }, func() any { return decodedNoteOrder() }},
}

// The tables a process reads are what the vendored files decode to; -update writes them again
// (go generate ./harness/spec).
func TestDecodedIsRead(t *testing.T) {
	if *update {
		body, err := decodedBody()
		if err != nil {
			t.Fatal(err)
		}
		err = golit.WriteGoFile("decoded.go", "spec", "`go generate ./harness/spec` (TestDecodedIsRead -update)", body)
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, f := range decodedFuncs {
		if got, want := f.made(), f.read(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s() is not what the vendored files decode to: run go generate ./harness/spec", f.name)
		}
	}
}

// decodedBody is decoded.go after its package clause.
func decodedBody() ([]byte, error) {
	var b bytes.Buffer
	for _, f := range decodedFuncs {
		l := golit.Writer{Pkg: "spec"}
		var expr bytes.Buffer
		if err := l.Write(&expr, reflect.ValueOf(f.read())); err != nil {
			return nil, err
		}
		b.WriteString("func " + f.name + "() " + f.typ + " {\n" + l.Vars() + "return ")
		b.Write(expr.Bytes())
		b.WriteString("}\n\n")
	}
	return b.Bytes(), nil
}
