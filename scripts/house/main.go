// Command house checks the house rules a reader meets in the tree, and .ci/run runs it:
//
//   - no function longer than a reader holds in their head: over 100 lines never, over 80 only
//     with its reason in kept.txt;
//
//   - no line of code wider than 120 columns;
//
//   - the Go API is what docs/api.md lists: every exported name of a package outside internal/,
//     cmd/ and scripts/ (go run ./scripts/house -write makes the file again after a change).
//
//     go run ./scripts/house [-write]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const (
	hard = 100 // never
	soft = 80  // only with a reason in kept.txt
)

type long struct {
	where, name string
	lines       int
}

func main() {
	write := flag.Bool("write", false, "write docs/api.md from the tree instead of checking it")
	flag.Parse()
	bad, err := checkLengths()
	if err == nil {
		var n int
		n, err = checkWidths(".")
		bad += n
	}
	if err == nil {
		var n int
		n, err = checkAPI("docs/api.md", *write)
		bad += n
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "house:", err)
		os.Exit(2)
	}
	if bad > 0 {
		os.Exit(1)
	}
}

// checkLengths prints each function too long for the house and returns how many.
func checkLengths() (int, error) {
	kept, err := readKept("scripts/house/kept.txt")
	if err != nil {
		return 0, err
	}
	found, err := scan(".")
	if err != nil {
		return 0, err
	}
	bad := 0
	for _, l := range found {
		key := l.where + " " + l.name
		switch {
		case l.lines > hard:
			fmt.Printf("%s: %s is %d lines (at most %d)\n", l.where, l.name, l.lines, hard)
			bad++
		case kept[key] == "":
			fmt.Printf("%s: %s is %d lines: split it, or say why it stays in scripts/house/kept.txt\n",
				l.where, l.name, l.lines)
			bad++
		}
	}
	if bad == 0 {
		fmt.Printf("ok\t%d functions over %d lines, each with its reason in kept.txt\n", len(found), soft)
	}
	return bad, nil
}

// scan lists the non-test, non-generated functions over soft lines, by file and name.
func scan(root string) ([]long, error) {
	var out []long
	fset := token.NewFileSet()
	err := eachGoFile(root, func(p string, src []byte) error {
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			name := declName(decl)
			ast.Inspect(decl, func(n ast.Node) bool {
				if n == nil {
					return false
				}
				lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
				switch n.(type) {
				case *ast.FuncDecl:
					if lines > soft {
						out = append(out, long{filepath.ToSlash(p), name, lines})
					}
				case *ast.FuncLit:
					if lines > soft {
						out = append(out, long{filepath.ToSlash(p), name + ".func", lines})
					}
				}
				return true
			})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].where+out[i].name < out[j].where+out[j].name })
	return out, err
}

// declName names a function by its receiver and name, a package-level value by its first name.
func declName(decl ast.Decl) string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		return funcName(d)
	case *ast.GenDecl:
		if len(d.Specs) > 0 {
			if v, ok := d.Specs[0].(*ast.ValueSpec); ok && len(v.Names) > 0 {
				return v.Names[0].Name
			}
		}
	}
	return "?"
}

func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if g, ok := t.(*ast.IndexExpr); ok {
		t = g.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// readKept reads "path func reason" lines; # starts a comment.
func readKept(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	kept := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " ", 3)
		if len(parts) < 3 {
			return nil, fmt.Errorf("%s:%d: want \"path function reason\"", path, n)
		}
		kept[parts[0]+" "+parts[1]] = parts[2]
	}
	return kept, sc.Err()
}
