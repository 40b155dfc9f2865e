// Package export writes a recording as a Mooncake-style trace: one JSON line per prompt request
// with its time, its input and output lengths in tokens and the hash ids of its 512-token prefix
// blocks — no text — so that other serving benchmarks can replay the session's cache behaviour
// without the prompts being shared. A block's hash covers every token before it (a chain), so two
// requests get the same ids exactly as far as their prompts are the same; ids are numbered from 0
// in the order blocks are first seen.
package export

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// DefaultBlock is Mooncake's block size in tokens.
const DefaultBlock = 512

// Record is one line of the trace.
type Record struct {
	// Timestamp is milliseconds since the first request.
	Timestamp    int64 `json:"timestamp"`
	InputLength  int   `json:"input_length"`
	OutputLength int   `json:"output_length"`
	HashIDs      []int `json:"hash_ids"`
}

// Options tune an export.
type Options struct {
	Tokenizer tokens.Tokenizer // nil: tiktoken
	Block     int              // 0: DefaultBlock
}

// Stats sum an export.
type Stats struct {
	Requests int
	Blocks   int // distinct block ids
	Input    int64
}

// Write exports every prompt request of src to w. Damage in the recording stops it after what
// came before (the error says where).
func Write(ctx context.Context, src replay.Source, w io.Writer, o Options) (Stats, error) {
	var st Stats
	tk := o.Tokenizer
	if tk == nil {
		t, err := tokens.NewTiktoken()
		if err != nil {
			return st, err
		}
		tk = t
	}
	tik, _ := tk.(*tokens.Tiktoken)
	block := o.Block
	if block <= 0 {
		block = DefaultBlock
	}
	enc := json.NewEncoder(w)
	ids := map[tokens.Sum]int{}
	var first time.Time
	var prev tokens.Prompt
	var prevHashes []tokens.Sum
	for {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		e, err := src.Next()
		if errors.Is(err, io.EOF) {
			return st, nil
		}
		if err != nil {
			return st, err
		}
		if !replay.IsPrompt(e.Exchange) {
			continue
		}
		r, err := chat.Parse(e.Body)
		if err != nil {
			continue // not a request a prompt can be made of; the audit lists these
		}
		p, err := tk.Prompt(ctx, e.Body, r)
		if err != nil {
			return st, err
		}
		if first.IsZero() {
			first = e.Exchange.Started
		}
		// Blocks wholly inside the common prefix with the previous request keep its hashes.
		keep := min(tokens.LCP(p, prev)/block, len(prevHashes))
		hashes := tokens.BlockSums(p.Flat(), block, prevHashes[:keep])
		rec := Record{InputLength: p.N, OutputLength: outputLength(e.Exchange.Response, tik), HashIDs: make([]int,
			len(hashes))}
		if !e.Exchange.Started.IsZero() {
			rec.Timestamp = e.Exchange.Started.Sub(first).Milliseconds()
		}
		for i, h := range hashes {
			id, ok := ids[h]
			if !ok {
				id = len(ids)
				ids[h] = id
			}
			rec.HashIDs[i] = id
		}
		if err := enc.Encode(rec); err != nil {
			return st, err
		}
		st.Requests++
		st.Input += int64(p.N)
		st.Blocks = len(ids)
		prev, prevHashes = p, hashes
	}
}

// outputLength is the answer's length in tokens: as the server reported it, else counted.
func outputLength(resp *replay.Response, tik *tokens.Tiktoken) int {
	reply, err := resp.Reply()
	if err != nil {
		return 0
	}
	if u := reply.TokenUsage(); u.CompletionTokens != nil {
		return *u.CompletionTokens
	}
	if tik == nil {
		return 0
	}
	n := tik.Count(reply.Text)
	for _, c := range reply.ToolCalls {
		n += tik.Count(c.Name + " " + c.Arguments)
	}
	return n
}
