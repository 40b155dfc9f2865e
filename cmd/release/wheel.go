package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// wheelName is the wheel's file name: name, version, python tag, ABI tag, the platform tags
// joined by dots (PEP 425's compressed tag set).
func wheelName(version string, p Platform) string {
	return fmt.Sprintf("lembas_check-%s-py3-none-%s.whl", version, strings.Join(p.WheelTags, "."))
}

// writeWheel writes the platform's wheel in ruff's layout: the binary in the wheel's scripts
// (pip puts it on PATH as is, no Python in between) and a tiny package whose __main__ finds it
// (`python -m lembas_check`). RECORD holds each file's SHA-256, as pip checks it.
func writeWheel(dir, version string, p Platform, bin []byte) (string, error) {
	data := map[string]any{"Version": version, "Platform": p, "Repo": repoURL}
	var files []entry
	for _, t := range []struct{ tmpl, name string }{
		{"init.py.tmpl", "lembas_check/__init__.py"},
		{"main.py.tmpl", "lembas_check/__main__.py"},
		{"METADATA.tmpl", "lembas_check-" + version + ".dist-info/METADATA"},
		{"WHEEL.tmpl", "lembas_check-" + version + ".dist-info/WHEEL"},
	} {
		b, err := execute(t.tmpl, data)
		if err != nil {
			return "", err
		}
		files = append(files, entry{t.name, b, 0o644})
	}
	files = append(files, entry{"lembas_check-" + version + ".data/scripts/" + p.Exe(), bin, 0o755})
	record := "lembas_check-" + version + ".dist-info/RECORD"
	files = append(files, entry{record, wheelRecord(files, record), 0o644})
	out, err := zipBytes(files)
	if err != nil {
		return "", err
	}
	name := wheelName(version, p)
	return name, os.WriteFile(filepath.Join(dir, name), out, 0o644)
}

// wheelRecord is the RECORD of files (PEP 376/427): path, sha256= urlsafe base64 without
// padding, size; RECORD itself last, with neither.
func wheelRecord(files []entry, record string) []byte {
	var b strings.Builder
	for _, f := range files {
		sum := sha256.Sum256(f.Data)
		fmt.Fprintf(&b, "%s,sha256=%s,%d\n", f.Name, base64.RawURLEncoding.EncodeToString(sum[:]), len(f.Data))
	}
	fmt.Fprintf(&b, "%s,,\n", record)
	return []byte(b.String())
}
