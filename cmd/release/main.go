// Command release builds lembas-check's release from this checkout, with no network and no tool
// but Go: an archive per platform and a SHA-256 sums file, then from those archives the npm
// packages (the esbuild layout: a launcher package whose optionalDependencies are one package per
// platform) and one Python wheel per platform (the ruff layout: the binary in the wheel's scripts,
// a tiny `python -m lembas_check` launcher). docs/ci.md says how users install them.
//
//	go run ./cmd/release -version 0.1.0 -out dist            # every platform
//	go run ./cmd/release -version 0.1.0 -out dist -host      # this machine's only (CI's check)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// semver is the versions a release takes: npm's semver and PEP 440 both read X.Y.Z the same way.
var semver = regexp.MustCompile(`^v?([0-9]+\.[0-9]+\.[0-9]+)$`)

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "",
		"the release `VERSION`, X.Y.Z (a leading v is dropped); stamped into `lembas-check version`")
	out := fs.String("out", "dist",
		"write the release into `DIR` (made if missing; files of the same names are replaced)")
	host := fs.Bool("host", false,
		"build this machine's platform only ("+runtime.GOOS+"/"+runtime.GOARCH+"), not all six")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	m := semver.FindStringSubmatch(*version)
	if m == nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "release: -version X.Y.Z is required (got %q); no arguments besides flags\n", *version)
		return 2
	}
	plats := Platforms
	if *host {
		p, ok := HostPlatform()
		if !ok {
			fmt.Fprintf(stderr, "release: no release platform is %s/%s; build without -host\n", runtime.GOOS,
				runtime.GOARCH)
			return 2
		}
		plats = []Platform{p}
	}
	r := Release{Version: m[1], Dir: *out, Platforms: plats, Log: stderr}
	files, err := r.Build()
	if err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 2
	}
	for _, f := range files {
		fmt.Fprintln(stdout, filepath.Join(*out, f))
	}
	return 0
}
