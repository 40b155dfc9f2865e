package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Platform is one target of the release, with the names each ecosystem gives it.
type Platform struct {
	GOOS, GOARCH string
	NodeOS, CPU  string   // process.platform and process.arch, npm's os and cpu fields
	WheelTags    []string // the wheel's platform tags, most specific first
}

// Platforms are the release's six. The Go binary is static (CGO_ENABLED=0), so one Linux wheel
// serves glibc and musl alike; Go 1.26 runs on macOS 12 and later, so the wheel says 12_0.
var Platforms = []Platform{
	{"linux", "amd64", "linux", "x64", []string{"manylinux_2_17_x86_64", "manylinux2014_x86_64",
		"musllinux_1_2_x86_64"}},
	{"linux", "arm64", "linux", "arm64", []string{"manylinux_2_17_aarch64", "manylinux2014_aarch64",
		"musllinux_1_2_aarch64"}},
	{"darwin", "amd64", "darwin", "x64", []string{"macosx_12_0_x86_64"}},
	{"darwin", "arm64", "darwin", "arm64", []string{"macosx_12_0_arm64"}},
	{"windows", "amd64", "win32", "x64", []string{"win_amd64"}},
	{"windows", "arm64", "win32", "arm64", []string{"win_arm64"}},
}

// HostPlatform is the platform of this machine, if the release has it.
func HostPlatform() (Platform, bool) {
	for _, p := range Platforms {
		if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
			return p, true
		}
	}
	return Platform{}, false
}

// Exe is the binary's file name on the platform.
func (p Platform) Exe() string {
	if p.GOOS == "windows" {
		return "lembas-check.exe"
	}
	return "lembas-check"
}

// Archive is the file name of the platform's archive: zip on Windows, tar.gz elsewhere.
func (p Platform) Archive(version string) string {
	ext := ".tar.gz"
	if p.GOOS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("lembas-check_%s_%s_%s%s", version, p.GOOS, p.GOARCH, ext)
}

// NpmName is the name of the platform's npm package.
func (p Platform) NpmName() string { return "@lembas-check/" + p.NodeOS + "-" + p.CPU }

// Release is one release build.
type Release struct {
	Version   string // X.Y.Z
	Dir       string
	Platforms []Platform
	Log       io.Writer
}

// epoch is every file's time in the archives, so that a release built twice is the same bytes.
var epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// SumsFile is the name of the SHA-256 sums of everything else the release holds.
const SumsFile = "SHA256SUMS"

// Build writes the archives, the npm tarballs, the wheels and the sums file; it returns their
// names in Dir.
func (r Release) Build() ([]string, error) {
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "lembas-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var files []string
	for _, p := range r.Platforms {
		bin := filepath.Join(tmp, p.GOOS+"-"+p.GOARCH, p.Exe())
		if err := r.compile(p, bin); err != nil {
			return nil, err
		}
		name := p.Archive(r.Version)
		if err := writeArchive(filepath.Join(r.Dir, name), p, bin); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files = append(files, name)
	}
	more, err := r.packages(files)
	if err != nil {
		return nil, err
	}
	files = append(files, more...)
	if err := writeSums(r.Dir, files); err != nil {
		return nil, err
	}
	return append(files, SumsFile), nil
}

// packages makes the npm packages and the wheels from the archives just written.
func (r Release) packages(archives []string) ([]string, error) {
	var files []string
	for i, p := range r.Platforms {
		bin, err := readArchiveBinary(filepath.Join(r.Dir, archives[i]), p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", archives[i], err)
		}
		npm, err := writeNpmPlatform(r.Dir, r.Version, p, bin)
		if err != nil {
			return nil, err
		}
		whl, err := writeWheel(r.Dir, r.Version, p, bin)
		if err != nil {
			return nil, err
		}
		files = append(files, npm, whl)
	}
	main, err := writeNpmMain(r.Dir, r.Version)
	if err != nil {
		return nil, err
	}
	return append(files, main), nil
}

// compile builds cmd/lembas-check for p: static, paths trimmed, the version stamped in.
func (r Release) compile(p Platform, out string) error {
	fmt.Fprintf(r.Log, "release: go build %s/%s\n", p.GOOS, p.GOARCH)
	ldflags := "-s -w -X github.com/LLeMbas/lembas-check/runner.releaseVersion=v" + r.Version
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, "./cmd/lembas-check")
	cmd.Dir = moduleRoot()
	cmd.Env = append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = r.Log, r.Log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s/%s: %w (its output is above)", p.GOOS, p.GOARCH, err)
	}
	return nil
}

// moduleRoot is the directory of go.mod, found from the working directory up, so the program runs
// from anywhere in the checkout (go test runs it in cmd/release).
func moduleRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// writeSums writes SumsFile in the format `sha256sum -c` reads: hex, two spaces, the name.
func writeSums(dir string, files []string) error {
	sorted := append([]string(nil), files...)
	sort.Strings(sorted)
	var b strings.Builder
	for _, f := range sorted {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), f)
	}
	return os.WriteFile(filepath.Join(dir, SumsFile), []byte(b.String()), 0o644)
}
