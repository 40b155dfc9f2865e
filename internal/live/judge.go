package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/LLeMbas/lembas-check/runner"
)

// The prefix rules a live session is judged by (context.md §10), by the id each verdict carries.
const (
	RuleSession = "session" // the scenario ran to its end, each step made
	// rule 1: the same bytes on every request but after a compaction or a model change
	RuleSystemPrompt = "system-prompt"
	RuleNoClock      = "no-clock"          // rule 2: no date or time in the system prompt
	RuleTools        = "tools"             // rule 4: the same tool list all session
	RuleRewritten    = "nothing-rewritten" // rule 5: nothing sent earlier is rewritten
	RuleDateNote     = "date-note"         // rules 2, 3: the date after the person's words, again once it changed
	RuleModeNote     = "mode-note"         // rule 3: a mode change after the person's words on the next message
	RuleIDsShown     = "ids-shown"         // Over the link: a client shows the results' ids as sent
)

// Rules are the rules in the order a report gives them, with what each checks.
var Rules = []struct{ ID, About string }{
	{RuleSession, "the scenario ran to its end: the agent answered every step it offers a way to make"},
	{RuleSystemPrompt,
		"context.md §10 rule 1: the system prompt is the same bytes on every request, but after a compaction or a " +
			"model change"},
	{RuleNoClock, "context.md §10 rule 2: nothing in the system prompt is a clock (no date, no time)"},
	{RuleTools, "context.md §10 rule 4: the tool list is the same for the whole session"},
	{RuleRewritten, "context.md §10 rule 5: nothing already sent is rewritten"},
	{RuleDateNote,
		"context.md §10 rules 2 and 3: the date reaches the model after the person's words — on the first message, " +
			"and on the next one after it changed"},
	{RuleModeNote,
		"context.md §10 rule 3: a mode the person changed reaches the model after their words on the next message, " +
			"not in the system prompt or the tools"},
	{RuleIDsShown,
		"context.md, Over the link: a tool result the client is shown (ACP tool_call content) carries the id the " +
			"model was sent with it"},
}

// Judgement is a run judged: one result per rule, in the runner's terms, and the facts the field
// report lists.
type Judgement struct {
	Results []runner.Result
	Audit   *audit.Report
	// Where the date and the working directory were found in the first request.
	DateAt, DirAt string
	// Breaks are every break of the held rules in the session (Held); Break is the first, as
	// the audit reports one, for the field report.
	Breaks []Break
	Break  *audit.Request
	// Beside names each request not judged as the session's: "request 6: a side request
	// (suggestion), not judged as the session's".
	Beside []string
	// Prompts is the number of prompt requests recorded.
	Prompts int
	// NotRun says why the scenario could not be run, or finished, for a reason that is not the
	// agent's doing (its program could not be started, it never reached the fake): its verdicts
	// are skips, and the run it is part of is unfinished (runner.Report.NotRun).
	NotRun string
}

type request struct {
	seq  int
	body []byte
	r    *chat.Request
	// reply is the text the fake answered it with ("" for calls, or none recorded).
	reply string
}

