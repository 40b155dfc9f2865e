package steps

import (
	"strings"
	"testing"
)

// A quoted string in a step may hold a raw line break, tab or CR: an Examples cell's \n is one.
func TestUnquoteRawControls(t *testing.T) {
	got, err := unquote("\"a\nb\tc\rd\"")
	if err != nil || got != "a\nb\tc\rd" {
		t.Errorf("unquote = %q, %v", got, err)
	}
}

// A text expression that goes wrong is quoted from where it went wrong, cut for the message
// (table.Cut: 21 characters at most, the last an ellipsis).
func TestParseTextQuotesTheRest(t *testing.T) {
	if _, err := ParseText(`"a" + ` + strings.Repeat("b", 30)); err == nil || !strings.HasSuffix(err.Error(), `want a quoted string at "`+strings.Repeat("b", 20)+`…"`) {
		t.Errorf("%v", err)
	}
	if _, err := ParseText(`"a" + ` + strings.Repeat("é", 21)); err == nil || !strings.HasSuffix(err.Error(), `at "`+strings.Repeat("é", 21)+`"`) {
		t.Errorf("21 characters: %v", err)
	}
}

// A phrase's regexp is run only on a line that begins with the phrase's literal start, and is
// compiled only then: a vocabulary's first use no longer compiles every phrase.
func TestPhraseLiteralStart(t *testing.T) {
	for phrase, lit := range map[string]string{
		"the session searches {string:path} for {int:limit} results": "the session searches ",
		"{id} reads {string:path}":                                   "",
		"the job is done":                                            "the job is done",
	} {
		p := compilePhrase(phrase)
		if p.lit != lit {
			t.Errorf("%q: literal start %q, want %q", phrase, p.lit, lit)
		}
		if line := strings.NewReplacer("{string:path}", `"/a"`, "{int:limit}", "3", "{id}", "#0001").Replace(phrase); !p.re().MatchString(line) || !strings.HasPrefix(line, p.lit) {
			t.Errorf("%q does not match its own example %q", phrase, line)
		}
	}
}
