// Package cmdline splits a command given as one string — the value of --impl, --a, --b, an
// agent's command — into a program and its arguments, the way the OS's own command line would.
//
// On Unix it is split as a POSIX shell splits a simple command's words (mvdan.cc/sh): 'single'
// and "double" quotes, backslashes, $VAR and ${VAR} (also ${VAR:-default}) from lembas-check's
// own environment — the one the command inherits — and ~ for $HOME. An unset variable is an
// error, as under `set -u`. No shell runs the command: globs are not expanded, and command
// substitution, pipes, redirections, `;` and `&&` are errors that say to start a shell
// (`sh -c '…'`) instead.
//
// On Windows it is split as Windows programs split their command line (the rules of
// CommandLineToArgvW): spaces separate words, "double quotes" group them, a backslash is
// literal unless it comes before a double quote — so `node C:\x\a.mjs` keeps its path — and
// nothing is expanded (cmd.exe or PowerShell already expanded %VAR% or $env:VAR).
package cmdline

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Split splits command into words by the rules of the OS lembas-check runs on. Blank gives none.
func Split(command string) ([]string, error) {
	if runtime.GOOS == "windows" {
		return Windows(command), nil
	}
	return POSIX(command, os.Environ())
}

// POSIX splits command as a POSIX shell does, expanding variables from env ("NAME=VALUE" pairs).
func POSIX(command string, env []string) ([]string, error) {
	if !utf8.ValidString(command) {
		return nil, fmt.Errorf("command %q is not valid UTF-8", command)
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	var words []*syntax.Word
	for w, err := range p.WordsSeq(strings.NewReader(command)) {
		if err != nil {
			return nil, fmt.Errorf("command %q: %v. It is split as a shell splits words, but no shell runs it: for "+
				"pipes, redirections, ';' or '&&' start one (sh -c '…')", command, err)
		}
		words = append(words, w)
	}
	if len(words) > 0 && assignment(words[0]) {
		return nil, fmt.Errorf("command %q: it starts with NAME=VALUE, which a shell would take for a variable to "+
			"set; no shell runs the command: set it with env (env NAME=VALUE program …)", command)
	}
	cfg := &expand.Config{Env: expand.ListEnviron(env...), NoUnset: true}
	fields, err := expand.Fields(cfg, words...)
	if err != nil {
		var unset expand.UnsetParameterError
		var subst expand.UnexpectedCommandError
		switch {
		case errors.As(err, &unset):
			return nil, fmt.Errorf("command %q: $%s is not set in lembas-check's environment: set it, give a default "+
				"(${%[2]s:-…}), or put the word in single quotes to keep the $", command, unset.Node.Param.Value)
		case errors.As(err, &subst):
			return nil, fmt.Errorf("command %q: command substitution is not run (no shell runs the command): start "+
				"one (sh -c '…')", command)
		}
		return nil, fmt.Errorf("command %q: %v", command, err)
	}
	return fields, nil
}

// assignment says whether w starts with an unquoted NAME=, as in FOO=1 cmd.
func assignment(w *syntax.Word) bool {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	name, _, found := strings.Cut(lit.Value, "=")
	return found && syntax.ValidName(name)
}

// Windows splits command as CommandLineToArgvW does (and the C runtime since 2008): whitespace
// separates words outside double quotes; 2n backslashes before a quote are n backslashes and the
// quote opens or closes; 2n+1 are n and a literal quote; "" inside quotes is a literal quote;
// any other backslash is itself.
func Windows(command string) []string {
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(command) && command[i] == '\\' {
				n++
				i++
			}
			if i < len(command) && command[i] == '"' {
				word.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					word.WriteByte('"')
				} else {
					quoted = !quoted
				}
			} else {
				word.WriteString(strings.Repeat(`\`, n))
				i--
			}
			inWord = true
		case c == '"':
			if quoted && i+1 < len(command) && command[i+1] == '"' {
				word.WriteByte('"')
				i++
			} else {
				quoted = !quoted
			}
			inWord = true
		case (c == ' ' || c == '\t' || c == '\n' || c == '\r') && !quoted:
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}
