package main

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readZip(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], _ = io.ReadAll(rc)
		rc.Close()
		if strings.HasSuffix(f.Name, "/scripts/lembas-check") && f.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable in the wheel (mode %v): pip would install it so", f.Name, f.Mode())
		}
	}
	return files
}

// A wheel pip accepts: its tags in the name and in WHEEL, RECORD naming every file with its
// SHA-256, the binary in the scripts.
func TestWheelLayout(t *testing.T) {
	dir := t.TempDir()
	p := Platforms[0]
	name, err := writeWheel(dir, "1.2.3", p, []byte("a binary"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "lembas_check-1.2.3-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_2_x86_64.whl"; name != want {
		t.Errorf("wheel name %s, want %s", name, want)
	}
	files := readZip(t, filepath.Join(dir, name))
	if got := string(files["lembas_check-1.2.3.data/scripts/lembas-check"]); got != "a binary" {
		t.Errorf("the binary in the wheel is %q", got)
	}
	wheel := string(files["lembas_check-1.2.3.dist-info/WHEEL"])
	for _, tag := range p.WheelTags {
		if !strings.Contains(wheel, "Tag: py3-none-"+tag+"\n") {
			t.Errorf("WHEEL has no tag %s:\n%s", tag, wheel)
		}
	}
	record := string(files["lembas_check-1.2.3.dist-info/RECORD"])
	lines := strings.Split(strings.TrimSuffix(record, "\n"), "\n")
	if len(lines) != len(files) {
		t.Errorf("RECORD has %d lines for %d files:\n%s", len(lines), len(files), record)
	}
	for _, line := range lines {
		f := strings.Split(line, ",")
		if strings.HasSuffix(f[0], "/RECORD") {
			continue
		}
		sum := sha256.Sum256(files[f[0]])
		if want := "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]); f[1] != want {
			t.Errorf("RECORD %s: %s, want %s", f[0], f[1], want)
		}
	}
}

// The main npm package depends on every platform's package, each of which says its os and cpu.
func TestNpmLayout(t *testing.T) {
	dir := t.TempDir()
	main, err := writeNpmMain(dir, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	files := readTgz(t, filepath.Join(dir, main))
	var pj struct {
		Bin                  map[string]string
		OptionalDependencies map[string]string
	}
	if err := json.Unmarshal(files["package/package.json"], &pj); err != nil {
		t.Fatal(err)
	}
	launcher := string(files["package/"+pj.Bin["lembas-check"]])
	for _, p := range Platforms {
		if pj.OptionalDependencies[p.NpmName()] != "1.2.3" {
			t.Errorf("optionalDependencies lack %s@1.2.3: %v", p.NpmName(), pj.OptionalDependencies)
		}
		if !strings.Contains(launcher, `"`+p.NodeOS+" "+p.CPU+`": "`+p.NpmName()+`"`) {
			t.Errorf("the launcher does not map %s %s to %s", p.NodeOS, p.CPU, p.NpmName())
		}
		plat, err := writeNpmPlatform(dir, "1.2.3", p, []byte("bin"))
		if err != nil {
			t.Fatal(err)
		}
		var ppj struct{ OS, CPU []string }
		pf := readTgz(t, filepath.Join(dir, plat))
		if err := json.Unmarshal(pf["package/package.json"], &ppj); err != nil {
			t.Fatal(err)
		}
		if len(ppj.OS) != 1 || ppj.OS[0] != p.NodeOS || len(ppj.CPU) != 1 || ppj.CPU[0] != p.CPU {
			t.Errorf("%s: os %v cpu %v", plat, ppj.OS, ppj.CPU)
		}
		if string(pf["package/bin/"+p.Exe()]) != "bin" {
			t.Errorf("%s holds no bin/%s", plat, p.Exe())
		}
	}
}

func TestSumsFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSums(dir, []string{"b", "a"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, SumsFile))
	want := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a\n" +
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  b\n"
	if string(got) != want {
		t.Errorf("sums:\n%s\nwant:\n%s", got, want)
	}
}

func TestVersionFlag(t *testing.T) {
	for _, v := range []string{"", "1.2", "v1.2.3-rc1", "latest"} {
		var out, errb strings.Builder
		if code := run([]string{"-version", v, "-out", t.TempDir()}, &out, &errb); code != 2 {
			t.Errorf("-version %q: exit %d, want 2", v, code)
		}
		if !strings.Contains(errb.String(), "-version X.Y.Z is required") {
			t.Errorf("-version %q: %q", v, errb.String())
		}
	}
}