// Judge reads a run's recording and judges it by each rule.
func Judge(ctx context.Context, run *Run) (*Judgement, error) {
	es, _, err := replay.ReadAll(run.Recording)
	if err != nil && len(es) == 0 {
		return nil, fmt.Errorf("reading %s: %v", run.Recording, err)
	}
	rd, f, err := replay.Open(run.Recording)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := audit.Run(ctx, rd, audit.Options{}, nil)
	if err != nil && rep == nil {
		return nil, err
	}
	var reqs []request
	for _, e := range es {
		if !replay.IsPrompt(e.Exchange) {
			continue
		}
		// A Responses turn that continues an earlier one (previous_response_id: codex over its
		// WebSocket) is judged as the model saw it, the earlier turns before its input.
		body := e.Body
		if e.Prompt != nil {
			body = e.Prompt
		}
		r, err := chat.ParsePath(e.Exchange.Path, body)
		if err != nil {
			continue
		}
		q := request{seq: e.Exchange.Seq, body: body, r: r}
		if rep, err := e.Exchange.Response.Reply(); err == nil {
			q.reply = strings.TrimSpace(rep.Text)
		}
		reqs = append(reqs, q)
	}
	j := &Judgement{Audit: rep, Prompts: len(reqs)}
	line, beside := sessionOf(run, reqs)
	j.Beside = beside
	main := map[int]bool{}
	for _, q := range line {
		main[q.seq] = true
	}
	j.DateAt, j.DirAt = where(reqs, main, run)
	j.Breaks = Held(sents(run, rep, line))
	if len(j.Breaks) > 0 {
		j.Break = j.Breaks[0].Request()
	}
	add := func(rule string, v runner.Verdict, msg, diff string) {
		j.Results = append(j.Results, result(run, rule, v, msg, diff))
	}
	rule, v, msg, diff := judgeSession(run, j.Prompts)
	if v == runner.Skip {
		j.NotRun = msg
	} else if len(beside) > 0 {
		msg += "; " + strings.Join(beside, "; ")
	}
	add(rule, v, msg, diff)
	rule, v, msg, diff = judgeHeld(RuleSystemPrompt, line, j.Breaks, beside,
		"the system prompt held: the same bytes on every request of the session")
	if m := ModelMoves(rep); v == runner.Pass && len(m) > 0 {
		msg += "; where it changed, allowed: " + strings.Join(m, "; ")
	}
	add(rule, v, msg, diff)
	add(judgeNoClock(run, reqs, main))
	add(judgeHeld(RuleTools, line, j.Breaks, beside, "the tool list held: the same on every request of the session"))
	add(judgeHeld(RuleRewritten, line, j.Breaks, beside,
		"nothing sent was rewritten: each request of the session extends the one before"))
	add(judgeDate(run, reqs, main))
	add(judgeMode(run, reqs, main))
	add(judgeIDsShown(run.Driven, run.Shown, sentResults(reqs, main)))
	return j, nil
}

// sessionOf sorts the recording's requests into the session's own, in the order it sent them,
// and those beside it, each named with what it is. Which requests the session sent is the
// driver's to say (Run.Session: the ACP session, the RPC process, the one-shot chain); which of
// those are its own is what they are (sideOf), not when they came.
func sessionOf(run *Run, reqs []request) (line []*request, beside []string) {
	var in []*request
	var rs []*chat.Request
	for i := range reqs {
		q := &reqs[i]
		if s := run.Session; s.ID != "" && (q.seq < s.First || s.Last >= s.First && q.seq > s.Last) {
			beside = append(beside, fmt.Sprintf("request %d: sent outside %s, not judged as the session's", q.seq,
				s.ID))
			continue
		}
		in, rs = append(in, q), append(rs, q.r)
	}
	head := headOf(rs)
	var suggested []string
	for _, q := range in {
		k := sideOf(head, q.r)
		if k == "" && speculates(q.r, suggested) {
			k = "speculation: the suggested prompt run ahead"
		}
		if k != "" {
			beside = append(beside, fmt.Sprintf("request %d: a side request (%s), not judged as the session's", q.seq,
				k))
			if k == "suggestion" && q.reply != "" {
				suggested = append(suggested, q.reply)
			}
			continue
		}
		line = append(line, q)
	}
	return line, beside
}

// sents are the session's requests as Held reads them: each says whether a compaction or a
// move to another model came before it (a step of the scenario, or the compaction the audit
// found by its own marks), which lets its system prompt, and after a compaction its history,
// differ.
func sents(run *Run, rep *audit.Report, line []*request) []Sent {
	compacted := map[int]bool{}
	for _, q := range rep.Requests {
		if q.Cause == audit.Compaction {
			compacted[q.Seq] = true
		}
	}
	out := make([]Sent, len(line))
	for i, q := range line {
		out[i] = Sent{Seq: q.seq, Req: q.r, Remade: compacted[q.seq], Reset: compacted[q.seq]}
		prev := 0
		if i > 0 {
			prev = line[i-1].seq
		}
		for _, s := range run.Steps {
			if s.Skipped != "" || !s.Step.Compact && s.Step.Model == "" {
				continue
			}
			// The step's own requests, and the session's first after it.
			during := q.seq >= s.First && q.seq <= s.Last
			if during || prev <= s.Last && q.seq > s.Last {
				out[i].Remade = true
				out[i].Reset = out[i].Reset || s.Step.Compact
			}
		}
	}
	return out
}

