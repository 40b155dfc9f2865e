package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The release installed as its users install it, with no Go on PATH: the npm tarballs into a
// fresh Node project (npx), the wheel into a fresh venv (pip install --no-index); each runs its
// language's example adapter and gives the verdicts the Go-built binary gives.
func TestInstalledAsUsers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the release for this machine: not with -short")
	}
	dist := t.TempDir()
	var out, log bytes.Buffer
	if code := run([]string{"-version", "0.9.1", "-out", dist, "-host"}, &out, &log); code != 0 {
		t.Fatalf("release -host: exit %d\n%s", code, log.String())
	}
	root := moduleRoot()
	ref := filepath.Join(t.TempDir(), "lembas-check")
	if b, err := exec.Command("go", "build", "-C", root, "-o", ref, "./cmd/lembas-check").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	noGo := pathWithout("go")
	ts := "node " + filepath.Join(root, "adapters/typescript/example/adapter.mjs")
	py := "python3 " + filepath.Join(root, "adapters/python/example/adapter.py")
	t.Run("npm", func(t *testing.T) {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm is not installed: the npm package is not checked")
		}
		p, _ := HostPlatform()
		proj := t.TempDir()
		must(t, os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"user","version":"1.0.0","private":true}`), 0o644))
		sh(t, proj, noGo, "npm", "install", "--offline", "--no-audit", "--no-fund",
			filepath.Join(dist, tarballName(p.NpmName(), "0.9.1")), filepath.Join(dist, tarballName("lembas-check", "0.9.1")))
		if v := sh(t, proj, noGo, "npx", "lembas-check", "version"); !strings.HasPrefix(v, "lembas-check v0.9.1 ") {
			t.Errorf("npx lembas-check version: %q, want the stamped v0.9.1", v)
		}
		sameVerdicts(t, verdicts(t, proj, noGo, ts, "npx", "lembas-check"), verdicts(t, proj, noGo, ts, ref))
	})
	t.Run("wheel", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("a venv's programs are in Scripts on Windows: the wheel is checked on Linux and macOS")
		}
		venv := filepath.Join(t.TempDir(), "venv")
		if b, err := exec.Command("python3", "-m", "venv", venv).CombinedOutput(); err != nil {
			t.Skipf("python3 -m venv is not available (%v: %s): the wheel is not checked", err, b)
		}
		bin := filepath.Join(venv, "bin")
		p, _ := HostPlatform()
		sh(t, venv, noGo, filepath.Join(bin, "pip"), "install", "--no-index", filepath.Join(dist, wheelName("0.9.1", p)))
		path := bin + string(os.PathListSeparator) + noGo
		if v := sh(t, venv, path, "lembas-check", "version"); !strings.HasPrefix(v, "lembas-check v0.9.1 ") {
			t.Errorf("lembas-check version from the venv: %q", v)
		}
		sameVerdicts(t, verdicts(t, venv, path, py, filepath.Join(bin, "python"), "-m", "lembas_check"), verdicts(t, venv, path, py, ref))
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// pathWithout is $PATH less the directories that hold the program name.
func pathWithout(name string) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// sh runs a program in dir with PATH set to path; its output, or the test fails with it.
func sh(t *testing.T, dir, path string, args ...string) string {
	t.Helper()
	prog := args[0]
	if !strings.ContainsRune(prog, os.PathSeparator) {
		p, err := lookPathIn(prog, path)
		if err != nil {
			t.Fatalf("%s is not on the test's PATH: %v", prog, err)
		}
		prog = p
	}
	cmd := exec.Command(prog, args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path, "npm_config_cache="+filepath.Join(dir, ".npm-cache"))
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return string(b)
}

func lookPathIn(name, path string) (string, error) {
	old := os.Getenv("PATH")
	defer os.Setenv("PATH", old)
	os.Setenv("PATH", path)
	return exec.LookPath(name)
}

// verdicts runs `lembas-check run --impl impl --format json` as prog and reads id → verdict.
func verdicts(t *testing.T, dir, path, impl string, prog ...string) map[string]string {
	t.Helper()
	out := sh(t, dir, path, append(prog, "run", "--impl", impl, "--format", "json")...)
	got := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct{ Type, ID, Verdict string }
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "case" {
			got[line.ID] = line.Verdict
		}
	}
	if len(got) == 0 {
		t.Fatalf("%v run: no case in its JSON report:\n%s", prog, out)
	}
	return got
}

func sameVerdicts(t *testing.T, got, want map[string]string) {
	t.Helper()
	pass := 0
	for id, v := range want {
		if got[id] != v {
			t.Errorf("%s: %q installed, %q Go-built", id, got[id], v)
		}
		if v == "pass" {
			pass++
		}
	}
	if len(got) != len(want) || pass == 0 {
		t.Errorf("%d cases installed, %d Go-built, %d passed", len(got), len(want), pass)
	}
}
