package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// width is the widest line of code the house keeps, a tab counted as four columns (gofmt's
// tabs as an editor shows them): a reader's screen holds two files side by side at this width.
const width = 120

// checkWidths prints each non-test, non-generated line of Go wider than width and returns how
// many. Test files are left out: their tables of wire bytes read best one exchange to a line.
func checkWidths(root string) (int, error) {
	bad := 0
	err := eachGoFile(root, func(p string, src []byte) error {
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(nil, len(src)+1)
		for n := 1; sc.Scan(); n++ {
			if w := columns(sc.Text()); w > width {
				fmt.Printf("%s:%d: %d columns (at most %d): break the line\n", filepath.ToSlash(p), n, w, width)
				bad++
			}
		}
		return sc.Err()
	})
	if err == nil && bad == 0 {
		fmt.Printf("ok\tno line of code over %d columns\n", width)
	}
	return bad, err
}

// eachGoFile calls fn with each non-test, non-generated Go file below root and its bytes, the
// dot directories and node_modules left out: the files both house rules read.
func eachGoFile(root string, fn func(path string, src []byte) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		return fn(p, src)
	})
}

// columns is a line's width on screen: a tab is four columns, every other rune one.
func columns(line string) int {
	w := 0
	for _, r := range line {
		if r == '\t' {
			w += 4 - w%4
		} else {
			w++
		}
	}
	return w
}
