package steps

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// A step's phrase is written with typed holes, as Cucumber expressions are: `{id} reads
// {string:path}`. Each hole has a type (how it is matched and read) and a name (what the
// vocabulary shows a reader: `#ID reads "PATH"`).

// quoted is a double-quoted string whose body is read as a JSON string's: \n, \t, \", \\, \u00e9.
const quoted = `"(?:[^"\\]|\\.)*"`

// paramType is one kind of hole.
type paramType struct {
	re   string                   // the hole's regexp, without a group
	show func(name string) string // how the vocabulary shows it
	read func(s string) (any, error)
}

var paramTypes = map[string]paramType{
	// {string}: one quoted string.
	"string": {re: quoted, show: func(n string) string { return `"` + n + `"` }, read: func(s string) (any,
		error) {
		return unquote(s)
	}},
	// {int}: an integer.
	"int": {re: `-?[0-9]+`, show: func(n string) string { return n }, read: func(s string) (any, error) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		return n, nil
	}},
	// {text}: quoted strings joined by +, each repeated with x N: "a" x 150 + ". " + "b" x 60.
	"text": {re: quoted + `(?: x ?[0-9]+)?(?: \+ ` + quoted + `(?: x ?[0-9]+)?)*`,
		show: func(n string) string { return `"` + n + `"…` }, read: func(s string) (any,
			error) {
			return ParseText(s)
		}},
	// {strings}: a list of quoted strings: "a", "b" and "c".
	"strings": {re: quoted + `(?:(?:, |,? and )` + quoted + `)*`,
		show: func(n string) string { return `"` + n + `", …` }, read: func(s string) (any,
			error) {
			return ParseList(s)
		}},
	// {id}: a result id as the context area writes it.
	"id": {re: `#[0-9A-Za-z]+`, show: func(n string) string { return "#" + n }, read: func(s string) (any,
		error) {
		return s, nil
	}},
	// {word}: a bare word (an op, a level).
	"word": {re: `[A-Za-z_][A-Za-z0-9_]*`, show: func(n string) string { return n }, read: func(s string) (any,
		error) {
		return s, nil
	}},
	// {json}: a JSON object written inline: {"path": "src"}.
	"json": {re: `\{.*\}`, show: func(n string) string { return "{" + n + "}" }, read: func(s string) (any, error) {
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("%s is not a JSON object: %v", s, err)
		}
		return json.RawMessage(s), nil
	}},
}

// holeRE finds a phrase's holes; compiled with the first vocabulary, not at init.
var holeRE = lazyre.New(`\{([a-z]+)(?::([a-z_ ]+))?\}`)

// compiledPhrase is a phrase made ready to match: the literal text it begins with (a line that
// does not begin so cannot match, and its regexp is not run), its anchored regexp (compiled when
// a line first begins with that text: most phrases of a vocabulary are never tried), its hole
// types in order, and the form the vocabulary shows.
type compiledPhrase struct {
	lit   string
	re    func() *regexp.Regexp
	types []paramType
	show  string
}

// compilePhrase makes a phrase ready to match. A phrase with an unknown hole type is a
// programming error: it panics.
func compilePhrase(phrase string) compiledPhrase {
	var re, show strings.Builder
	var types []paramType
	re.WriteString("^")
	last := 0
	for _, m := range holeRE().FindAllStringSubmatchIndex(phrase, -1) {
		lit := phrase[last:m[0]]
		re.WriteString(regexp.QuoteMeta(lit))
		show.WriteString(lit)
		typ := phrase[m[2]:m[3]]
		name := typ
		if m[4] >= 0 {
			name = phrase[m[4]:m[5]]
		}
		pt, ok := paramTypes[typ]
		if !ok {
			panic(fmt.Sprintf("phrase %q: no hole type {%s}", phrase, typ))
		}
		re.WriteString("(" + pt.re + ")")
		show.WriteString(pt.show(strings.ToUpper(name)))
		types = append(types, pt)
		last = m[1]
	}
	re.WriteString(regexp.QuoteMeta(phrase[last:]))
	re.WriteString("$")
	show.WriteString(phrase[last:])
	lit := phrase
	if m := holeRE().FindStringIndex(phrase); m != nil {
		lit = phrase[:m[0]]
	}
	src := re.String() // every phrase's is compiled by TestPhrasesAreUnambiguous
	return compiledPhrase{lit: lit, re: lazyre.New(src),
		types: types, show: show.String()}
}

