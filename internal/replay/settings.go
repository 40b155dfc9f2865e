package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/progress"
)

// Settings are `replay`'s settings as a person gives them (its flags; docs/recording.md), all
// but how its report is written.
type Settings struct {
	Server ServerSettings
	// Mode is Frozen, Live or Timed; Speed how much faster than recorded a timed replay goes.
	Mode  string
	Speed float64
	// Record is a file to record what was sent and answered in ("": none).
	Record string
	// Cold empties the server's prompt cache first, where it offers it.
	Cold bool
}

// Run sends the requests of the recording (or request log) file to the server again, with the
// progress line on log. It returns what was sent, what emptying the cache said, and what stopped
// the play (said as replay says it; what was sent stands); err is a replay not made.
func (s Settings) Run(ctx context.Context, file string, log io.Writer) (sent []Sent, cold string, played, err error) {
	if s.Server.URL == "" {
		return nil, "", nil, errors.New("replay needs --server URL")
	}
	snd, err := s.Server.Sender()
	if err != nil {
		return nil, "", nil, err
	}
	rd, f, err := OpenFile(file)
	if err != nil {
		return nil, "", nil, err
	}
	defer f.Close()
	var rec *Writer
	if s.Record != "" {
		if rec, err = Create(s.Record, Header{Tool: "lembas-check replay", Source: "proxy", Upstream: s.Server.URL,
			Script: file}); err != nil {
			return nil, "", nil, format.FileErr("--record", s.Record, err)
		}
		defer rec.Close()
	}
	if s.Cold {
		cold, _ = snd.EmptyCache(ctx)
		fmt.Fprintf(log, "lembas-check: cold cache: %s\n", cold)
	}
	bar := progress.New(log, "lembas-check replay "+file)
	bar.Phase(s.Mode, int64(countPrompts(file)), "requests")
	bar.Start()
	p := &Player{Sender: snd, Mode: s.Mode, Speed: s.Speed, Adjust: s.Server.Adjust(), OnSent: func(x Sent) {
		sent = append(sent, x)
		bar.Set(int64(len(sent)), fmt.Sprintf("request %d: %s", x.Seq, CachedNote(LineOf(x).Usage)))
		if rec != nil {
			if err := rec.Write(x.Exchange(time.Now().UTC()), x.Body); err != nil {
				fmt.Fprintf(log, "lembas-check: --record: %v\n", err)
			}
		}
	}}
	played = p.Play(ctx, rd)
	bar.Stop()
	var le *LineError
	if played != nil && !errors.As(played, &le) {
		played = fmt.Errorf("replay %s: %v", file, played)
	}
	return sent, cold, played, nil
}

// countPrompts counts a recording's prompt requests quickly, for the progress line's total (those
// before any damage; 0 when it cannot be opened: the replay then says why).
func countPrompts(path string) int {
	r, f, err := Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n, _ := CountPrompts(r)
	return n
}

// ServerSettings are how bench and replay reach a server, as a person gives them (--server,
// --api-key-env, --timeout, --max-tokens).
type ServerSettings struct {
	URL       string
	APIKeyEnv string // the environment variable whose value is sent as a bearer token
	Timeout   time.Duration
	MaxTokens int
}

// Adjust is what every replayed request gets besides its recorded bytes: the answer's length,
// and a stream's usage asked for.
func (s ServerSettings) Adjust() Adjust {
	return Adjust{MaxTokens: s.MaxTokens, AskUsage: true}
}

// Sender is the sender the settings make; its errors name the flag at fault.
func (s ServerSettings) Sender() (Sender, error) {
	snd := Sender{URL: s.URL, Client: &http.Client{Timeout: s.Timeout}, Header: http.Header{}}
	if s.MaxTokens < 0 {
		return snd, fmt.Errorf("--max-tokens %d: want 0 (as recorded) or more", s.MaxTokens)
	}
	if s.APIKeyEnv != "" {
		key := os.Getenv(s.APIKeyEnv)
		if key == "" {
			return snd, fmt.Errorf("--api-key-env %s: the variable is empty or not set", s.APIKeyEnv)
		}
		snd.Header.Set("Authorization", "Bearer "+key)
	}
	return snd, nil
}

// Formats are the formats a replay's report is written in.
var Formats = format.Formats[[]Sent]{
	{Name: "table", Write: func(w io.Writer, sent []Sent, _ bool) error { WriteTable(w, sent); return nil }},
	{Name: "json", About: "JSON lines, one per request", Write: func(w io.Writer, sent []Sent, _ bool) error {
		enc := jsonx.NewEncoder(w)
		for _, s := range sent {
			if err := enc.Encode(LineOf(s)); err != nil {
				return err
			}
		}
		return nil
	}},
}

// Footer is a replay's JSON footer (format.Footer, every command's): how it ended, the requests
// sent and failed, why when it is not ok, and whether a signal cut it short. `replay --format
// json` ends with it instead of the summary line, so its output is JSON lines only.
func Footer(status format.Status, sent []Sent, why string, interrupted bool) format.Footer {
	failed := 0
	for _, s := range sent {
		if s.Error != "" {
			failed++
		}
	}
	if status == format.OK {
		why = ""
	}
	return format.NewFooter(status, interrupted, map[string]int{"requests": len(sent), "failed": failed}, why)
}

// WriteEnd ends a replay's report in the format of that name: the JSON footer (the summary
// line then goes to stderr: JSON output is JSON lines only), or the summary line.
func WriteEnd(stdout, stderr io.Writer, name string, f format.Footer, line string) error {
	if name != "json" {
		_, err := fmt.Fprintln(stdout, line)
		return err
	}
	fmt.Fprintln(stderr, line)
	return jsonx.NewEncoder(stdout).Encode(f)
}

// Outcome is how a replay of file in mode ended, and its last line: unfinished when the play
// stopped (played) or sent nothing, failed when a request failed; cold is what emptying the
// cache first said ("" when not asked).
func Outcome(file, mode string, sent []Sent, played error, cold string) (format.Status, string) {
	failed := 0
	for _, s := range sent {
		if s.Error != "" {
			failed++
		}
	}
	status := format.OK
	switch {
	case played != nil || len(sent) == 0:
		status = format.Unfinished
	case failed > 0:
		status = format.Failed
	}
	line := fmt.Sprintf("%s\t%s\t%s mode: %d requests sent, %d failed", status.Word(), file, mode, len(sent), failed)
	if cold != "" {
		line += "; cold cache: " + cold
	}
	if len(sent) == 0 && played == nil {
		line += "; no request: did the agent reach the fake?"
	}
	return status, line
}
