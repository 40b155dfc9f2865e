package script

import (
	"regexp/syntax"
	"strings"
	"unicode"
)

// GrammarInput is the shortest text a custom tool's grammar accepts, for a call the default
// policy must make: syntax "lark" (the rules and terminals OpenAI's custom tools take) or
// "regex". A free-form tool (no grammar), or a grammar it cannot read, gets "done".
func GrammarInput(syn, grammar string) string {
	switch syn {
	case "regex":
		if s, ok := regexShortest(grammar); ok {
			return s
		}
	case "lark":
		if s, ok := larkShortest(grammar); ok {
			return s
		}
	}
	return "done"
}

// regexShortest is a shortest string the regular expression matches.
func regexShortest(expr string) (string, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	ok := shortest(re.Simplify(), &b)
	return b.String(), ok
}

func shortest(re *syntax.Regexp, b *strings.Builder) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		r := re.Rune[0]
		// Prefer a letter or digit inside the class, to read well.
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for _, p := range []rune{'a', 'x', '0'} {
				if re.Rune[i] <= p && p <= re.Rune[i+1] {
					r = p
					i = len(re.Rune)
					break
				}
			}
		}
		b.WriteRune(r)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte('x')
	case syntax.OpCapture:
		return shortest(re.Sub[0], b)
	case syntax.OpStar, syntax.OpQuest:
	case syntax.OpPlus:
		return shortest(re.Sub[0], b)
	case syntax.OpRepeat:
		for i := 0; i < re.Min; i++ {
			if !shortest(re.Sub[0], b) {
				return false
			}
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !shortest(s, b) {
				return false
			}
		}
	case syntax.OpAlternate:
		best, found := "", false
		for _, s := range re.Sub {
			var t strings.Builder
			if shortest(s, &t) && (!found || t.Len() < len(best)) {
				best, found = t.String(), true
			}
		}
		if !found {
			return false
		}
		b.WriteString(best)
	}
	return true
}

// Lark: rules (lower case) and terminals (upper case), `name: alternatives`, alternatives split
// by | (also on continuation lines), items "literal", /regex/, names, ( … ), [ … ], and the
// operators ?, *, +, ~n. %import common.NAME brings the usual terminals.

var larkCommon = map[string]string{
	"INT": "0", "SIGNED_INT": "0", "DECIMAL": "0.0", "SIGNED_DECIMAL": "0.0", "FLOAT": "0.0", "SIGNED_FLOAT": "0.0",
	"NUMBER": "0", "SIGNED_NUMBER": "0", "DIGIT": "0", "HEXDIGIT": "0", "LETTER": "a", "LCASE_LETTER": "a",
	"UCASE_LETTER": "A", "WORD": "a", "CNAME": "a", "WS": " ", "WS_INLINE": " ", "NEWLINE": "\n", "CR": "\r",
	"LF":             "\n",
	"ESCAPED_STRING": `""`, "_STRING_INNER": "", "SH_COMMENT": "#", "CPP_COMMENT": "//", "C_COMMENT": "/**/",
}

// Bounds on the work a grammar can ask for: repetitions of one item, and the text's length.
const (
	maxRepeat = 1000
	maxInput  = 64 << 10
)

type larkItem struct {
	lit   string // a literal, when name == ""
	name  string
	group [][]larkItem // a parenthesised or bracketed group's alternatives
	min   int          // repetitions at least (0 for ?, *, [ ])
}

func larkShortest(grammar string) (string, bool) {
	rules := map[string][][]larkItem{}
	var order []string
	for name, def := range larkRules(grammar) {
		alts, ok := larkAlts(def)
		if !ok {
			return "", false
		}
		rules[name] = alts
		order = append(order, name)
	}
	start := "start"
	if _, ok := rules[start]; !ok {
		return "", false
	}
	// Fixpoint: the shortest text of each rule, from those of the items it uses.
	best := map[string]string{}
	for k, v := range larkCommon {
		if _, own := rules[k]; !own {
			best[k] = v
		}
	}
	for changed := true; changed; {
		changed = false
		for _, name := range order {
			if s, ok := altsShortest(rules[name], best); ok {
				if cur, had := best[name]; !had || len(s) < len(cur) {
					best[name], changed = s, true
				}
			}
		}
	}
	s, ok := best[start]
	return s, ok
}

func altsShortest(alts [][]larkItem, best map[string]string) (string, bool) {
	out, found := "", false
	for _, alt := range alts {
		var b strings.Builder
		ok := true
		for _, it := range alt {
			s, good := itemShortest(it, best)
			if !good {
				ok = false
				break
			}
			for i := 0; i < it.min && b.Len() <= maxInput; i++ {
				b.WriteString(s)
			}
		}
		if ok && b.Len() <= maxInput && (!found || b.Len() < len(out)) {
			out, found = b.String(), true
		}
	}
	return out, found
}

func itemShortest(it larkItem, best map[string]string) (string, bool) {
	if it.min == 0 {
		return "", true
	}
	switch {
	case it.group != nil:
		return altsShortest(it.group, best)
	case it.name != "":
		s, ok := best[it.name]
		return s, ok
	}
	return it.lit, true
}

