package bench

import (
	"sync"

	"github.com/LLeMbas/lembas-check/replay"
	"github.com/LLeMbas/lembas-check/replay/chat"
)

// scanned is what one pass over a recording finds before the bench's runs: its prompt requests
// (the runs' totals) and the models its requests name (what the simulator serves). The count and
// the simulator's models each read the whole recording; they now share one pass.
type scanned struct {
	once    sync.Once
	prompts int
	models  []string
	err     error // the damage that stopped the pass, with what came before it counted
}

// scan is the recording's pass, made once when Recordings made the recording (else each time).
func (r Recording) scan() (prompts int, models []string, err error) {
	s := r.scanned
	if s == nil {
		s = &scanned{}
	}
	s.once.Do(func() { s.prompts, s.models, s.err = scanRecording(r.Open) })
	return s.prompts, s.models, s.err
}

func scanRecording(open Open) (prompts int, models []string, err error) {
	src, c, err := open()
	if err != nil {
		return 0, nil, err
	}
	defer c.Close()
	seen := map[string]bool{}
	for e, err := range replay.Entries(src) {
		if err != nil {
			return prompts, models, err
		}
		if replay.IsPrompt(e.Exchange) {
			prompts++
		}
		if r, err := chat.Parse(e.Body); err == nil && r.Model != "" && !seen[r.Model] {
			seen[r.Model] = true
			models = append(models, r.Model)
		}
	}
	return prompts, models, nil
}
