package gen

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// LargeOptions shape a large generated session.
type LargeOptions struct {
	// Requests is the number of requests; Tokens the cumulative prompt tokens to aim for (the sum
	// of every request's prompt length). The session keeps the prefix rules: it grows by a tool
	// call and its result per request, a user turn now and then, and compacts (3.1: the ask as the
	// next turn, then a history made of the summary) whenever it would outgrow the length that
	// makes the cumulative total come out at Tokens.
	Requests int
	Tokens   int64
	Seed     uint64
	// Step, when set, is the tokens each request adds, and the session never compacts: it grows
	// for its whole length (Tokens is then ignored), so its cumulative prompt tokens grow with the
	// square of its length — what the benchmarks use to show how the audit's cost grows.
	Step int
}

// tokensPerWord is how many o200k tokens a word of the generated text makes, measured on it.
const tokensPerWord = 1.24

var vocab = strings.Fields(`the a of to and in is it for on that with as this be are by at from or an
was which can not but all will one has have more if their when there so about into its than them
these would other some time only could new also two first after any where most over such what
file line function return error value string type package import main test build run config
server client request response cache prefix token session model tool result message system user
assistant read write edit search list path directory commit branch merge review plan note memory
context summary compaction date clock slot prompt reuse miss hit latency throughput queue worker
handler router middleware schema field record table index query column row migration backup
deploy release version tag changelog issue ticket bug fix patch feature refactor rename extract
inline loop branch condition variable constant parameter argument callback promise async await
thread mutex channel buffer stream reader writer encoder decoder parser lexer scanner formatter`)

// words is n words of generated text, with punctuation and line breaks now and then.
func words(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			switch rng.IntN(14) {
			case 0:
				b.WriteString(".\n")
			case 1:
				b.WriteString(", ")
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(vocab[rng.IntN(len(vocab))])
		if rng.IntN(25) == 0 {
			fmt.Fprintf(&b, "_%d", rng.IntN(1000))
		}
	}
	return b.String()
}

func approx(nWords int) int { return int(float64(nWords) * tokensPerWord) }

// WriteLarge writes a large recording of one long session, made for the benchmarks.
func WriteLarge(w io.Writer, o LargeOptions) error {
	if o.Requests < 2 || o.Tokens <= 0 && o.Step <= 0 {
		return fmt.Errorf("a large session needs at least 2 requests, and Tokens or Step")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	rw, err := replay.NewWriter(w, replay.Header{Created: Start, Tool: "lembas-check cachebench/gen", Source: "fake",
		Script: fmt.Sprintf("large: %d requests, about %d cumulative prompt tokens, seed %d", o.Requests, o.Tokens,
			o.Seed)})
	if err != nil {
		return err
	}
	rec := &Recorder{W: rw, Clock: Start, Gap: 3 * time.Second}
	s := &Session{Model: "qwen3-coder"}
	const sysWords, toolCount, toolWords = 1100, 24, 120
	s.System = []json.RawMessage{Msg("system", words(rng, sysWords))}
	for i := 0; i < toolCount; i++ {
		s.Tools = append(s.Tools, Tool(fmt.Sprintf("tool_%02d", i), words(rng, toolWords), "path", "query"))
	}
	base := approx(sysWords + toolCount*(toolWords+30))
	const summaryWords = 450
	low := base + approx(summaryWords+60)
	avg := int(o.Tokens / int64(o.Requests))
	limit := 2*avg - low // the sawtooth from low to limit averages avg
	step := max(20, (limit-low)/60)
	switch {
	case o.Step > 0:
		limit, step = 1<<62, o.Step
	case limit <= low:
		limit, step = 1<<62, max(20, 2*(avg-base)/o.Requests)
	}
	size := base
	grow := func(m json.RawMessage, nWords int) {
		s.Msgs = append(s.Msgs, m)
		size += approx(nWords) + 8
	}
	ask := spec.Text("tasks.compact.ask")
	calls := 0
	userWords := 40
	grow(Msg("user", words(rng, userWords)), userWords)
	for n := 1; n <= o.Requests; n++ {
		switch {
		case size > limit && n < o.Requests-1:
			// Compaction: the ask as the next turn, then the summary in place of the history.
			grow(Msg("user", ask), 200)
			summary := words(rng, summaryWords)
			if _, err := rec.Send(s.Body(), Reply{Text: summary}, false); err != nil {
				return err
			}
			n++
			s.Msgs, size = nil, base
			grow(Msg("user", summary), summaryWords)
			grow(Msg("user", words(rng, userWords)), userWords)
			fallthrough
		default:
			calls++
			id := fmt.Sprintf("call_%d", calls)
			reply := Reply{Calls: []Call{{id, "tool_03", fmt.Sprintf(`{"path":"src/%s.go","query":"%s"}`,
				vocab[rng.IntN(len(vocab))], vocab[rng.IntN(len(vocab))])}}}
			if calls%8 == 0 {
				reply = Reply{Text: words(rng, 30)}
			}
			m, err := rec.Send(s.Body(), reply, false)
			if err != nil {
				return err
			}
			grow(m, 30)
			if len(reply.Calls) > 0 {
				nw := max(10, int(float64(step)/tokensPerWord)-30)
				grow(Result(id, words(rng, nw)), nw)
			} else {
				grow(Msg("user", words(rng, userWords)), userWords)
			}
		}
	}
	return nil
}
