package fakeprovider

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/internal/replay/cassette"
	"github.com/LLeMbas/lembas-check/internal/replay/redact"
)

// Settings are the fake's settings as a person gives them to `lembas-check fake` and `record`
// (names and files; docs/fakeprovider.md): Config checks them and loads the script.
type Settings struct {
	Script, Upstream, Listen string
	// Usage is the dialect's name (usage.ParseDialect).
	Usage      string
	CacheSlots int
	Models     []string
	MaxBody    int64
	Strict     bool
	// Redact is a rules file of secrets to scrub from a recording beside the built-in shapes.
	Redact string
	// Cassette is a recording to answer from, in CassetteMode (CassetteStrict when empty), its
	// requests compared by the rules file CassetteMatch beside the built-in rules; Timed sends
	// its answers at their recorded times.
	Cassette, CassetteMode, CassetteMatch string
	Timed                                 bool
}

// AddFlags adds the settings' flags that live here rather than in cmd: --max-body, --redact.
func (s *Settings) AddFlags(fs *flag.FlagSet) {
	fs.Int64Var(&s.MaxBody, "max-body", DefaultMaxBody, "largest request body taken, in `BYTES` (413 above)")
	fs.StringVar(&s.Redact, "redact", "",
		"scrub also what the rules `FILE` names from a recording (patterns:, paths:; "+
			"the common providers' keys are always scrubbed; docs/recording.md)")
	fs.StringVar(&s.Cassette, "cassette", "",
		"answer each request with its recorded answer from the recording `FILE`, "+
			"a request that matches none with a 400 naming where it differs (docs/recording.md, Cassettes)")
	fs.StringVar(&s.CassetteMode, "cassette-mode", "",
		"with --cassette: `MODE` strict (a miss is an error; the default), "+
			"new (a miss is answered by --upstream and recorded) or all (re-record everything from --upstream)")
	fs.StringVar(&s.CassetteMatch, "cassette-match", "", "with --cassette: compare requests by the rules `FILE` too "+
		"(patterns:, paths: of values that may vary; builtin: false drops the built-in ones)")
	fs.BoolVar(&s.Timed, "timed", false,
		"with --cassette: send each recorded answer at its recorded times (default: at once)")
}

// cassette loads --cassette into cfg, checking the flags that go with it.
func (s Settings) cassette(cfg *Config) error {
	if s.Cassette == "" {
		for name, set := range map[string]bool{"--cassette-mode": s.CassetteMode != "",
			"--cassette-match": s.CassetteMatch != "", "--timed": s.Timed} {
			if set {
				return fmt.Errorf("%s goes with --cassette FILE", name)
			}
		}
		return nil
	}
	switch s.mode() {
	case CassetteStrict:
		if s.Upstream != "" {
			return errors.New("--cassette-mode strict answers from the cassette alone: --upstream goes with " +
				"--cassette-mode new or all")
		}
	case CassetteNew, CassetteAll:
		if s.Upstream == "" {
			return fmt.Errorf(
				"--cassette-mode %s records what the cassette lacks from an upstream: give --upstream URL",
				s.mode(),
			)
		}
	default:
		return fmt.Errorf("--cassette-mode %q: want strict, new or all", s.CassetteMode)
	}
	if s.Script != "" {
		return errors.New("--script and --cassette: give one (each answers the agent)")
	}
	if s.mode() == CassetteAll {
		return nil // everything is re-recorded: the cassette is not read
	}
	rules := cassette.Builtin()
	if s.CassetteMatch != "" {
		var err error
		if rules, err = cassette.Load(s.CassetteMatch); err != nil {
			return err
		}
	}
	c, err := cassette.Open(s.Cassette, rules)
	if err != nil {
		return err
	}
	c.Redact, _ = s.rules()
	cfg.Cassette, cfg.Timed = c, s.Timed
	return nil
}

func (s Settings) mode() string {
	if s.CassetteMode == "" {
		return CassetteStrict
	}
	return s.CassetteMode
}

