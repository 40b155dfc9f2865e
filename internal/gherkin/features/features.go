// Package features holds lembas-check's Gherkin features: one <area>.feature per area, the
// spec's rules written as scenarios a maintainer reads faster than JSON. They are test data, like
// a case file; internal/gherkin runs them against any target.
package features

import "embed"

// FS is every feature file, at its root: context.feature, fs_access.feature, ….
//
//go:embed *.feature
var FS embed.FS
