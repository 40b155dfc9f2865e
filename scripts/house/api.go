package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const module = "github.com/LLeMbas/lembas-check"

// checkAPI compares the file at path with the public surface the tree has, or writes it; it
// returns 1 when they differ.
func checkAPI(path string, write bool) (int, error) {
	want, err := surface(".")
	if err != nil {
		return 0, err
	}
	if write {
		return 0, os.WriteFile(path, want, 0o644)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if !bytes.Equal(got, want) {
		fmt.Printf("%s is not the tree's Go API: run `go run ./scripts/house -write` and review the change\n", path)
		return 1, nil
	}
	fmt.Printf("ok\t%s lists the Go API\n", path)
	return 0, nil
}

// public says whether a directory holds a package others may import: not internal, no command.
func public(dir string) bool {
	for _, part := range strings.Split(filepath.ToSlash(dir), "/") {
		if part == "internal" || part == "cmd" || part == "scripts" || part == "testdata" ||
			part == "adapters" || part == "node_modules" || strings.HasPrefix(part, ".") && part != "." {
			return false
		}
	}
	return true
}

// surface is docs/api.md as the tree makes it: per public package, its exported names.
func surface(root string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# The Go API\n\n")
	b.WriteString(
		"Every exported name of lembas-check's public packages, made by `go run ./scripts/house -write` and\n",
	)
	b.WriteString("checked by `.ci/run`, so a change to the API shows in review. Everything under `internal/` is how\n")
	b.WriteString("the command works and may change in any commit. docs/design.md says what each package is for.\n")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if !public(p) {
			return filepath.SkipDir
		}
		return writePackage(&b, p)
	})
	return b.Bytes(), err
}

func writePackage(b *bytes.Buffer, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	if len(files) == 0 || files[0].Name.Name == "main" {
		return nil
	}
	d, err := doc.NewFromFiles(fset, files, module+"/"+filepath.ToSlash(dir))
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\n## %s\n\n", filepath.ToSlash(dir))
	for _, line := range names(d) {
		fmt.Fprintf(b, "- %s\n", line)
	}
	return nil
}

// names lists a package's exported names as go doc groups them: constants, variables,
// functions, then each type with its constructors and methods.
func names(d *doc.Package) []string {
	var out []string
	values := func(kind string, vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				if ast.IsExported(n) {
					out = append(out, kind+" `"+n+"`")
				}
			}
		}
	}
	values("const", d.Consts)
	values("var", d.Vars)
	for _, f := range d.Funcs {
		out = append(out, "func `"+f.Name+"`")
	}
	for _, t := range d.Types {
		out = append(out, "type `"+t.Name+"`")
		values("const", t.Consts)
		values("var", t.Vars)
		for _, f := range t.Funcs {
			out = append(out, "func `"+f.Name+"`")
		}
		var ms []string
		for _, m := range t.Methods {
			ms = append(ms, "method `"+t.Name+"."+m.Name+"`")
		}
		sort.Strings(ms)
		out = append(out, ms...)
	}
	return out
}