// larkRules splits a grammar into its definitions, joining continuation lines (those that start
// with |) and leaving out comments and directives but %import's names.
func larkRules(grammar string) map[string]string {
	out := map[string]string{}
	last := ""
	for _, line := range strings.Split(grammar, "\n") {
		t := strings.TrimSpace(line)
		if i := strings.Index(t, "//"); i >= 0 && !inQuotes(t, i) {
			t = strings.TrimSpace(t[:i])
		}
		switch {
		case t == "" || strings.HasPrefix(t, "%"):
			continue
		case strings.HasPrefix(t, "|") && last != "":
			out[last] += " " + t
			continue
		}
		name, def, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		name = strings.TrimLeft(strings.TrimSpace(name), "?!")
		if i := strings.IndexByte(name, '.'); i >= 0 {
			name = name[:i] // a priority: NAME.2
		}
		last = name
		out[name] = def
	}
	return out
}

func inQuotes(s string, at int) bool {
	q := false
	for i := 0; i < at; i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '"' {
			q = !q
		}
	}
	return q
}

// larkAlts reads a definition's alternatives.
func larkAlts(def string) ([][]larkItem, bool) {
	p := &larkParser{s: def}
	alts, ok := p.alts()
	return alts, ok && p.rest() == ""
}

type larkParser struct {
	s string
	i int
}

func (p *larkParser) rest() string { return strings.TrimSpace(p.s[p.i:]) }

func (p *larkParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *larkParser) alts() ([][]larkItem, bool) {
	var out [][]larkItem
	for {
		seq, ok := p.seq()
		if !ok {
			return nil, false
		}
		out = append(out, seq)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		return out, true
	}
}

func (p *larkParser) seq() ([]larkItem, bool) {
	var out []larkItem
	for {
		p.space()
		if p.i >= len(p.s) {
			return out, true
		}
		c := p.s[p.i]
		switch {
		case c == '|' || c == ')' || c == ']':
			return out, true
		case c == '-' && strings.HasPrefix(p.s[p.i:], "->"):
			// An alias names the tree node; it ends the alternative's items.
			p.i += 2
			p.space()
			for p.i < len(p.s) && p.s[p.i] != '|' && p.s[p.i] != ')' && p.s[p.i] != ']' {
				p.i++
			}
			return out, true
		}
		it, ok := p.item()
		if !ok {
			return nil, false
		}
		out = append(out, it)
	}
}

func (p *larkParser) item() (larkItem, bool) {
	it := larkItem{min: 1}
	c := p.s[p.i]
	ok := true
	switch {
	case c == '"' || c == '/':
		it.lit, ok = p.literal(c)
	case c == '(' || c == '[':
		it.group, ok = p.group(c)
		if c == '[' {
			it.min = 0
		}
	case c == '_' || unicode.IsLetter(rune(c)):
		j := p.i
		for p.i < len(p.s) && (p.s[p.i] == '_' || unicode.IsLetter(rune(p.s[p.i])) || unicode.IsDigit(rune(p.s[p.i]))) {
			p.i++
		}
		it.name = p.s[j:p.i]
	default:
		return it, false
	}
	if !ok {
		return it, false
	}
	p.operator(&it)
	return it, true
}

// literal reads a quoted string ("…", maybe i for case-insensitive) or a regular expression
// (/…/ with its flags), the latter as the shortest text it matches.
func (p *larkParser) literal(quote byte) (string, bool) {
	s, ok := p.quoted(quote)
	if !ok {
		return "", false
	}
	if quote == '"' {
		if p.i < len(p.s) && p.s[p.i] == 'i' {
			p.i++ // case-insensitive literal
		}
		return s, true
	}
	for p.i < len(p.s) && strings.IndexByte("imslux", p.s[p.i]) >= 0 {
		p.i++ // flags
	}
	return regexShortest(s)
}

// group reads ( alternatives ) or [ optional alternatives ], open being the bracket read.
func (p *larkParser) group(open byte) ([][]larkItem, bool) {
	p.i++
	g, ok := p.alts()
	if !ok {
		return nil, false
	}
	p.space()
	want := byte(')')
	if open == '[' {
		want = ']'
	}
	if p.i >= len(p.s) || p.s[p.i] != want {
		return nil, false
	}
	p.i++
	return g, true
}

// operator reads what follows an item: ?, * (none needed), + (one), or ~n[..m] (n needed).
func (p *larkParser) operator(it *larkItem) {
	if p.i >= len(p.s) {
		return
	}
	switch p.s[p.i] {
	case '?', '*':
		it.min = 0
		p.i++
	case '+':
		p.i++
	case '~':
		p.i++
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n := 0
		for _, d := range p.s[j:p.i] {
			n = min(n*10+int(d-'0'), maxRepeat)
		}
		it.min = n
		if strings.HasPrefix(p.s[p.i:], "..") {
			p.i += 2
			for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
				p.i++
			}
		}
	}
}

// quoted reads a "…" literal or a /…/ regex, undoing a literal's escapes.
func (p *larkParser) quoted(q byte) (string, bool) {
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '\\' && p.i+1 < len(p.s) {
			n := p.s[p.i+1]
			p.i += 2
			if q == '/' {
				if n != '/' {
					b.WriteByte('\\')
				}
				b.WriteByte(n)
				continue
			}
			switch n {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(n)
			}
			continue
		}
		p.i++
		if c == q {
			return b.String(), true
		}
		b.WriteByte(c)
	}
	return "", false
}