// Request is the break as the audit reports one, for the field report.
func (b Break) Request() *audit.Request {
	return &audit.Request{Seq: b.Seq, Continues: b.Prev, Cause: b.Cause, Break: true, Fails: true, Path: b.Path,
		Change: b.Change, Detail: b.Detail, Clock: b.Clock}
}

func result(run *Run, rule string, v runner.Verdict, msg, diff string) runner.Result {
	about := ""
	for _, r := range Rules {
		if r.ID == rule {
			about = r.About
		}
	}
	input, _ := json.Marshal(map[string]string{"agent": run.Profile.Name, "driven": run.Driven,
		"scenario": run.Scenario.Name, "rule": rule})
	expect, _ := json.Marshal(about)
	return runner.Result{
		Case: runnerCase(run, rule, about, input, expect),
		// A rule that holds has nothing more to say; one that does not, or could not be
		// checked, says why.
		Verdict: v, Message: msg, Diff: diff, Evidence: evidence(v, msg),
	}
}

// judgeSession: the scenario ran to its end, the policy drove the agent, every step was made
// or said why it could not be. A scenario that could not be run — the agent not started, no
// request reaching the fake — is a skip saying why (Judgement.NotRun): nothing was checked.
func judgeSession(run *Run, prompts int) (string, runner.Verdict, string, string) {
	var f *acp.Fault
	var nr *NotRun
	switch {
	case errors.As(run.Fault, &nr):
		return RuleSession, runner.Skip, fmt.Sprintf("not run: at %s: %v", stepAt(run), nr.Err), ""
	case errors.Is(run.Fault, context.Canceled) || errors.Is(run.Fault, context.DeadlineExceeded):
		return RuleSession, runner.Interrupted, fmt.Sprintf("interrupted at %s", stepAt(run)), ""
	}
	if errors.As(run.Fault, &f) {
		v := runner.Crashed
		switch f.Kind {
		case acp.Hung:
			v = runner.Timeout
		case acp.Malformed, acp.Outside:
			v = runner.ProtocolError
		}
		return RuleSession, v, fmt.Sprintf("%s: %s at %s: %s", run.Profile.Name, f.Kind, stepAt(run),
			strings.TrimPrefix(run.Fault.Error(), string(f.Kind)+": ")), ""
	}
	if run.Fault != nil {
		return RuleSession, runner.Error, fmt.Sprintf("at %s: %v", stepAt(run), run.Fault), ""
	}
	if len(run.Warnings) > 0 {
		return RuleSession, runner.Fail, "the fake could not drive the agent: " + strings.Join(run.Warnings, "; "), ""
	}
	if prompts == 0 {
		return RuleSession, runner.Skip,
			fmt.Sprintf("not run: no request reached the fake: did the agent reach it? (the %s profile points it at "+
				"the fake: env, files)", run.Profile.Name), ""
	}
	var skipped []string
	for i, s := range run.Steps {
		if s.Skipped != "" {
			skipped = append(skipped, fmt.Sprintf("step %d (%s): %s", i+1, s.Step, s.Skipped))
		}
	}
	msg := fmt.Sprintf("%d steps, %s, driven %s", len(run.Steps), requests(prompts), run.Driven)
	if len(skipped) > 0 {
		msg += "; not made: " + strings.Join(skipped, "; ")
	}
	return RuleSession, runner.Pass, msg, ""
}

func stepAt(run *Run) string {
	if n := len(run.Steps); n > 0 {
		return fmt.Sprintf("step %d (%s)", n, run.Steps[n-1].Step)
	}
	return "the start"
}

// judgeHeld: no request of the session breaks the rule against the one before it; every break
// is named, each with its change in the diff.
func judgeHeld(rule string, line []*request, breaks []Break, beside []string, held string) (string, runner.Verdict,
	string, string) {
	var msgs []string
	var diff strings.Builder
	for _, b := range breaks {
		if b.Rule != rule {
			continue
		}
		msgs = append(msgs, b.String())
		if b.Change != nil {
			fmt.Fprintf(&diff, "request %d (after request %d), %s:\n%s", b.Seq, b.Prev, b.Path, b.Change.Lines())
		}
	}
	if len(msgs) > 0 {
		msg := strings.Join(msgs, "; ")
		if len(msgs) > 1 {
			msg = fmt.Sprintf("%d breaks: %s", len(msgs), msg)
		}
		return rule, runner.Fail, msg, diff.String()
	}
	switch len(line) {
	case 0:
		return rule, runner.Skip, "not checked: no request of the session reached the fake", ""
	case 1:
		return rule, runner.Skip,
			"not checked: one request of the session reached the fake, and the rule compares a request with the one " +
				"before it", ""
	}
	msg := fmt.Sprintf("%s; %s compared with the one before it", held, requests(len(line)-1))
	if len(beside) > 0 {
		msg += fmt.Sprintf(" (%d beside the session not judged as its own)", len(beside))
	}
	return rule, runner.Pass, msg, ""
}