// CheckOut checks the recording a server of these settings writes to (flag names it): a
// cassette mode that records needs one, and it is never the cassette itself, which it would
// empty before it was played.
func (s Settings) CheckOut(flag, out string) error {
	if s.Cassette == "" {
		return nil
	}
	if out == "" && s.mode() != CassetteStrict {
		return fmt.Errorf("--cassette-mode %s records: give %s FILE", s.mode(), flag)
	}
	if out != "" && filepath.Clean(out) == filepath.Clean(s.Cassette) {
		return fmt.Errorf("%s %s is the cassette: write the new recording elsewhere, then move it", flag, out)
	}
	return nil
}

// rules are the redaction rules of a recording: the built-in ones and --redact's file.
func (s Settings) rules() (*redact.Rules, error) {
	if s.Redact == "" {
		return redact.Builtin(), nil
	}
	return redact.Load(s.Redact)
}

// Config turns the settings into a server configuration, loading the script. Its errors name
// the flag at fault.
func (s Settings) Config() (Config, error) {
	var cfg Config
	if s.Script != "" && s.Upstream != "" {
		return cfg, errors.New("--script and --upstream: give one (a script answers; an upstream is proxied)")
	}
	if err := s.cassette(&cfg); err != nil {
		return cfg, err
	}
	if s.Script != "" {
		sc, err := script.Load(s.Script)
		if err != nil {
			return cfg, format.FileErr("--script", s.Script, err)
		}
		cfg.Script = sc
	}
	d, err := usage.ParseDialect(s.Usage)
	if err != nil {
		return cfg, fmt.Errorf("--usage: %v", err)
	}
	if _, err := s.rules(); err != nil {
		return cfg, err
	}
	if s.CacheSlots < 1 {
		return cfg, fmt.Errorf("--cache-slots %d: want 1 or more", s.CacheSlots)
	}
	cfg.Upstream, cfg.Listen, cfg.Dialect, cfg.CacheSlots = s.Upstream, s.Listen, d, s.CacheSlots
	cfg.Models, cfg.MaxBody, cfg.Strict = s.Models, s.MaxBody, s.Strict
	return cfg, nil
}

// Header is the header line of a recording made with these settings; tool names the program
// and its version.
func (s Settings) Header(tool string) replay.Header {
	h := replay.Header{Tool: tool, Source: "fake"}
	h.Rules, _ = s.rules() // checked by Config; nil (the built-in rules) if the file went since
	if s.Cassette != "" && s.mode() != CassetteAll {
		h.Source, h.Cassette = "cassette", s.Cassette
	}
	if s.Upstream != "" {
		h.Upstream = s.Upstream
		if h.Source != "cassette" {
			h.Source = "proxy"
		}
	} else if s.Script != "" {
		h.Script = s.Script
	}
	return h
}

// About says what a server of these settings answers with, for the line that announces it.
func (s Settings) About() string {
	switch {
	case s.Cassette != "" && s.mode() == CassetteNew:
		return "the cassette " + s.Cassette + ", what it lacks from " + s.Upstream
	case s.Cassette != "" && s.mode() == CassetteStrict:
		return "the cassette " + s.Cassette + " (strict: a request it lacks is an error)"
	case s.Upstream != "":
		return "a recording proxy to " + s.Upstream
	case s.Script != "":
		return "script " + s.Script
	}
	return "the default policy (read README.md, then answer done)"
}

