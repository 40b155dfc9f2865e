//go:build race

package runner

// raceEnabled: timings mean nothing under the race detector (it slows processes down unevenly).
const raceEnabled = true
