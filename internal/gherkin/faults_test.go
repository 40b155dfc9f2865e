package gherkin

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/loop"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/runner"
)

// A faulty implementation of one rule: the builtin's answer (or the builtin given a changed case),
// with exactly that rule broken. Each area's features must catch its fault with at least one
// failing scenario, and say where and what in words a maintainer reads.

// builtinJSON answers a case's JSON with the reference.
func builtinJSON(t *testing.T, area string, caseJSON []byte) any {
	t.Helper()
	out := runner.Builtin{}.Answer(context.Background(), caseOf(area, caseJSON))
	if out.Verdict != "" {
		t.Fatalf("the builtin refused a %s case: %s", area, out.Message)
	}
	var v any
	if err := json.Unmarshal(out.Answer, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// edit decodes a JSON object, lets f change it, and encodes it again.
func edit(t *testing.T, b []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mapStrings applies f to every string inside v.
func mapStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for i := range x {
			x[i] = mapStrings(x[i], f)
		}
	case map[string]any:
		for k := range x {
			x[k] = mapStrings(x[k], f)
		}
	}
	return v
}

type fault struct {
	area, rule string
	answer     func(t *testing.T, caseJSON []byte) any
}

func faults() []fault {
	elided := regexp.MustCompile(`\[(\d+) lines elided`)
	seconds := regexp.MustCompile(`(\d+m) 0(\d)s`)
	return []fault{
		{"context", "the elided line counts the lines left out (context.md §3): one too many", func(t *testing.T, c []byte) any {
			return mapStrings(builtinJSON(t, "context", c), func(s string) string {
				return elided.ReplaceAllStringFunc(s, func(m string) string {
					var n int
					fmt.Sscanf(m, "[%d lines elided", &n)
					return fmt.Sprintf("[%d lines elided", n+1)
				})
			})
		}},
		{"jobs", "durations write the second unit with two digits (jobs.json's about): 1m 5s for 1m 05s", func(t *testing.T, c []byte) any {
			return mapStrings(builtinJSON(t, "jobs", c), func(s string) string { return seconds.ReplaceAllString(s, "$1 $2s") })
		}},
		{"fs_access", "a path under a visible directory reads as missing (filesystem.md, Errors): denied instead", func(t *testing.T, c []byte) any {
			return mapStrings(builtinJSON(t, "fs_access", c), func(s string) string {
				if p, ok := strings.CutPrefix(s, "No such file or directory: "); ok {
					return "Access denied: " + p + " is not open to this session."
				}
				return s
			})
		}},
		{"tools", "a tool's definition is its file's, byte for byte: a description trimmed", func(t *testing.T, c []byte) any {
			v := builtinJSON(t, "tools", c).([]any)
			for _, d := range v {
				m := d.(map[string]any)
				m["description"] = strings.TrimSuffix(m["description"].(string), ".")
				props := m["parameters"].(map[string]any)["properties"].(map[string]any)
				for _, p := range props {
					if p, ok := p.(map[string]any); ok && p["description"] != nil {
						p["description"] = strings.ToLower(p["description"].(string))
					}
				}
			}
			return v
		}},
		{"skills", "a name is looked up ignoring case, with _ and spaces read as - (filesystem.md, Skills): exactly as written",
			func(t *testing.T, c []byte) any {
				var cs struct{ Op, Name string }
				json.Unmarshal(c, &cs)
				if cs.Op == "view" && strings.Trim(cs.Name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
					return map[string]any{"none": true}
				}
				return builtinJSON(t, "skills", c)
			}},
		{"loop", "calls in one step run together, at most parallel.max (loop.json parallel): one more",
			func(t *testing.T, c []byte) any {
				var cs struct {
					Op   string
					Step []loop.Call
				}
				json.Unmarshal(c, &cs)
				if cs.Op != "parallel" {
					return builtinJSON(t, "loop", c)
				}
				lim := loop.DefaultLimits()
				lim.Max++
				return map[string]any{"parallel": map[string]any{"batches": loop.Schedule(cs.Step, lim),
					"next_step": true}}
			}},
		{"prompts", "a prompt file's leading comment is its maintainers', not the model's: kept in the text",
			func(t *testing.T, c []byte) any {
				var cs struct{ Prompt string }
				json.Unmarshal(c, &cs)
				v := builtinJSON(t, "prompts", c).(map[string]any)
				if b, err := spec.ReadFile("prompts/" + cs.Prompt); err == nil {
					s := string(b)
					v["text"] = s[:strings.Index(s, "-->")+3] + "\n" + v["text"].(string)
				}
				return v
			}},
		{"instructions", "instruction files come outermost first (filesystem.md): nearest first", func(t *testing.T, c []byte) any {
			v := builtinJSON(t, "instructions", c).([]any)
			slices.Reverse(v)
			return v
		}},
		{"prefix", "nothing in the system prompt is a clock (context.md §10 rule 2): a new date makes a new prompt", func(t *testing.T, c []byte) any {
			v := builtinJSON(t, "prefix", c).([]any)
			var cs struct {
				Steps []map[string]any `json:"steps"`
			}
			json.Unmarshal(c, &cs)
			extra := 0.0
			for i, s := range cs.Steps {
				if s["op"] == "set" && s["date"] != nil {
					extra++
				}
				if r, ok := v[i].(map[string]any); ok {
					r["system"] = r["system"].(float64) + extra
				}
			}
			return v
		}},
		{"chunk", "overlap characters are repeated (chunk.json's about): none are", func(t *testing.T, c []byte) any {
			return builtinJSON(t, "chunk", edit(t, c, func(m map[string]any) { m["overlap"] = 0 }))
		}},
		{"chunk_tokens", "a text that fits is one piece (filesystem.md), even under 40 characters: dropped", func(t *testing.T, c []byte) any {
			v := builtinJSON(t, "chunk_tokens", c).([]any)
			if len(v) == 1 && len([]rune(v[0].(string))) < 40 {
				return []any{}
			}
			return v
		}},
		{"modules", `a changed module is appended marked supersedes="earlier version" (seeds/004): unmarked`, func(t *testing.T, c []byte) any {
			return mapStrings(builtinJSON(t, "modules", c), func(s string) string {
				return strings.Replace(s, ` supersedes="earlier version"`, "", 1)
			})
		}},
		{"index", "the index is keyed by content hash, a file in many places embedded once (filesystem.md): each path embedded", func(t *testing.T, c []byte) any {
			v := builtinJSON(t, "index", c).(map[string]any)
			held, ok := v["index"].(map[string]any)
			if !ok {
				return v // a refusal: this broken rule has nothing to change
			}
			var paths []string
			for p := range held {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			embedded := []any{}
			for _, p := range paths {
				embedded = append(embedded, held[p])
			}
			v["embedded"] = embedded
			return v
		}},
		{"workspace", "what lands outside the root is an escape (seeds/002): served instead", func(t *testing.T, c []byte) any {
			v := builtinJSON(t, "workspace", c).([]any)
			for _, x := range v {
				if m, ok := x.(map[string]any); ok && m["error"] == "escape" {
					delete(m, "error")
					m["path"] = "/outside"
				}
			}
			return v
		}},
		{"search", "the limit is applied after the view filter (filesystem.md, A search): before it", func(t *testing.T, c []byte) any {
			// With the hidden passages still counted, a limit leaves fewer visible results.
			var cs struct {
				Limit    *int             `json:"limit"`
				Passages []map[string]any `json:"passages"`
				Grants   map[string]any   `json:"grants"`
			}
			json.Unmarshal(c, &cs)
			v := builtinJSON(t, "search", c).(map[string]any)
			rs, ok := v["results"].([]any)
			if !ok || cs.Limit == nil {
				return v
			}
			hidden := 0
			for _, p := range cs.Passages {
				if strings.HasPrefix(p["path"].(string), "/Notes/Private/") && cs.Grants["/Notes/Private"] == "none" {
					hidden++
				}
			}
			keep := max(0, min(len(rs), *cs.Limit-hidden))
			v["results"] = rs[:keep]
			return v
		}},
	}
}

func TestABrokenRuleFailsAScenario(t *testing.T) {
	scs, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, f := range faults() {
		covered[f.area] = true
		t.Run(f.area, func(t *testing.T) {
			target := runner.Funcs{
				Implementation: runner.Implementation{Name: "faulty " + f.area},
				Areas: map[string]func([]byte) ([]byte, error){f.area: func(c []byte) ([]byte, error) {
					return json.Marshal(f.answer(t, c))
				}},
			}
			info, _ := target.Start(context.Background())
			var failed []runner.Result
			ran := 0
			for _, r := range RunScenarios(context.Background(), target, info, scs, runner.Options{}) {
				if r.Case.Area != f.area {
					if r.Verdict != runner.Skip {
						t.Errorf("%s: %s against a target of area %s only; want skip", r.Case.ID, r.Verdict, f.area)
					}
					continue
				}
				ran++
				switch r.Verdict {
				case runner.Pass:
				case runner.Fail:
					failed = append(failed, r)
				default:
					t.Errorf("%s", Failure(r))
				}
			}
			if len(failed) == 0 {
				t.Fatalf("the rule %q is broken and all %d %s scenarios pass", f.rule, ran, f.area)
			}
			msg := Failure(failed[0])
			for _, w := range []string{"FAIL: " + f.area + "/feature:", "features/" + f.area + ".feature:", "  Scenario: ", ": Then ", "differs (-want +got):"} {
				if !strings.Contains(msg, w) {
					t.Errorf("the failure message lacks %q:\n%s", w, msg)
				}
			}
			t.Logf("broken rule: %s — %d of %d scenarios fail; the first:\n%s", f.rule, len(failed), ran, msg)
		})
	}
	for _, a := range Areas() {
		if !covered[a] {
			t.Errorf("area %s has no broken-rule test", a)
		}
	}
}

func caseOf(area string, input []byte) conformance.Case {
	return conformance.Case{Label: conformance.Label{Area: area}, Input: input}
}
