package cachesim

import (
	"strings"
	"testing"
	"time"
)

// --ttl takes openai and gemini, each with a positive duration; Anthropic says its own.
func TestParseTTLs(t *testing.T) {
	got, err := ParseTTLs([]string{"openai=10m", "gemini=1h"})
	if err != nil || got[ProviderOpenAI] != 10*time.Minute || got[ProviderGemini] != time.Hour {
		t.Fatalf("%v, %v", got, err)
	}
	for _, c := range []struct{ item, want string }{
		{"openai", "want PROVIDER=DURATION"},
		{"openai=-1m", "want PROVIDER=DURATION"},
		{"anthropic=5m", "want openai or gemini"},
		{"klingon=5m", "want openai or gemini"},
	} {
		if _, err := ParseTTLs([]string{c.item}); err == nil || !strings.HasPrefix(err.Error(), "--ttl \""+c.item+"\": "+c.want) {
			t.Errorf("%s: %v", c.item, err)
		}
	}
}
