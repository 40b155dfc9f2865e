package prices

import (
	"math"
	"strings"
	"testing"
)

func TestBuiltin(t *testing.T) {
	tb := Builtin()
	p, ok := tb.For("claude-sonnet-4-5-20250929")
	if !ok || p.Input != 3 || p.CacheWrite5m != 3.75 {
		t.Fatalf("%+v %v", p, ok)
	}
	// 1M fresh, 1M read, 1M written for 5 minutes, 1M out at Sonnet's rates.
	if c := tb.Cost(p, Tokens{Input: 1e6, CacheRead: 1e6, CacheWrite5m: 1e6, Output: 1e6}); math.Abs(c-(3+0.3+3.75+15)) > 1e-9 {
		t.Errorf("cost %v", c)
	}
	if l := tb.Lost(p, 1e6); math.Abs(l-2.7) > 1e-9 {
		t.Errorf("lost %v", l)
	}
	if _, ok := tb.For("fake-model"); ok {
		t.Error("fake-model has a price")
	}
	if p, _ := tb.For("gemini-2.5-flash-lite"); p.Input != 0.1 {
		t.Errorf("flash-lite matched %+v", p)
	}
}

func TestParseSaysWhat(t *testing.T) {
	for body, want := range map[string]string{
		`{"currency":"USD","per":1000000,"models":[{"provider":"x","match":"m","input":-1,"cache_read":0,"output":0}]}`: "models[0] (m): a rate is negative",
		`{"currency":"USD","per":1000000,"models":[{"match":"m"}]}`:                                                     "models[0]: needs a provider",
		`{"currency":"USD","per":1000000,"modls":[]}`:                                                                   "unknown field",
		`{"currency":"USD","models":[]}`:                                                                                "per must be",
		`{"currency":"USD","per":1000000,"models":[]}]`:                                                                 "more follows the JSON value",
	} {
		if _, err := Parse([]byte(body), "p.json"); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "p.json: ") {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// --prices names the built-in table by default, a file otherwise; its error names the flag.
func TestOpen(t *testing.T) {
	if tb, err := Open(""); err != nil || tb == nil {
		t.Fatalf("the built-in table: %v", err)
	}
	if _, err := Open("/nonexistent/prices.json"); err == nil || !strings.HasPrefix(err.Error(), "--prices: ") {
		t.Errorf("a missing file: %v", err)
	}
}
