// Package recdiff compares two recordings request by request (`lembas-check diff-recordings A B`):
// two versions of a harness, two agents, or a CLI and a server on one script. Each request of A
// is paired with one of B and the two are compared as the audit compares a request with the one
// it continues — in the order a server reads a prompt, the first differing byte named as a JSON
// path — apart from what is cosmetic between two runs (ids, times, JSON white space). What
// differs is named by part (the model, the system prompt, tools, messages, parameters, the
// headers that key a cache), with the token prefix the two still share and what the rest costs;
// each side's own audit says how much of its prefix it keeps across its session. docs/audit.md
// is the reference.
package recdiff

import (
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/format"
)

// Verdicts of a pair, from the least to the most.
const (
	// Same: byte for byte the same prompt, parameters and cache-keying headers.
	Same = "same"
	// Cosmetic: they differ only where two runs of one harness differ (ids, times, white space,
	// headers that key no cache).
	Cosmetic = "cosmetic"
	// Differs: a structural difference that changes no cached prefix (a parameter such as
	// max_tokens, a longer history on one side).
	Differs = "differs"
	// Breaks: a difference a prompt cache sees: the prefix one side cached is not the other's.
	Breaks = "breaks"
)

// The kinds of a difference, in the order a pair's differences are listed.
const (
	KindAPI         = "api"
	KindModel       = "model"
	KindSystem      = "system"
	KindTools       = "tools"
	KindMessages    = "messages"
	KindBreakpoints = "breakpoints"
	KindParameter   = "parameter"
	KindHeader      = "header"
)

// Report is a comparison of two recordings.
type Report struct {
	A, B Side `json:"-"`
	// Pairing says how requests were paired: by position, or (counts differing) by the person's
	// latest message.
	Pairing   string     `json:"pairing"`
	Tokenizer string     `json:"tokenizer"`
	Pairs     []Pair     `json:"-"`
	Unpaired  []Unpaired `json:"-"`
	// Changes are the pairs' differences grouped: each distinct change once, with the pairs it
	// is in.
	Changes  []Change `json:"-"`
	Totals   Totals   `json:"totals"`
	Currency string   `json:"currency,omitempty"`
}

// Side is one recording: its file and what its own audit found (the prefix it keeps).
type Side struct {
	File     string       `json:"file"`
	Kind     string       `json:"kind"`
	Requests int          `json:"requests"`
	Audit    audit.Totals `json:"audit"`
}

// Ref is a request of one side, as a pair names it.
type Ref struct {
	Seq  int `json:"seq"`
	Line int `json:"line"`
	// PromptTokens is the prompt's length; Reusable what its own session's cache holds of it
	// (the audit's reusable tokens).
	PromptTokens int    `json:"prompt_tokens"`
	Reusable     int    `json:"reusable_tokens"`
	Model        string `json:"model,omitempty"`
}

// Pair is a request of A and the request of B it is compared with.
type Pair struct {
	N           int          `json:"pair"`
	A           Ref          `json:"a"`
	B           Ref          `json:"b"`
	Verdict     string       `json:"verdict"`
	Differences []Difference `json:"differences,omitempty"`
	// Cosmetic counts the cosmetic differences by kind (ids, times, whitespace, headers).
	Cosmetic map[string]int `json:"cosmetic,omitempty"`
	// SharedTokens is the token prefix the two prompts share, cosmetic differences set aside:
	// what B reads from a cache that holds A's request. LostTokens are the rest of the shorter
	// prompt (read again); LostCost what they cost over a cache read, at B's model's price.
	// PromptTokens is B's prompt with its ids and times masked, which SharedTokens is a share of.
	PromptTokens int      `json:"prompt_tokens"`
	SharedTokens int      `json:"shared_tokens"`
	LostTokens   int      `json:"lost_tokens"`
	LostCost     *float64 `json:"lost_cost,omitempty"`
}

// Difference is one structural difference of a pair.
type Difference struct {
	Kind string `json:"kind"`
	// Path is where the two first differ, a JSON path in B's body (in A's when B lacks the part).
	Path   string        `json:"path"`
	Detail string        `json:"detail"`
	Change *audit.Change `json:"change,omitempty"`
	// Prefix: the difference changes a cached prefix (Breaks).
	Prefix bool `json:"prefix"`
	// TokensA and TokensB are the differing part's tokens on each side (0 where it is absent,
	// or the tokenizer does not count parts apart).
	TokensA int `json:"tokens_a,omitempty"`
	TokensB int `json:"tokens_b,omitempty"`
	// Rest counts the messages after a rewritten one, which are not compared (once a history
	// parts, the rest of it is the other side's own).
	Rest int `json:"not_compared,omitempty"`
	// First: the pair's first difference that changes the prefix, which its lost tokens are put
	// on.
	First bool `json:"first,omitempty"`
}

// Unpaired is a request only one side sent (the counts differ, and no request of the other side
// is its counterpart).
type Unpaired struct {
	Side string `json:"side"`
	Ref
	Why string `json:"why"`
}

// Change is one distinct difference with the pairs it is in.
type Change struct {
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Detail string `json:"detail"`
	Prefix bool   `json:"prefix"`
	Pairs  []int  `json:"pairs"`
	// LostTokens and LostCost are those of the pairs where it is the first prefix change.
	LostTokens int      `json:"lost_tokens"`
	LostCost   *float64 `json:"lost_cost,omitempty"`
}

// Totals sum a comparison.
type Totals struct {
	Pairs    int `json:"pairs"`
	Same     int `json:"same"`
	Cosmetic int `json:"cosmetic"`
	Differs  int `json:"differs"`
	Breaks   int `json:"breaks"`
	Unpaired int `json:"unpaired"`
	// PromptTokens are B's paired prompts' tokens; SharedTokens those shared with A's; LostTokens
	// the rest of the shorter prompts.
	PromptTokens int64    `json:"prompt_tokens"`
	SharedTokens int64    `json:"shared_tokens"`
	LostTokens   int64    `json:"lost_tokens"`
	SharedShare  float64  `json:"shared_share"`
	LostCost     *float64 `json:"lost_cost,omitempty"`
}

// Status is how the comparison ended: unfinished when a side holds no request (or none pairs), failed when a
// pair differs where a prompt cache sees it, else ok (cosmetic differences, or structural ones
// no cache keys on, are listed but pass).
func Status(r *Report) format.Status {
	switch {
	case r.A.Requests == 0 || r.B.Requests == 0 || r.Totals.Pairs == 0:
		return format.Unfinished
	case r.Totals.Breaks > 0:
		return format.Failed
	}
	return format.OK
}
