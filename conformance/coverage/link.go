package coverage

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/LLeMbas/lembas-check/conformance"
)

// How a case is tied to a statement, found from the cases themselves so that no list of ids is
// typed by hand: a case checks a statement when its "about" quotes the statement (a quoted
// stretch — in "", “” or, of minQuote characters or more, “ — of at least minQuote characters
// of it, or all of it), or when its expectation holds the statement's text (every fixed stretch
// of a template or table row, at least minText long, with the placeholders left out).
const (
	minQuote = 24
	minText  = 12
	// minTemplate is the fixed text a JSON template with placeholders needs to be matched: its
	// placeholders stand for one run of text each, so `Today is {{date}}.` says enough.
	minTemplate = 8
	// minFixed is the shortest JSON text without placeholders an expectation is searched for.
	minFixed = 6
)

// patterns are the link rules' regular expressions, made on first use.
var patterns = sync.OnceValue(func() (p struct {
	quoted, placeholders, backticked, variable *regexp.Regexp
	markup                                     *strings.Replacer
}) {
	p.quoted = regexp.MustCompile(`"([^"]{10,})"|“([^”]{10,})”`)
	p.placeholders = regexp.MustCompile(`\{\{?[a-z_]+\}?\}|…`)
	p.backticked = regexp.MustCompile("`([^`]+)`")
	// variable is what an example in the spec's prose stands for any value of: a file name, a
	// result id, a short hash, a number.
	p.variable = regexp.MustCompile(
		`(?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\.[a-z]{1,4}\b|#[0-9a-f]{4,}|\b[0-9a-f]{8}\b|[0-9][0-9,]*`,
	)
	p.markup = strings.NewReplacer("**", "", "`", "", "\\", "")
	return p
})

// norm is a text without its Markdown emphasis and backticks, its spaces collapsed.
func norm(s string) string { return strings.Join(strings.Fields(patterns().markup.Replace(s)), " ") }

// quotes are the stretches a case's about quotes, each split at its ellipses: in "" or “”, and
// the backticked spans (backticks paired in order, as Markdown pairs them) of minQuote or more.
func quotes(about string) []string {
	var qs []string
	for _, m := range patterns().quoted.FindAllStringSubmatch(about, -1) {
		qs = append(qs, m[1]+m[2])
	}
	for i, span := range strings.Split(about, "`") {
		if i%2 == 1 && len(span) >= minQuote {
			qs = append(qs, span)
		}
	}
	var out []string
	for _, q := range qs {
		for _, part := range strings.Split(q, "…") {
			// A shorter quote ties only a statement it is the whole of (quotesStatement).
			if p := norm(part); len(p) >= minQuote || len(part) == len(q) && len(p) >= 10 {
				out = append(out, p)
			}
		}
	}
	return out
}

// fixedParts are a statement's stretches of text an answer would hold: a row's backticked cells,
// a template's text, split at placeholders and line ends.
func fixedParts(s Statement) []string {
	text := s.Text
	switch s.Kind {
	case "row":
		var cells []string
		for _, m := range patterns().backticked.FindAllStringSubmatch(text, -1) {
			cells = append(cells, m[1])
		}
		text = strings.Join(cells, "\n")
	case "template":
	default:
		return nil
	}
	var out []string
	for _, chunk := range patterns().placeholders.Split(text, -1) {
		for _, line := range strings.Split(chunk, "\n") {
			if l := strings.TrimSpace(line); len(l) >= minText {
				out = append(out, l)
			}
		}
	}
	return out
}

