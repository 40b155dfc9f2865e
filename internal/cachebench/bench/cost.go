package bench

import (
	"fmt"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/cachebench/prices"
)

// cost is what a server's usage of one request cost at the table's price for the model: the
// cached tokens at the cache's rate, Anthropic's cache writes at the 5-minute write rate, the
// rest at the input rate, the completion at the output rate. nil when the model has no price or
// the server reported no prompt.
func cost(t *prices.Table, model string, u usage.Usage) *float64 {
	p, ok := t.For(model)
	if !ok || u.PromptTokens == nil {
		return nil
	}
	n := prices.Tokens{}
	if u.CachedTokens != nil {
		n.CacheRead = *u.CachedTokens
	}
	if u.CacheWriteTokens != nil {
		n.CacheWrite5m = *u.CacheWriteTokens
	}
	if u.CompletionTokens != nil {
		n.Output = *u.CompletionTokens
	}
	n.Input = max(0, *u.PromptTokens-n.CacheRead-n.CacheWrite5m)
	c := t.Cost(p, n)
	return &c
}

// money writes an amount in a currency ("$" for USD), or "—" when nothing had a price.
func money(v float64, priced int, currency string) string {
	switch {
	case priced == 0:
		return "—"
	case currency == "USD":
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("%.4f %s", v, currency)
}