// rawControls are the characters a step's text may hold unescaped inside quotes: an Examples cell
// writes a line break as \n, which Gherkin turns into the character itself.
var rawControls = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`)

// unquote reads one quoted string, `"…"`, as a JSON string.
func unquote(s string) (string, error) {
	var out string
	if err := json.Unmarshal([]byte(rawControls.Replace(s)), &out); err != nil {
		return "", fmt.Errorf("%s is not a quoted string (escapes are JSON's: \\n, \\t, \\\", \\\\, \\u00e9): %v", s,
			err)
	}
	return out, nil
}

// ParseText reads a text expression: quoted strings joined by ` + `, each optionally repeated
// with ` x N` — `"a" x 150 + ". " + "b" x 60`. It lets a feature spell a long or exact text (a
// final newline, a CR, 300 characters) on one line. N is at most 1,000,000.
func ParseText(s string) (string, error) {
	var b strings.Builder
	rest := s
	for {
		if !strings.HasPrefix(rest, `"`) {
			return "", fmt.Errorf("text %s: want a quoted string at %q", s, cut(rest))
		}
		end := closingQuote(rest)
		if end < 0 {
			return "", fmt.Errorf("text %s: a quoted string is not closed", s)
		}
		part, err := unquote(rest[:end+1])
		if err != nil {
			return "", err
		}
		rest = rest[end+1:]
		times := 1
		if strings.HasPrefix(rest, " x") {
			digits := strings.TrimPrefix(rest[2:], " ")
			n := 0
			for n < len(digits) && digits[n] >= '0' && digits[n] <= '9' {
				n++
			}
			if n == 0 {
				return "", fmt.Errorf("text %s: want a count after x", s)
			}
			times, err = strconv.Atoi(digits[:n])
			if err != nil || times > 1_000_000 {
				return "", fmt.Errorf("text %s: %q is not a count up to 1000000", s, digits[:n])
			}
			rest = digits[n:]
		}
		if b.Len()+len(part)*times > 64<<20 {
			return "", fmt.Errorf("text %s: longer than 64 MiB", s)
		}
		b.WriteString(strings.Repeat(part, times))
		if rest == "" {
			return b.String(), nil
		}
		if !strings.HasPrefix(rest, " + ") {
			return "", fmt.Errorf("text %s: want ` + ` or the end at %q", s, cut(rest))
		}
		rest = rest[3:]
	}
}

// ParseList reads quoted strings separated by `, ` and a final `and` (`, and` too).
func ParseList(s string) ([]string, error) {
	var out []string
	rest := s
	for {
		if !strings.HasPrefix(rest, `"`) {
			return nil, fmt.Errorf("list %s: want a quoted string at %q", s, cut(rest))
		}
		end := closingQuote(rest)
		if end < 0 {
			return nil, fmt.Errorf("list %s: a quoted string is not closed", s)
		}
		item, err := unquote(rest[:end+1])
		if err != nil {
			return nil, err
		}
		out = append(out, item)
		rest = rest[end+1:]
		switch {
		case rest == "":
			return out, nil
		case strings.HasPrefix(rest, ", and "):
			rest = rest[6:]
		case strings.HasPrefix(rest, " and "):
			rest = rest[5:]
		case strings.HasPrefix(rest, ", "):
			rest = rest[2:]
		default:
			return nil, fmt.Errorf("list %s: want `, ` or ` and ` at %q", s, cut(rest))
		}
	}
}

// closingQuote is the index of the quote that closes the string s begins with, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// cut is the rest of an expression as an error quotes it: 21 characters at most (table.Cut).
func cut(s string) string { return table.Cut(s, 21) }
