package runner

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/LLeMbas/lembas-check/conformance"
)

// SuiteOptions say which suites a run loads.
type SuiteOptions struct {
	// Dirs are extra suites (folders of <area>.json), after the embedded ones.
	Dirs []string
	// NoEmbedded leaves out the vendored spec's cases and lembas-check's own.
	NoEmbedded bool
}

// LoadCases loads the suites: the embedded ones from their table (conformance.Embedded, read
// when lembas-check was built), then the folders, area by area (each area's cases in suite
// order), so that a report's results lie together by area (Report.ByArea copies none). An
// unreadable folder is an error; a file of an unknown area, a file that is not JSON or a
// malformed case is a case with Broken set (naming the file, line, case and field), whose verdict
// is malformed while the other cases run.
func LoadCases(o SuiteOptions) ([]conformance.Case, error) {
	var embedded []conformance.Case
	if !o.NoEmbedded {
		embedded = conformance.Embedded()
	}
	var suites []conformance.Suite
	for _, d := range o.Dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, fmt.Errorf("--suite %s: %v", d, err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("--suite %s: not a directory (a suite is a folder of <area>.json files)", d)
		}
		suites = append(suites, conformance.Suite{Name: d, FS: os.DirFS(d)})
	}
	if o.NoEmbedded && len(suites) == 0 {
		return nil, fmt.Errorf("no suites: --no-embedded needs at least one --suite DIR")
	}
	cases, err := conformance.Keep(embedded, suites, conformance.All())
	slices.SortStableFunc(cases, func(a, b conformance.Case) int { return strings.Compare(a.Area, b.Area) })
	return cases, err
}
