package replay

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/table"
)

// The replay command's report: a row per request sent, with what the server said it cached.

// Line is one request of a replay as its JSON lines give it: the request as sent, its times in
// milliseconds and the usage the server reported.
type Line struct {
	Sent
	FirstTokenMS float64     `json:"first_token_ms"`
	TotalMS      float64     `json:"total_ms"`
	Usage        usage.Usage `json:"usage"`
}

// LineOf is a sent request's line.
func LineOf(s Sent) Line {
	return Line{Sent: s, FirstTokenMS: ms(s.FirstToken), TotalMS: ms(s.Total), Usage: s.Reply.TokenUsage()}
}

// CachedNote says what a request got from the server's cache, for a progress line.
func CachedNote(u usage.Usage) string {
	if u.CachedTokens == nil {
		return "cached: not reported"
	}
	return fmt.Sprintf("cached %d (%s)", *u.CachedTokens, u.Dialect)
}

// WriteTable writes the requests sent as a table: their times, the prompt and cached tokens the
// server reported (and in which dialect), and what went wrong or what live mode did — each note
// cut in the table and said in full below it, once for the requests that share it.
func WriteTable(w io.Writer, sent []Sent) {
	t := table.New(w, 0)
	t.Header("Seq", "Line", "Status", "TTFT ms", "Total ms", "Prompt", "Cached", "Dialect", "Note")
	var notes []string
	seqs := map[string][]string{}
	for _, s := range sent {
		u := s.Reply.TokenUsage()
		note := s.Note
		if s.Error != "" {
			note = strings.TrimSpace(s.Error + " " + note)
		}
		t.Append(s.Seq, s.Line, s.Status, fmt.Sprintf("%.1f", ms(s.FirstToken)), fmt.Sprintf("%.1f", ms(s.Total)),
			intOr(u.PromptTokens, "—"), intOr(u.CachedTokens, "not reported"), u.Dialect, table.Cut(note, 60))
		if note != "" {
			if seqs[note] == nil {
				notes = append(notes, note)
			}
			seqs[note] = append(seqs[note], fmt.Sprint(s.Seq))
		}
	}
	t.Render()
	for _, n := range notes {
		at := "request "
		if len(seqs[n]) > 1 {
			at = "requests "
		}
		fmt.Fprintf(w, "%s%s: %s\n", at, strings.Join(seqs[n], ", "), n)
	}
}

func intOr(p *int, none string) string {
	if p == nil {
		return none
	}
	return fmt.Sprint(*p)
}

// Exchange is a replayed request as a recording keeps it (`replay --record`): what was sent and
// what the server answered, with the replay's times, starting at started.
func (s Sent) Exchange(started time.Time) Exchange {
	resp := s.Response
	return Exchange{Seq: s.Seq, Started: started, Method: http.MethodPost, Path: s.Path,
		Request: Request{Headers: map[string][]string{"Content-Type": {"application/json"}}}, Response: &resp,
		Timing: Timing{FirstByteMS: ms(s.FirstToken), TotalMS: ms(s.Total)}, Error: s.Error}
}
