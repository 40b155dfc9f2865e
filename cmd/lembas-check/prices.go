package main

import "flag"

// addPriceFlags is --prices, for the audit, diff-recordings and the bench (prices.Open).
func addPriceFlags(fs *flag.FlagSet) *string {
	return fs.String("prices", "",
		"put money on the tokens with the price table in `FILE` (default: the built-in table, "+
			"internal/cachebench/prices/prices.json; docs/audit.md)")
}