// Stop shuts the server down and closes its recording (Config.Record, written to path), then
// reads the recording back to prove it whole and says on log what it holds. It returns how many
// exchanges the recording holds (without one: the requests served), and false when the server
// or the recording could not be finished (said on log).
func (s *Server) Stop(path string, log io.Writer) (exchanges int, ok bool) {
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ok = true
	if err := s.Shutdown(sctx); err != nil {
		fmt.Fprintf(log, "lembas-check: stopping the server: %v\n", err)
		ok = false
	}
	if c := s.cfg.Cassette; c != nil {
		fmt.Fprintf(log, "lembas-check: the cassette %s: %d of %d exchanges played, %d requests missed%s\n", c.File,
			c.Len()-len(c.Unplayed()), c.Len(), s.Misses(), unplayed(c.Unplayed()))
	}
	if s.cfg.Record == nil {
		return s.Requests(), ok
	}
	if err := s.cfg.Record.Close(); err != nil {
		fmt.Fprintf(log, "lembas-check: closing %s: %v\n", path, err)
		ok = false
	}
	sum, err := replay.Summarize(path)
	if err != nil {
		fmt.Fprintf(log, "lembas-check: reading %s back: %v\n", path, err)
		return 0, false
	}
	fmt.Fprintf(log, "lembas-check: recorded %d exchanges (%d requests served, %d with errors) in %s, %d bytes\n",
		sum.Exchanges, s.Requests(), sum.Errors, path, sum.Bytes)
	for _, e := range sum.FirstErrors {
		fmt.Fprintf(log, "lembas-check:   %s\n", e)
	}
	return sum.Exchanges, ok
}

// unplayed names the cassette's exchanges not played, or "".
func unplayed(seqs []int) string {
	if len(seqs) == 0 {
		return ""
	}
	w := make([]string, len(seqs))
	for i, q := range seqs {
		w[i] = strconv.Itoa(q)
	}
	return "; not asked for: exchange " + strings.Join(w, ", ")
}

// Unplayed are the cassette's exchanges (seqs) no request was answered with; nil without one.
func (s *Server) Unplayed() []int {
	if s.cfg.Cassette == nil {
		return nil
	}
	return s.cfg.Cassette.Unplayed()
}

// Logged counts the problems the server has said on Config.Log (a request its policy could not
// drive, a recording it could not write): record --agent never ends ok on an agent not driven.
func (s *Server) Logged() int { return int(s.logged.Load()) }

// CheckEnv checks the NAME=VALUE words of --env.
func CheckEnv(envs []string) error {
	for _, e := range envs {
		if name, _, ok := strings.Cut(e, "="); !ok || name == "" {
			return fmt.Errorf("--env %q: want NAME=VALUE, such as LEMBAS_SERVER={url}", e)
		}
	}
	return nil
}

// Env is the environment of a command pointed at the server: the caller's, with
// OPENAI_BASE_URL and OPENAI_API_KEY set, then envs ({url} in a value standing for the server's
// root URL).
func (s *Server) Env(envs []string) []string {
	env := os.Environ()
	env = append(env, "OPENAI_BASE_URL="+s.BaseURL())
	if s.Upstream() == "" || os.Getenv("OPENAI_API_KEY") == "" {
		// The fake takes any key; a real key is kept for a real upstream.
		env = append(env, "OPENAI_API_KEY=lembas-check-fake")
	}
	for _, e := range envs {
		env = append(env, strings.ReplaceAll(e, "{url}", s.URL))
	}
	return env
}

// Serve is `lembas-check fake`: the server of these settings until ctx ends, its URL first on
// stdout, what it serves on log, every exchange recorded to record ("": none). ok is false when
// it could not start (err says why) or could not finish its recording (said on log).
func (s Settings) Serve(ctx context.Context, tool, record string, stdout, log io.Writer) (ok bool, err error) {
	if err := s.CheckOut("--record", record); err != nil {
		return false, err
	}
	cfg, err := s.Config()
	if err != nil {
		return false, err
	}
	cfg.Log = log
	if record != "" {
		rec, err := replay.Create(record, s.Header(tool))
		if err != nil {
			return false, fmt.Errorf("--record: %v", err)
		}
		cfg.Record = rec
	}
	srv, err := Start(cfg)
	if err != nil {
		if cfg.Record != nil {
			cfg.Record.Close()
		}
		return false, err
	}
	fmt.Fprintln(stdout, srv.URL)
	fmt.Fprintf(log, "lembas-check fake: %s on %s (OpenAI base URL %s), serving %s; stop with Ctrl-C\n",
		s.About(), srv.URL, srv.BaseURL(), srv.ModelsAbout())
	<-ctx.Done()
	_, ok = srv.Stop(record, log)
	return ok, nil
}
