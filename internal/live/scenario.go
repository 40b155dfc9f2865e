package live

import (
	"embed"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

//go:embed scenarios/*.yaml
var builtin embed.FS

// Scenario is a session to drive: steps in order, with the clock where it starts.
type Scenario struct {
	Name, About string
	// File is where it came from, for messages.
	File string
	// Clock, when set, is the time the agent's clock starts at.
	Clock *time.Time
	Steps []Step
}

// Step is one thing the person (or the runner) does. Exactly one field is set.
type Step struct {
	Line int
	// Prompt: the person's words, sent as a turn.
	Prompt string
	// SetClock or MoveClock: the agent's clock is set to a time, or moved by a duration, while
	// it runs.
	SetClock  *time.Time
	MoveClock time.Duration
	// Mode: the person changes the permission mode.
	Mode string
	// Model: the person moves the session to another model.
	Model string
	// Compact: the session is compacted, where the agent offers it.
	Compact bool
	// Wait: nothing happens for a while.
	Wait time.Duration
}

// Kind names what a step does.
func (s Step) Kind() string {
	switch {
	case s.Prompt != "":
		return "prompt"
	case s.SetClock != nil || s.MoveClock != 0:
		return "clock"
	case s.Mode != "":
		return "mode"
	case s.Model != "":
		return "model"
	case s.Compact:
		return "compact"
	}
	return "wait"
}

func (s Step) String() string {
	switch s.Kind() {
	case "prompt":
		return fmt.Sprintf("prompt %q", s.Prompt)
	case "clock":
		if s.SetClock != nil {
			return "clock set to " + s.SetClock.Format(time.RFC3339)
		}
		return fmt.Sprintf("clock moved by %v", s.MoveClock)
	case "mode":
		return "mode " + s.Mode
	case "model":
		return "model " + s.Model
	case "compact":
		return "compaction"
	}
	return fmt.Sprintf("wait %v", s.Wait)
}

// Scenarios lists the built-in scenarios, sorted.
func Scenarios() []string {
	es, _ := builtin.ReadDir("scenarios")
	var out []string
	for _, e := range es {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// LoadScenario is a built-in scenario by name, or a scenario file by its path.
func LoadScenario(name string) (*Scenario, error) {
	if b, err := builtin.ReadFile("scenarios/" + name + ".yaml"); err == nil {
		return ParseScenario(b, "scenarios/"+name+".yaml")
	}
	b, err := os.ReadFile(name)
	if err != nil {
		if os.IsNotExist(err) && !strings.ContainsAny(name, "/.") {
			return nil, fmt.Errorf("no scenario %q (built in: %s; or give a file)", name, strings.Join(Scenarios(),
				", "))
		}
		return nil, err
	}
	return ParseScenario(b, name)
}

// ParseScenario reads a scenario strictly: an unknown key, a step that says nothing or two
// things, a time that does not read — each is an error naming the file and the line.
func ParseScenario(b []byte, file string) (*Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	errf := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", file, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: a scenario is a mapping with name, steps (docs/live.md)", file)
	}
	top := root.Content[0]
	sc := &Scenario{File: file}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "name":
			sc.Name = v.Value
		case "about":
			sc.About = v.Value
		case "clock":
			t, err := time.Parse(time.RFC3339, v.Value)
			if err != nil {
				return nil, errf(v, "clock: %q is not a time such as 2026-11-30T23:58:00Z", v.Value)
			}
			sc.Clock = &t
		case "steps":
			if v.Kind != yaml.SequenceNode {
				return nil, errf(v, "steps: want a list")
			}
			for _, n := range v.Content {
				s, err := parseStep(n, errf)
				if err != nil {
					return nil, err
				}
				sc.Steps = append(sc.Steps, s)
			}
		default:
			return nil, errf(k, "unknown key %q (known: name, about, clock, steps)", k.Value)
		}
	}
	if sc.Name == "" {
		return nil, fmt.Errorf("%s: the scenario has no name", file)
	}
	prompts := 0
	for _, s := range sc.Steps {
		if s.Kind() == "prompt" {
			prompts++
		}
	}
	if prompts == 0 {
		return nil, fmt.Errorf("%s: the scenario has no prompt: nothing would reach the model", file)
	}
	if sc.Clock == nil {
		for _, s := range sc.Steps {
			if s.SetClock == nil && s.MoveClock != 0 {
				return nil, fmt.Errorf("%s:%d: the clock is moved but the scenario sets no clock: add clock: TIME at "+
					"the top", file, s.Line)
			}
		}
	}
	return sc, nil
}

func parseStep(n *yaml.Node, errf func(*yaml.Node, string, ...any) error) (Step, error) {
	s := Step{Line: n.Line}
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return s, errf(n,
			"a step is one of prompt: TEXT, clock: TIME or +DURATION, mode: NAME, model: NAME, compact: true, wait: "+
				"DURATION")
	}
	k, v := n.Content[0], n.Content[1]
	switch k.Value {
	case "prompt":
		if strings.TrimSpace(v.Value) == "" {
			return s, errf(v, "prompt: say something")
		}
		s.Prompt = v.Value
	case "clock":
		if strings.HasPrefix(v.Value, "+") || strings.HasPrefix(v.Value, "-") {
			d, err := time.ParseDuration(v.Value)
			if err != nil || d == 0 {
				return s, errf(v, "clock: %q is not a move such as +2m", v.Value)
			}
			s.MoveClock = d
		} else {
			t, err := time.Parse(time.RFC3339, v.Value)
			if err != nil {
				return s, errf(v, "clock: %q is neither a time such as 2026-12-01T00:00:30Z nor a move such as +2m",
					v.Value)
			}
			s.SetClock = &t
		}
	case "mode", "model":
		if v.Value == "" {
			return s, errf(v, "%s: name it", k.Value)
		}
		if k.Value == "mode" {
			s.Mode = v.Value
		} else {
			s.Model = v.Value
		}
	case "compact":
		if v.Value != "true" {
			return s, errf(v, "compact: want true")
		}
		s.Compact = true
	case "wait":
		d, err := time.ParseDuration(v.Value)
		if err != nil || d <= 0 {
			return s, errf(v, "wait: %q is not a duration such as 2s", v.Value)
		}
		s.Wait = d
	default:
		return s, errf(k, "unknown step %q (known: prompt, clock, mode, model, compact, wait)", k.Value)
	}
	return s, nil
}
