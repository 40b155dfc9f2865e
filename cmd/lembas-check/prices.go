package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/cachesim"
	"github.com/LLeMbas/lembas-check/prices"
)

// priceFlags is --prices, for the audit and the bench.
type priceFlags struct{ file *string }

func addPriceFlags(fs *flag.FlagSet) priceFlags {
	return priceFlags{fs.String("prices", "", "put money on the tokens with the price table in `FILE` (default: the built-in table, prices/prices.json; docs/audit.md)")}
}

// table is the price table the flags name.
func (p priceFlags) table() (*prices.Table, error) {
	if *p.file == "" {
		return prices.Builtin(), nil
	}
	t, err := prices.Load(*p.file)
	if err != nil {
		return nil, fmt.Errorf("--prices: %v", err)
	}
	return t, nil
}

// parseTTLs reads --ttl PROVIDER=DURATION,….
func parseTTLs(list []string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, item := range list {
		name, d, ok := strings.Cut(item, "=")
		dur, err := time.ParseDuration(d)
		if !ok || err != nil || dur <= 0 {
			return nil, fmt.Errorf("--ttl %q: want PROVIDER=DURATION, such as openai=10m", item)
		}
		known := false
		for _, p := range cachesim.Providers {
			known = known || p == name
		}
		if !known || name == cachesim.ProviderAnthropic {
			return nil, fmt.Errorf("--ttl %q: want openai or gemini (an Anthropic request says its own TTL, 5m or 1h, in each breakpoint)", item)
		}
		out[name] = dur
	}
	return out, nil
}
