package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"context"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/runner"
	"github.com/LLeMbas/lembas-check/runner/selection"
)

// caseFlags are the flags that choose cases, shared by run, list, show, diff and smoke.
type caseFlags struct {
	suites     repeatFlag
	noEmbedded bool
	areas      listFlag
	run        string
}

func addCaseFlags(fs *flag.FlagSet) *caseFlags {
	c := &caseFlags{}
	fs.Var(&c.suites, "suite", "add a suite: a `DIR` of <area>.json case files (repeatable)")
	fs.BoolVar(&c.noEmbedded, "no-embedded", false, "leave out the embedded suites (the vendored spec's cases and lembas-check's own)")
	fs.Var(&c.areas, "area", "run only these areas (`a,b`; repeatable)")
	fs.StringVar(&c.run, "run", "", "run only cases whose id matches `GLOB` (* within a segment, ** across; several with ,)")
	return c
}

// selection is the one selection the flags make, for cases, scenarios and saved reports alike.
func (c *caseFlags) selection() (selection.Selection, error) {
	return selection.New(c.areas, c.run)
}

// load loads the suites the flags name, every case of them (the selection is applied after).
func (c *caseFlags) load() ([]conformance.Case, error) {
	return runner.LoadCases(runner.SuiteOptions{Dirs: c.suites, NoEmbedded: c.noEmbedded})
}

// selected loads the suites and applies the selection.
func (c *caseFlags) selected() ([]conformance.Case, error) {
	sel, err := c.selection()
	if err != nil {
		return nil, err
	}
	cases, err := c.load()
	if err != nil {
		return nil, err
	}
	return selection.Cases(sel, cases)
}

func cmdList(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", stderr)
	cf := addCaseFlags(fs)
	asJSON := fs.Bool("json", false, "one JSON object per case (id, area, index, file, about, case, expect)")
	if _, err := parse(fs, args); err != nil {
		return flagExit(err)
	}
	cases, err := cf.selected()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		for _, c := range cases {
			if err := enc.Encode(c); err != nil {
				return errorf(stderr, "%v", err)
			}
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tINDEX\tFILE\tABOUT")
	for _, c := range cases {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", c.ID, c.Index, c.File, oneLine(c.About, 70))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "%d cases\n", len(cases))
	return 0
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func cmdShow(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("show", stderr)
	cf := addCaseFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		return errorf(stderr, "show takes one case id (or the start of one); `lembas-check list` lists them")
	}
	cases, err := cf.selected()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	var found []conformance.Case
	for _, c := range cases {
		if c.ID == pos[0] {
			found = []conformance.Case{c}
			break
		}
		if strings.HasPrefix(c.ID, pos[0]) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return errorf(stderr, "no case %q; `lembas-check list` lists them", pos[0])
	case 1:
	default:
		var ids []string
		for _, c := range found {
			ids = append(ids, c.ID)
		}
		return errorf(stderr, "%q names %d cases: %s", pos[0], len(found), strings.Join(ids, ", "))
	}
	c := found[0]
	fmt.Fprintf(stdout, "%s\n%s\n", c.ID, c.Where())
	if c.About != "" {
		fmt.Fprintf(stdout, "about: %s\n", c.About)
	}
	fmt.Fprintf(stdout, "case:\n%s\nexpect:\n%s\n", pretty(c.Input), pretty(c.Expect))
	return 0
}

func pretty(raw []byte) string {
	v, err := conformance.Value(raw)
	if err != nil {
		return string(raw)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimRight(b.String(), "\n")
}

func cmdVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "lembas-check %s (harness spec %s)\n", runner.ToolVersion, spec.Version())
	return 0
}

func cmdSpec(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("spec", stderr)
	allowExtra := fs.Bool("allow-extra", false, "with verify: do not report files the manifest does not pin (a whole copy of the spec has more than the seed)")
	asJSON := fs.Bool("json", false, "print the manifest as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) == 0 {
		m := spec.Manifest()
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			enc.Encode(map[string]any{"version": spec.Version(), "files": m})
			return 0
		}
		fmt.Fprintf(stdout, "harness spec %s, vendored in harness/spec (pinned by harness/spec/MANIFEST.sha256)\n\n", spec.Version())
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SHA-256\tBYTES\tFILE")
		for _, e := range m {
			fmt.Fprintf(tw, "%s\t%d\t%s\n", e.SHA256, e.Size, e.Path)
		}
		tw.Flush()
		fmt.Fprintln(stdout, "\ntexts the spec fixes that no whole file carries, with their sources:")
		for name, b := range spec.ExtraFiles() {
			fmt.Fprintf(stdout, "  %s  %d bytes  %s\n", spec.Sum(b)[:16], len(b), name)
		}
		if err := spec.Verify(); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	if pos[0] != "verify" || len(pos) != 2 {
		return errorf(stderr, "usage: lembas-check spec [verify DIR [--allow-extra]]")
	}
	dir := pos[1]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return errorf(stderr, "spec verify %s: not a directory (give the folder holding the spec's VERSION, loop.json, conformance/ …)", dir)
	}
	problems := spec.Compare(os.DirFS(dir), spec.Manifest(), spec.CompareOptions{AllowExtra: *allowExtra})
	if len(problems) == 0 {
		fmt.Fprintf(stdout, "ok\t%s matches harness spec %s as lembas-check pins it (%d files)\n", dir, spec.Version(), len(spec.Manifest()))
		return 0
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p.String())
	}
	fmt.Fprintf(stdout, "FAIL\t%s: %d files differ from harness spec %s as lembas-check pins it\n", dir, len(problems), spec.Version())
	return 1
}
