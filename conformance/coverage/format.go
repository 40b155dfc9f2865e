package coverage

import (
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
	"text/template"

	"github.com/LLeMbas/lembas-check/internal/format"
)

// Formats are the formats `lembas-check spec coverage` writes the map in.
var Formats = format.Formats[*Map]{
	{Name: "table", Write: func(w io.Writer, m *Map, _ bool) error { return writeTable(w, m) }},
	{Name: "json", About: "JSON lines", Write: func(w io.Writer, m *Map, _ bool) error { return writeJSON(w, m) }},
	{Name: "markdown", Write: func(w io.Writer, m *Map, _ bool) error { return markdownTmpl().Execute(w, view(m)) }},
	{Name: "html", Write: func(w io.Writer, m *Map, _ bool) error { return htmlTmpl().Execute(w, view(m)) }},
}

// Status is the map's: ok when every statement has a case or a reason, else failed (a map that
// says nothing of a statement).
func (m *Map) Status() format.Status {
	for _, e := range m.Statements {
		if len(e.Cases) == 0 && e.Reason == "" {
			return format.Failed
		}
	}
	return format.OK
}

// section is one file and heading of the map, for the table and the templates.
type section struct {
	File, Heading                        string
	Covered, Reasoned, Todo, Informative int
	Open                                 []Entry // the statements no case covers
}

type mapView struct {
	Map      *Map
	Summary  Summary
	Sections []section
}

func view(m *Map) mapView {
	v := mapView{Map: m, Summary: m.Summarize()}
	for _, e := range m.Statements {
		n := len(v.Sections)
		if n == 0 || v.Sections[n-1].File != e.File || v.Sections[n-1].Heading != e.Heading {
			v.Sections = append(v.Sections, section{File: e.File, Heading: e.Heading})
			n++
		}
		s := &v.Sections[n-1]
		switch e.kind() {
		case "covered":
			s.Covered++
			continue
		case "todo":
			s.Todo++
		case "informative":
			s.Informative++
		default:
			s.Reasoned++
		}
		s.Open = append(s.Open, e)
	}
	return v
}

func writeTable(w io.Writer, m *Map) error {
	v := view(m)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tHEADING\tCOVERED\tREASON\tTODO\tINFO")
	for _, s := range v.Sections {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\n", s.File, cut(s.Heading, 50), s.Covered, s.Reasoned, s.Todo,
			s.Informative)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range v.Sections {
		for _, e := range s.Open {
			fmt.Fprintf(w, "\n%s:%d (%s)\n  %s\n  why: %s\n", e.File, e.Line, e.Heading, cut(oneLine(e.Text), 200),
				e.Reason)
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\t%s\n", m.Status().Word(), v.Summary.Line())
	return err
}

// writeJSON writes one object per statement, then the standard footer.
func writeJSON(w io.Writer, m *Map) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, e := range m.Statements {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	s := m.Summarize()
	counts := map[string]int{"statements": s.Statements, "covered": s.Covered, "reasoned": s.Reasoned, "todo": s.Todo,
		"informative": s.Informative}
	return enc.Encode(format.NewFooter(m.Status(), false, counts, ""))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

var funcs = map[string]any{"line": oneLine, "cell": func(s string) string { return format.MarkdownCell(oneLine(s)) }}

var markdownTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("md").Funcs(funcs).Parse(`# Spec {{.Map.Spec}}: coverage

{{.Summary.Line}}.

Statements are found by one rule: {{.Map.Rule}}.

| File | Heading | Covered | Reason | Todo | Informative |
|---|---|---:|---:|---:|---:|
{{range .Sections}}| {{.File}} | {{cell .Heading}} | {{.Covered}} | {{.Reasoned}} | {{.Todo}} | {{.Informative}} |
{{end}}
## Not covered by a case
{{range .Sections}}{{range .Open}}
- ` + "`{{.File}}:{{.Line}}`" + ` ({{cell .Heading}}): {{cell .Text}} — *{{cell .Reason}}*{{end}}{{end}}
`))
})

var htmlTmpl = sync.OnceValue(func() *htmltemplate.Template {
	return htmltemplate.Must(htmltemplate.New("html").Funcs(map[string]any{"line": oneLine}).Parse(`<!doctype html>
<meta charset="utf-8"><title>Spec {{.Map.Spec}}: coverage</title>
<h1>Spec {{.Map.Spec}}: coverage</h1>
<p>{{.Summary.Line}}.</p>
<p>Statements are found by one rule: {{.Map.Rule}}.</p>
<table><tr><th>File</th><th>Heading</th><th>Covered</th><th>Reason</th><th>Todo</th><th>Informative</th></tr>
{{range .Sections}}<tr><td>{{.File}}</td><td>{{.Heading}}</td><td>{{.Covered}}</td>
{{- /**/ -}}
<td>{{.Reasoned}}</td><td>{{.Todo}}</td><td>{{.Informative}}</td></tr>
{{end}}</table>
<h2>Not covered by a case</h2>
<ul>{{range .Sections}}{{range .Open}}
<li><code>{{.File}}:{{.Line}}</code> ({{.Heading}}): {{line .Text}} — <em>{{.Reason}}</em></li>{{end}}{{end}}
</ul>
`))
})

// Command is `lembas-check spec coverage --format NAME`: the checked-in map written in that
// format, and the exit status its status gives.
func Command(stdout, stderr io.Writer, name string) int {
	m := Load()
	if err := Formats.Write(stdout, name, m, false); err != nil {
		fmt.Fprintf(stderr, "lembas-check: spec coverage: %v\n", err)
		return format.Unfinished.Code()
	}
	return m.Status().Code()
}
