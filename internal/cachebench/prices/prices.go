// Package prices is what a model's tokens cost: a table per provider and model (prices.json,
// compiled in; --prices FILE gives another in the same format) and the bill of one request from
// its tokens — read fresh, read from the cache, written to it by TTL, answered. The audit and the
// bench put money on their token counts with it.
package prices

import (
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

//go:embed prices.json
var builtin []byte

// Table is a price table.
type Table struct {
	About    string  `json:"about,omitempty"`
	Currency string  `json:"currency"`
	Per      float64 `json:"per"`
	Models   []Price `json:"models"`
	// File is where it came from ("built in" for the compiled-in table).
	File string `json:"-"`
}

// Price is one row: a model (or a prefix, ending in *) and its rates per Table.Per tokens.
type Price struct {
	Provider     string  `json:"provider"`
	Match        string  `json:"match"`
	Input        float64 `json:"input"`
	CacheRead    float64 `json:"cache_read"`
	CacheWrite5m float64 `json:"cache_write_5m,omitempty"`
	CacheWrite1h float64 `json:"cache_write_1h,omitempty"`
	Output       float64 `json:"output"`
	Source       string  `json:"source,omitempty"`
}

// Builtin is the compiled-in table.
func Builtin() *Table {
	t, err := Parse(builtin, "built in")
	if err != nil {
		panic(err) // a test reads the same file
	}
	return t
}

// Load reads a table from a file.
func Load(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(b, path)
}

// Parse reads a table strictly: an unknown field, anything after the table, a row without a
// model or with a negative rate, is an error naming the file and the row.
func Parse(b []byte, file string) (*Table, error) {
	var t Table
	if err := jsonx.Decode(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	t.File = file
	if t.Currency == "" {
		return nil, fmt.Errorf("%s: no currency", file)
	}
	if t.Per <= 0 {
		return nil, fmt.Errorf("%s: per must be the number of tokens the rates are for, such as 1000000", file)
	}
	for i, p := range t.Models {
		if p.Match == "" || p.Provider == "" {
			return nil, fmt.Errorf("%s: models[%d]: needs a provider and a match", file, i)
		}
		for _, v := range []float64{p.Input, p.CacheRead, p.CacheWrite5m, p.CacheWrite1h, p.Output} {
			if v < 0 {
				return nil, fmt.Errorf("%s: models[%d] (%s): a rate is negative", file, i, p.Match)
			}
		}
	}
	return &t, nil
}

// For is the row of a model, the first that matches.
func (t *Table) For(model string) (Price, bool) {
	if t == nil {
		return Price{}, false
	}
	for _, p := range t.Models {
		if m, ok := strings.CutSuffix(p.Match, "*"); ok && strings.HasPrefix(model, m) || p.Match == model {
			return p, true
		}
	}
	return Price{}, false
}

// Tokens are one request's tokens, as a bill counts them.
type Tokens struct {
	Input, CacheRead, CacheWrite5m, CacheWrite1h, Output int
}

// Cost is what the tokens cost at a row's rates.
func (t *Table) Cost(p Price, n Tokens) float64 {
	return (float64(n.Input)*p.Input + float64(n.CacheRead)*p.CacheRead + float64(n.CacheWrite5m)*p.CacheWrite5m +
		float64(n.CacheWrite1h)*p.CacheWrite1h + float64(n.Output)*p.Output) / t.Per
}

// Lost is what tokens that had to be read fresh instead of from the cache cost more.
func (t *Table) Lost(p Price, tokens int) float64 {
	return float64(tokens) * (p.Input - p.CacheRead) / t.Per
}

// Format writes an amount: "$0.0123" for USD, else "0.0123 EUR".
func (t *Table) Format(v float64) string {
	if t.Currency == "USD" {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("%.4f %s", v, t.Currency)
}

// Open is the table --prices names: the built-in one for "", else the file's; its error names
// the flag.
func Open(path string) (*Table, error) {
	if path == "" {
		return Builtin(), nil
	}
	t, err := Load(path)
	if err != nil {
		return nil, fmt.Errorf("--prices: %v", err)
	}
	return t, nil
}