func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return fmt.Sprintf("%d requests", n)
}

// firstAfter is the first request made after step s, or nil.
func firstAfter(rep *audit.Report, s StepRun) *audit.Request {
	for i := range rep.Requests {
		if q := &rep.Requests[i]; q.Seq > s.Last {
			return q
		}
	}
	return nil
}

// continuedAfter says whether a request made after step s continues one made before it, or
// during it: whether the change the step made (the clock, the mode, a compaction) was crossed by
// the prefix at all, so that "held" across it means something.
func continuedAfter(rep *audit.Report, s StepRun) bool {
	for _, q := range rep.Requests {
		if q.Seq > s.Last && q.Continues != 0 && q.Continues <= s.Last {
			return true
		}
	}
	return false
}

// systemText is a request's system prompt, as its bytes (JSON, escapes and all).
func systemText(r *chat.Request) []byte {
	var b bytes.Buffer
	for _, p := range r.System {
		b.Write(p.Raw)
	}
	return b.Bytes()
}

// dateForms are the ways harnesses write a day (JavaScript's toDateString, US, ISO, day first).
var dateForms = []string{"2006-01-02", "Jan 02 2006", "Jan 2 2006", "January 2, 2006", "Jan 2, 2006", "01/02/2006",
	"1/2/2006", "2 January 2006", "02 Jan 2006"}

// dateIn finds day t in b, in any of the forms; it returns the form's text or "".
func dateIn(b []byte, t time.Time) string {
	for _, f := range dateForms {
		if s := t.Format(f); bytes.Contains(b, []byte(s)) {
			return s
		}
	}
	return ""
}

