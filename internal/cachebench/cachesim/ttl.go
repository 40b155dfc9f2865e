package cachesim

import (
	"fmt"
	"strings"
	"time"
)

// ParseTTLs reads --ttl's PROVIDER=DURATION values: a provider's cache TTL instead of its
// default. Anthropic is not among them: its requests say their own TTL in each breakpoint.
func ParseTTLs(list []string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, item := range list {
		name, d, ok := strings.Cut(item, "=")
		dur, err := time.ParseDuration(d)
		if !ok || err != nil || dur <= 0 {
			return nil, fmt.Errorf("--ttl %q: want PROVIDER=DURATION, such as openai=10m", item)
		}
		known := false
		for _, p := range Providers {
			known = known || p == name
		}
		if !known || name == ProviderAnthropic {
			return nil, fmt.Errorf("--ttl %q: want openai or gemini (an Anthropic request says its own TTL, 5m or "+
				"1h, in each breakpoint)", item)
		}
		out[name] = dur
	}
	return out, nil
}
