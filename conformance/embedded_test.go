package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/LLeMbas/lembas-check/internal/golit"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite embedded_cases.go from the embedded suites (go generate ./conformance)")

const (
	embeddedFile        = "embedded_cases.go"
	embeddedDecodedFile = "embedded_decoded.go"
	generator           = "`go generate ./conformance` (TestEmbeddedTable -update)"
)

// The table the binary lists and sends the embedded cases from is what Load reads from the
// suites now: a case added, changed or moved without `go generate ./conformance` fails here.
func TestEmbeddedTable(t *testing.T) {
	cases, err := Load(EmbeddedSuites(), All())
	if err != nil {
		t.Fatal(err)
	}
	// The inputs are written before the reference answers them (renderEmbedded).
	decoded, err := renderDecoded(cases)
	if err != nil {
		t.Fatal(err)
	}
	src, err := renderEmbedded(cases)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{embeddedFile: src, embeddedDecodedFile: decoded}
	for _, name := range []string{embeddedFile, embeddedDecodedFile} {
		if *update {
			if err := os.WriteFile(name, files[name], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, files[name]) {
			t.Errorf("%s is not what the embedded suites hold now: run `go generate ./conformance`", name)
		}
	}
	if *update {
		return
	}
	got := Embedded()
	for i := range cases {
		cases[i].Decoded = nil
	}
	if d := cmp.Diff(cases, got); d != "" {
		t.Errorf("Embedded() differs from Load (-load +embedded):\n%s", d)
	}
}

// renderEmbedded is embedded_cases.go for the cases Load read.
func renderEmbedded(cases []Case) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// embeddedCases are Load(EmbeddedSuites(), All()), read when lembas-check was built.\n")
	b.WriteString("var embeddedCases = [...]embeddedCase{\n")
	for _, c := range cases {
		fmt.Fprintf(&b, "\t{\n\t\tid: %q, area: %q, index: %d, file: %q, line: %d,\n", c.ID, c.Area, c.Index, c.File, c.Line)
		canon, err := Canonical(c.Expect)
		if err != nil {
			return nil, fmt.Errorf("%s: expect: %v", c.Where(), err)
		}
		fmt.Fprintf(&b, "\t\tabout:  %s,\n\t\tinput:  %s,\n\t\texpect: %s,\n", golit.String(c.About), golit.String(string(c.Input)), golit.String(string(c.Expect)))
		fmt.Fprintf(&b, "\t\tcanonical: %s,\n", golit.String(string(canon)))
		answer, err := builtinAnswer(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Where(), err)
		}
		if ac, err := Canonical(answer); err == nil && bytes.Equal(ac, canon) {
			fmt.Fprintf(&b, "\t\tanswer: %s,\n", golit.String(string(answer)))
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	return golit.GoFile("conformance", generator, b.Bytes())
}

// renderDecoded is embedded_decoded.go: each case's input as its area decodes it, a Go literal.
func renderDecoded(cases []Case) ([]byte, error) {
	var body bytes.Buffer
	for _, c := range cases {
		l := golit.Writer{Pkg: "conformance"}
		var expr bytes.Buffer
		if err := l.Write(&expr, reflect.ValueOf(c.Decoded)); err != nil {
			return nil, fmt.Errorf("%s: %v", c.Where(), err)
		}
		body.WriteString("\tfunc() any {\n" + l.Vars() + "return ")
		body.Write(expr.Bytes())
		body.WriteString(" },\n")
	}
	var b bytes.Buffer
	if bytes.Contains(body.Bytes(), []byte("json.")) {
		b.WriteString("import \"encoding/json\"\n\n")
	}
	b.WriteString("// embeddedDecoded[i] makes embeddedCases[i]'s input as its area's Decode does, a new value at\n")
	b.WriteString("// each call: a run decodes no JSON for an embedded case.\n")
	b.WriteString("var embeddedDecoded = [...]func() any{\n")
	b.Write(body.Bytes())
	b.WriteString("}\n")
	return golit.GoFile("conformance", generator, b.Bytes())
}

// builtinAnswer is the reference's answer to c as runner.Builtin writes it.
func builtinAnswer(c Case) ([]byte, error) {
	a, _ := ByName(c.Area)
	got, err := a.Reference(c.Decoded)
	if err != nil {
		return nil, err
	}
	return jsonx.Marshal(got)
}

// An embedded case is decoded without its checks run again, to the value its area's Decode makes;
// any other input is checked.
func TestEmbeddedDecodeIsTheArea(t *testing.T) {
	for _, c := range Embedded() {
		got, err := c.Decode()
		if err != nil {
			t.Fatalf("%s: %v", c.Where(), err)
		}
		a, _ := ByName(c.Area)
		want, err := a.Decode(c.Input)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded %#v, the area decodes %#v (%v)", c.Where(), got, want, err)
		}
	}
	bad := Case{Label: Label{Area: "jobs"}, Input: []byte(`{"kind":"no such kind","id":"j"}`)}
	if _, err := bad.Decode(); err == nil {
		t.Error("a case not in the table was not checked")
	}
}
