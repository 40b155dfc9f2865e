package prefix

import (
	"bytes"
	"flag"
	"reflect"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/golit"
)

var update = flag.Bool("update", false, "write decoded.go from the vendored tools' files")

// wholeTools are the tools the vendored spec carries a file of, sorted.
func wholeTools() []string {
	var out []string
	for _, n := range spec.ToolNames() {
		if spec.Tools()[n].Whole {
			out = append(out, n)
		}
	}
	return out
}

// The definitions a process offers are what the vendored files decode to, and a tool with no
// file has none; -update writes the table again (go generate ./harness/prefix).
func TestDecodedIsRead(t *testing.T) {
	if *update {
		body, err := decodedBody()
		if err != nil {
			t.Fatal(err)
		}
		err = golit.WriteGoFile("decoded.go", "prefix", "`go generate ./harness/prefix` (TestDecodedIsRead -update)", body)
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, n := range spec.ToolNames() {
		got, ok := decodedDefinition(n)
		want, err := readDefinition(n)
		if ok != (err == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("decodedDefinition(%q) = %v, %v; the vendored file: %v, %v: run go generate ./harness/prefix",
				n, got, ok, want, err)
		}
	}
	if _, ok := decodedDefinition("no-such-tool"); ok {
		t.Error("decodedDefinition of a tool the spec does not have is ok")
	}
}

// decodedBody is decoded.go after its package clause.
func decodedBody() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// decodedDefinition is tools/<name>.json as Definition, a new value at each call.\n")
	b.WriteString("func decodedDefinition(name string) (Definition, bool) {\nswitch name {\n")
	for _, n := range wholeTools() {
		d, err := readDefinition(n)
		if err != nil {
			return nil, err
		}
		l := golit.Writer{Pkg: "prefix"}
		var expr bytes.Buffer
		if err := l.Write(&expr, reflect.ValueOf(d)); err != nil {
			return nil, err
		}
		b.WriteString("case " + golit.String(n) + ":\n" + l.Vars() + "return ")
		b.Write(expr.Bytes())
		b.WriteString(", true\n")
	}
	b.WriteString("}\nreturn Definition{}, false\n}\n")
	return b.Bytes(), nil
}