// days are the days the agent's clock read during the session: the scenario's steps'.
func days(run *Run) []time.Time {
	seen := map[string]bool{}
	var out []time.Time
	for _, s := range run.Steps {
		d := s.At.UTC().Truncate(24 * time.Hour)
		if k := d.Format("2006-01-02"); !seen[k] && !s.At.IsZero() {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// judgeNoClock: no request's system prompt holds a day the agent's clock read.
func judgeNoClock(run *Run, reqs []request, main map[int]bool) (string, runner.Verdict, string, string) {
	n := 0
	ds := days(run)
	// Each day found is named at the first request that holds it, and how many held one.
	var found []string
	seen := map[string]bool{}
	dated := 0
	for _, q := range reqs {
		if !main[q.seq] {
			continue
		}
		n++
		has := false
		for _, d := range ds {
			if s := dateIn(systemText(q.r), d); s != "" {
				has = true
				if !seen[s] {
					seen[s] = true
					found = append(found, fmt.Sprintf("request %d: the system prompt holds the date %q", q.seq, s))
				}
			}
		}
		if has {
			dated++
		}
	}
	if len(found) > 0 {
		return RuleNoClock, runner.Fail, fmt.Sprintf("%s (%d of the session's %s hold a date)", strings.Join(found,
			"; "), dated, requests(n)), ""
	}
	if n == 0 || len(ds) == 0 {
		return RuleNoClock, runner.Skip, "not checked: no request of the session reached the fake", ""
	}
	var names []string
	for _, d := range ds {
		names = append(names, d.Format("2006-01-02"))
	}
	return RuleNoClock, runner.Pass,
		fmt.Sprintf("no date in the system prompt of the session's %s (the days its clock read: %s)", requests(n),
			strings.Join(names, ", ")), ""
}

// where says where the first request of the session carries the date and the working
// directory: "system prompt", "first user message", "a user message", "tools", or "not sent".
func where(reqs []request, main map[int]bool, run *Run) (date, dir string) {
	date, dir = "not sent", "not sent"
	for _, q := range reqs {
		if !main[q.seq] {
			continue
		}
		find := func(match func([]byte) bool) string {
			if match(systemText(q.r)) {
				return "system prompt"
			}
			for _, t := range q.r.Tools {
				if match(t.Raw) {
					return "tools"
				}
			}
			first := true
			for _, m := range q.r.Messages {
				if m.Role == "system" && match(m.Raw) { // Claude Code's date message
					return "a system message"
				}
				if m.Role != "user" && m.Role != "" {
					continue
				}
				if match(m.Raw) {
					if first {
						return "first user message"
					}
					return "a user message"
				}
				first = false
			}
			return "not sent"
		}
		if ds := days(run); len(ds) > 0 {
			date = find(func(b []byte) bool { return dateIn(b, ds[0]) != "" })
		}
		dirJSON, _ := json.Marshal(run.Dir)
		dir = find(func(b []byte) bool { return bytes.Contains(b, dirJSON[1:len(dirJSON)-1]) })
		return date, dir
	}
	return date, dir
}

// firstOf is the first request of the session made during step i, and the last one before it.
func firstOf(run *Run, i int, reqs []request, main map[int]bool) (prev, first *request) {
	s := run.Steps[i]
	for k := range reqs {
		q := &reqs[k]
		if !main[q.seq] {
			continue
		}
		if q.seq < s.First {
			prev = q
		} else if q.seq <= s.Last && first == nil {
			first = q
		}
	}
	return prev, first
}

// judgeDate: with the clock set, the first message carries the date, and after it changed the
// next prompt's request carries the new one — after the person's words, read as the model reads
// them (placeNote), not in the system prompt, not before them.
func judgeDate(run *Run, reqs []request, main map[int]bool) (string, runner.Verdict, string, string) {
	if !run.Clock.Set {
		return RuleDateNote, runner.Skip, "the scenario does not set the clock", ""
	}
	if !run.Clock.Controlled {
		return RuleDateNote, runner.Skip, "clock " + run.Clock.Why, ""
	}
	var said, failed, unseen []string
	lastDay := ""
	changes := 0
	for i, s := range run.Steps {
		if s.Step.Prompt == "" || s.Skipped != "" {
			continue
		}
		day := s.At.UTC().Format("2006-01-02")
		if day == lastDay {
			continue
		}
		first := lastDay == ""
		lastDay = day
		prev, q := firstOf(run, i, reqs, main)
		if q == nil || !first && prev == nil {
			// The evidence is missing: nothing reached the fake to say whether the date did.
			what := "the first prompt"
			if !first {
				what = "the first prompt after the clock reached " + day
			}
			unseen = append(unseen, fmt.Sprintf("not checked: step %d (%s), %s, sent the session no request", i+1,
				s.Step, what))
			continue
		}
		d := s.At.UTC()
		what := "the date"
		if !first {
			changes++
			what = "the new date"
		}
		if got := dateIn(systemText(q.r), d); got != "" {
			if first {
				said = append(said, fmt.Sprintf("request %d has %q in the system prompt", q.seq, got))
			} else {
				failed = append(failed,
					fmt.Sprintf("request %d: the new date %q is in the system prompt, not after the person's words",
						q.seq, got))
			}
			continue
		}
		from := 0
		if !first {
			from = len(prev.r.Messages)
		}
		p := placeNote(q.r, from, s.Step.Prompt, dateFinder(d))
		switch {
		case p.note == "" && first:
			unseen = append(unseen, fmt.Sprintf("request %d does not carry the date (%s) at all: the agent "+
				"does not tell the model the date", q.seq, day))
		case p.note == "":
			failed = append(failed,
				fmt.Sprintf("request %d, the first after the clock reached %s: the new date is not sent (the model "+
					"still reads the day before)", q.seq, day))
		case !p.words:
			unseen = append(unseen,
				fmt.Sprintf("not checked: request %d has %s %q at %s, and not the person's words as sent, so whether "+
					"it comes after them cannot be told", q.seq, what, p.note, p.at))
		case !p.after:
			failed = append(failed, fmt.Sprintf("request %d: %s %q is %s", q.seq, what, p.note, p))
		default:
			said = append(said, fmt.Sprintf("request %d has %s %q %s", q.seq, what, p.note, p))
		}
	}
	v, why := dateVerdict(failed, unseen, said, changes)
	return RuleDateNote, v, why, ""
}

// dateVerdict is the date rule's verdict from what each prompt's request showed: a failure
// fails it, a request that could not be read leaves it unchecked, else it passed.
func dateVerdict(failed, unseen, said []string, changes int) (runner.Verdict, string) {
	switch {
	case len(failed) > 0:
		return runner.Fail, strings.Join(append(failed, said...), "; ")
	case len(unseen) > 0:
		return runner.Skip, strings.Join(append(unseen, said...), "; ")
	case len(said) == 0:
		return runner.Skip, "not checked: no prompt was sent"
	}
	if changes == 0 {
		said = append(said, "the day did not change between prompts, so only the first message was checked")
	}
	return runner.Pass, strings.Join(said, "; ")
}

// judgeMode: after a mode change, the next prompt's request of the session keeps the system
// prompt and the tools, and says the mode after the person's words, read as the model reads them.
func judgeMode(run *Run, reqs []request, main map[int]bool) (string, runner.Verdict, string, string) {
	mode, at := "", 0
	for i, s := range run.Steps {
		if s.Step.Mode != "" {
			if s.Skipped != "" {
				return RuleModeNote, runner.Skip, "the mode change was not made: " + s.Skipped, ""
			}
			mode, at = s.Step.Mode, i+1
			continue
		}
		if mode == "" || s.Step.Prompt == "" || s.Skipped != "" {
			continue
		}
		prev, q := firstOf(run, i, reqs, main)
		if prev == nil {
			return RuleModeNote, runner.Skip,
				fmt.Sprintf("not checked: the session sent no request before the mode change (step %d)", at), ""
		}
		if q == nil {
			return RuleModeNote, runner.Skip,
				fmt.Sprintf("not checked: step %d (%s), after the mode change, sent the session no request", i+1,
					s.Step), ""
		}
		var wrong []string
		if !bytes.Equal(systemText(prev.r), systemText(q.r)) {
			wrong = append(wrong, fmt.Sprintf("request %d: the mode change went into the system prompt", q.seq))
		}
		if !sameTools(prev.r, q.r) {
			wrong = append(wrong, fmt.Sprintf("request %d: the mode change changed the tools", q.seq))
		}
		p := placeNote(q.r, len(prev.r.Messages), s.Step.Prompt, modeFinder(mode))
		switch {
		case p.note != "" && p.words && !p.after:
			wrong = append(wrong, fmt.Sprintf("request %d: the mode %s is %s", q.seq, mode, p))
		case len(wrong) > 0:
		case p.note == "":
			return RuleModeNote, runner.Skip,
				fmt.Sprintf("request %d: the system prompt and the tools held, and the agent does not tell the model "+
					"the mode is now %s", q.seq, mode), ""
		case !p.words:
			return RuleModeNote, runner.Skip,
				fmt.Sprintf("not checked: request %d says the mode %s at %s, and not the person's words as sent, so "+
					"whether it comes after them cannot be told", q.seq, mode, p.at), ""
		default:
			return RuleModeNote, runner.Pass,
				fmt.Sprintf("request %d says the mode %s %s; the system prompt and the tools held", q.seq, mode, p), ""
		}
		return RuleModeNote, runner.Fail, strings.Join(wrong, "; "), ""
	}
	if mode != "" {
		return RuleModeNote, runner.Skip,
			fmt.Sprintf("not checked: the mode changed at step %d, and no prompt followed", at), ""
	}
	return RuleModeNote, runner.Skip, "the scenario changes no mode", ""
}

func sameTools(a, b *chat.Request) bool {
	if len(a.Tools) != len(b.Tools) {
		return false
	}
	for i := range a.Tools {
		if !bytes.Equal(a.Tools[i].Raw, b.Tools[i].Raw) {
			return false
		}
	}
	return true
}

// Failed says whether a verdict fails the run, as it would in a runner report.
func (j *Judgement) Failed() bool { return (&runner.Report{Results: j.Results}).Failed() }

// runnerCase is a rule of a scenario as the runner's reports show a case: id
// live/<scenario>/<rule>, area live, the scenario's file, the rule as what is expected.
func runnerCase(run *Run, rule, about string, input, expect []byte) conformance.Case {
	idx := 0
	for i, r := range Rules {
		if r.ID == rule {
			idx = i
		}
	}
	return conformance.Case{Label: conformance.Label{ID: "live/" + run.Scenario.Name + "/" + rule, Area: "live",
		Index: idx, File: run.Scenario.File, About: about}, Input: input, Expect: expect}
}
