package kitgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tool finds a type checker from npm: in $LEMBAS_KIT_TOOLS/node_modules/.bin (where .ci/run
// installs typescript and pyright), else on PATH; the test skips, saying so, without it.
func tool(t *testing.T, name string) string {
	t.Helper()
	if dir := os.Getenv("LEMBAS_KIT_TOOLS"); dir != "" {
		p := filepath.Join(dir, "node_modules", ".bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (npm install typescript pyright, then LEMBAS_KIT_TOOLS=DIR): the kit's types are not checked", name)
	}
	return p
}

// A handler of the right type passes the language's type checker and one returning a number for
// the jobs answer's text fails it, the field named: the kits' types hold.
func TestKitTypesCatchAWrongAnswer(t *testing.T) {
	for _, c := range []struct {
		lang, tool, dir string
		right, wrong    []string
		says            string
	}{
		{"typescript", "tsc", "../typescript", []string{"-p", "test/tsconfig.json"}, []string{"-p", "test/tsconfig.wrong.json"},
			"Type 'number' is not assignable to type 'string'"},
		{"python", "pyright", "../python", []string{"test/right.py", "lembas_adapter", "example"}, []string{"test/wrong.py"},
			`"int" is not assignable to "str"`},
	} {
		t.Run(c.lang, func(t *testing.T) {
			bin := tool(t, c.tool)
			run := func(args []string) (string, error) {
				cmd := exec.Command(bin, args...)
				cmd.Dir = c.dir
				b, err := cmd.CombinedOutput()
				return string(b), err
			}
			if out, err := run(c.right); err != nil {
				t.Errorf("%s on the right handlers and the example: %v\n%s", c.tool, err, out)
			}
			out, err := run(c.wrong)
			if err == nil || !strings.Contains(out, c.says) {
				t.Errorf("%s on a wrongly typed jobs handler: %v, want a failure saying %s\n%s", c.tool, err, c.says, out)
			}
		})
	}
}
