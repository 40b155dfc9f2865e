package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed templates
var templates embed.FS

var tmpl = template.Must(template.ParseFS(templates, "templates/*.tmpl"))

const repoURL = "https://github.com/LLeMbas/lembas-check"

// execute runs the named template on data.
func execute(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// npmTarball writes a package as `npm pack` does: a gzipped tar of package/<file>.
func npmTarball(dir, name string, files []entry) (string, error) {
	for i := range files {
		files[i].Name = "package/" + files[i].Name
	}
	data, err := tgzBytes(files)
	if err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(dir, name), data, 0o644)
}

// tarballName is the file name npm pack gives a package: @scope/name becomes scope-name.
func tarballName(pkg, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pkg, "@"), "/", "-") + "-" + version + ".tgz"
}

// packageJSON is a package.json, indented as npm writes it.
func packageJSON(fields map[string]any) ([]byte, error) {
	b, err := json.MarshalIndent(fields, "", "  ")
	return append(b, '\n'), err
}

// writeNpmPlatform writes the platform's package: the binary, and os and cpu fields, so that npm
// installs it only where it runs.
func writeNpmPlatform(dir, version string, p Platform, bin []byte) (string, error) {
	pj, err := packageJSON(map[string]any{
		"name":    p.NpmName(),
		"version": version,
		"description": "The lembas-check binary " +
			"for " + p.NodeOS + " " + p.CPU + "; installed by the lembas-check package.",
		"license":         "UNLICENSED",
		"repository":      map[string]string{"type": "git", "url": "git+" + repoURL + ".git"},
		"os":              []string{p.NodeOS},
		"cpu":             []string{p.CPU},
		"files":           []string{"bin"},
		"preferUnplugged": true,
	})
	if err != nil {
		return "", err
	}
	readme, err := execute("platform-README.md.tmpl", map[string]string{"Name": p.NpmName(), "Version": version})
	if err != nil {
		return "", err
	}
	files := []entry{{"package.json", pj, 0o644}, {"README.md", readme, 0o644}, {"bin/" + p.Exe(), bin, 0o755}}
	return npmTarball(dir, tarballName(p.NpmName(), version), files)
}

// launcherData is what the launcher's template knows: the packages by platform and arch.
type launcherData struct {
	Version  string
	Packages []Platform
	Repo     string
}

// writeNpmMain writes the lembas-check package: the launcher, and every platform's package as an
// optional dependency (npm skips those whose os and cpu do not match).
func writeNpmMain(dir, version string) (string, error) {
	opt := map[string]string{}
	for _, p := range Platforms {
		opt[p.NpmName()] = version
	}
	pj, err := packageJSON(map[string]any{
		"name":    "lembas-check",
		"version": version,
		"description": "Checks implementations of the LLeMbas harness spec 3.1.0: conformance cases, diff, " +
			"the prefix audit.",
		"license":              "UNLICENSED",
		"repository":           map[string]string{"type": "git", "url": "git+" + repoURL + ".git"},
		"bin":                  map[string]string{"lembas-check": "bin/lembas-check.js"},
		"files":                []string{"bin"},
		"engines":              map[string]string{"node": ">=18"},
		"optionalDependencies": opt,
	})
	if err != nil {
		return "", err
	}
	launcher, err := execute("lembas-check.js.tmpl", launcherData{version, Platforms, repoURL})
	if err != nil {
		return "", err
	}
	readme, err := execute("README.md.tmpl", map[string]string{"Version": version, "Repo": repoURL})
	if err != nil {
		return "", err
	}
	files := []entry{{"package.json", pj, 0o644}, {"README.md", readme, 0o644}, {"bin/lembas-check.js", launcher,
		0o755}}
	return npmTarball(dir, tarballName("lembas-check", version), files)
}
