package kitgen

import (
	"os/exec"
	"strings"
	"testing"
)

// In debug mode each kit answers a handler's malformed answer with an error naming the field, as
// the runner would; without it the answer goes to lembas-check as it is.
func TestKitDebugModeNamesTheField(t *testing.T) {
	in := `{"cmd":"hello","protocol":1}` + "\n" + `{"cmd":"run","seq":1,"area":"jobs","case":{"kind":"to_subagent","text":"x"}}` + "\n"
	for _, c := range []struct{ program, dir, debug, plain string }{
		{"node", "../typescript", `import("./index.mjs").then(m => m.serve({jobs: () => ({text: null})}, {implementation: {name: "x", version: "0"}, debug: true}))`,
			`import("./index.mjs").then(m => m.serve({jobs: () => ({text: null})}, {implementation: {name: "x", version: "0"}}))`},
		{"python3", "../python", `from lembas_adapter import serve; serve({"jobs": lambda c: {"text": None}}, {"name": "x", "version": "0"}, debug=True)`,
			`from lembas_adapter import serve; serve({"jobs": lambda c: {"text": None}}, {"name": "x", "version": "0"})`},
	} {
		t.Run(c.program, func(t *testing.T) {
			if _, err := exec.LookPath(c.program); err != nil {
				t.Skipf("%s is not installed: its kit's debug mode is not checked", c.program)
			}
			flag := "-e"
			if c.program == "python3" {
				flag = "-c"
			}
			for code, want := range map[string]string{
				c.debug: `"error": *"the jobs handler's answer does not fit its schema: answer.text: want string, got null"`,
				c.plain: `"answer": *{"text": *null}`,
			} {
				cmd := exec.Command(c.program, flag, code)
				cmd.Dir, cmd.Stdin = c.dir, strings.NewReader(in)
				out, err := cmd.Output()
				last := strings.TrimSpace(string(out))
				last = last[strings.LastIndexByte(last, '\n')+1:]
				if err != nil || !matches(want, last) {
					t.Errorf("%s: %v, answered %s, want %s", code, err, last, want)
				}
			}
		})
	}
}

// matches is want with " *" as optional spaces (Node and Python space JSON differently).
func matches(want, got string) bool {
	for _, part := range strings.Split(want, " *") {
		i := strings.Index(got, part)
		if i < 0 {
			return false
		}
		got = strings.TrimLeft(got[i+len(part):], " ")
	}
	return true
}