// expectText is every string an expectation holds, one to a line.
func expectText(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// templatePattern is a JSON template with {{placeholders}} as a pattern an answer's text would
// match (each placeholder one run of characters on one line), when its fixed text is at least
// minTemplate long in all; nil otherwise.
func templatePattern(s Statement) *regexp.Regexp {
	if s.Kind != "template" || strings.HasSuffix(s.File, ".md") {
		return nil
	}
	if !strings.Contains(s.Text, "{{") {
		// A fixed text of a few characters, as `(none)`, is matched as a whole.
		if len(s.Text) >= minFixed && len(s.Text) < minText {
			return regexp.MustCompile(regexp.QuoteMeta(s.Text))
		}
		return nil
	}
	fixed := patterns().placeholders.Split(s.Text, -1)
	if n := len(strings.Join(fixed, "")); n < minTemplate {
		return nil
	}
	names := patterns().placeholders.FindAllString(s.Text, -1)
	var b strings.Builder
	for i, f := range fixed {
		b.WriteString(regexp.QuoteMeta(f))
		if i < len(names) {
			b.WriteString(placeholderPattern(names[i]))
		}
	}
	return regexp.MustCompile(b.String())
}

// placeholderPattern is what a placeholder stands for: an id, a path, a hash or a number is one
// word (so a read's bracket is not taken for an edit's), any other value a run of one line.
func placeholderPattern(name string) string {
	switch strings.Trim(name, "{}") {
	case "id", "path", "sha", "n", "from", "to", "earlier", "target", "digits":
		return `\S+?`
	}
	return `[^\n]+?`
}

// examplePatterns are the shapes of a Markdown statement's examples — each line of a fenced block,
// each backticked stretch of a sentence or row with a value in it — as patterns an answer's text
// matches when it has that shape with other values (a file name, an id, a hash, a number). A line
// with less than minText of fixed text, or with an ellipsis, says too little to be matched.
func examplePatterns(s Statement) []*regexp.Regexp {
	if !strings.HasSuffix(s.File, ".md") || strings.HasPrefix(s.File, "prompts/") {
		return nil
	}
	var examples []string
	if s.Kind == "template" {
		examples = strings.Split(s.Text, "\n")
	} else {
		for _, m := range patterns().backticked.FindAllStringSubmatch(s.Text, -1) {
			if patterns().variable.MatchString(m[1]) {
				examples = append(examples, m[1])
			}
		}
	}
	var out []*regexp.Regexp
	for _, ex := range examples {
		ex = strings.TrimSpace(ex)
		if strings.Contains(ex, "…") || strings.Contains(ex, "{") {
			continue
		}
		var b strings.Builder
		fixed, last := 0, 0
		for _, loc := range patterns().variable.FindAllStringIndex(ex, -1) {
			gap := ex[last:loc[0]]
			fixed += len(gap)
			b.WriteString(regexp.QuoteMeta(gap))
			switch v := ex[loc[0]:loc[1]]; {
			case strings.Contains(v, "."):
				b.WriteString(`\S+`)
			case strings.HasPrefix(v, "#"):
				b.WriteString(`#[0-9a-f]+`)
			default:
				b.WriteString(`[0-9a-f,]+`)
			}
			last = loc[1]
		}
		fixed += len(ex) - last
		b.WriteString(regexp.QuoteMeta(ex[last:]))
		if fixed >= minText {
			out = append(out, regexp.MustCompile(b.String()))
		}
	}
	return out
}

// valuePattern is how an about names a JSON number, boolean or list of the spec, or a template
// too short to be found in an expectation (`[{{id}}]`): by its key — the last two parts of it at
// least (`cap.head_chars`), or all of it — then its value, as "cap.head_chars (20000)",
// "ids.digits: 4", "rows = 50" or `dedupe.by_hash: ["read"]`. nil for any other statement.
func valuePattern(s Statement) *regexp.Regexp {
	short := s.Kind == "template" && templatePattern(s) == nil && len(s.Text) < minText
	if s.Kind != "value" && !short || strings.HasSuffix(s.File, ".md") {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(strings.TrimSuffix(s.Heading, ".default"), ".about"), ".")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	key := regexp.QuoteMeta(strings.Join(parts, "."))
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_])` + key + "`?" + `\s*(?:\(|=|:)\s*` + regexp.QuoteMeta(s.Text) +
		`(?:[^0-9.]|$)`)
}

func matchAll(text string, ps []*regexp.Regexp) bool {
	if len(ps) == 0 || text == "" {
		return false
	}
	for _, p := range ps {
		if !p.MatchString(text) {
			return false
		}
	}
	return true
}

// Link is, for each statement (by index), the ids of the cases that check it, sorted.
func Link(stmts []Statement, cases []conformance.Case) [][]string {
	normed := make([]string, len(stmts))
	parts := make([][]string, len(stmts))
	tmpls := make([]*regexp.Regexp, len(stmts))
	examples := make([][]*regexp.Regexp, len(stmts))
	values := make([]*regexp.Regexp, len(stmts))
	for i, s := range stmts {
		values[i] = valuePattern(s)
		examples[i] = examplePatterns(s)
		normed[i] = norm(s.Text)
		parts[i] = fixedParts(s)
		tmpls[i] = templatePattern(s)
	}
	out := make([][]string, len(stmts))
	for _, c := range cases {
		qs := quotes(c.About)
		exp := expectText(c.Expect)
		for i := range stmts {
			if quotesStatement(qs, normed[i]) || holdsAll(exp, parts[i]) || (tmpls[i] != nil &&
				tmpls[i].MatchString(exp)) ||
				matchAll(exp, examples[i]) || (values[i] != nil && values[i].MatchString(c.About)) {
				out[i] = append(out[i], c.ID)
			}
		}
	}
	requiresFromUnavailable(stmts, out)
	for i := range out {
		sort.Strings(out[i])
		out[i] = dedupe(out[i])
	}
	return out
}

// requiresFromUnavailable ties a tool's `requires` to the cases that expect its `unavailable`
// text: that text is what a call answers exactly while the requirement is not met, so a case
// that expects it holds the requirement to what the tool file says.
func requiresFromUnavailable(stmts []Statement, out [][]string) {
	unavailable := map[string][]string{}
	for i, s := range stmts {
		if strings.HasPrefix(s.File, "tools/") && s.Heading == "unavailable" {
			unavailable[s.File] = out[i]
		}
	}
	for i, s := range stmts {
		if strings.HasPrefix(s.File, "tools/") && s.Heading == "requires" {
			out[i] = append(out[i], unavailable[s.File]...)
		}
	}
}

func quotesStatement(qs []string, stmt string) bool {
	for _, q := range qs {
		if len(q) >= minQuote && strings.Contains(stmt, q) || len(stmt) >= minQuote && strings.Contains(q, stmt) ||
			q == stmt {
			return true
		}
	}
	return false
}

func holdsAll(text string, parts []string) bool {
	if len(parts) == 0 || text == "" {
		return false
	}
	for _, p := range parts {
		if !strings.Contains(text, p) {
			return false
		}
	}
	return true
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
