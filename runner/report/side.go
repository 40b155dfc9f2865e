package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/LLeMbas/lembas-check/runner"
)

// Source is what one side of a diff (--a, --b) names.
type Source int

const (
	// Builtin is the reference, named "builtin".
	Builtin Source = iota
	// Saved is a JSON report saved by `run --format json`.
	Saved
	// Command is an adapter command line.
	Command
)

// SourceOf tells what a side names: "builtin"; a saved report, a regular file whose first
// non-space byte is "{" as a JSON report's is; else an adapter command. A file that is neither a
// report nor a program, or a single word that is no file and no command on PATH, is an error that
// says so.
func SourceOf(spec string) (Source, error) {
	if spec == "builtin" {
		return Builtin, nil
	}
	st, err := os.Stat(spec)
	if err != nil {
		// A word with no space or quote is a file or a program: say which it is not.
		if !strings.ContainsAny(spec, " \t'\"\\") {
			if _, lerr := exec.LookPath(spec); lerr != nil {
				return 0, fmt.Errorf("%s: no such file, and not a command on PATH (a side is builtin, an adapter command, or a report saved by `run --format json`)", spec)
			}
		}
		return Command, nil
	}
	if !st.Mode().IsRegular() {
		return Command, nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", spec, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if t := bytes.TrimSpace(head[:n]); len(t) > 0 && t[0] == '{' {
		return Saved, nil
	}
	if st.Mode().Perm()&0o111 == 0 {
		return 0, fmt.Errorf("%s: neither a JSON report saved by `run --format json` nor a program to run", spec)
	}
	return Command, nil
}

// ReadFile reads a saved JSON report. A report cut short comes back with what it holds and the
// error saying so, for the caller to warn of; any other fault is an error naming the file.
func ReadFile(path string) (*runner.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := ReadJSON(bufio.NewReader(f))
	if err != nil {
		return rep, fmt.Errorf("%s: %v", path, err)
	}
	return rep, nil
}
