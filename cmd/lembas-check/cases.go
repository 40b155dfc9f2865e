package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/conformance/coverage"
	"github.com/LLeMbas/lembas-check/internal/report"
	"github.com/LLeMbas/lembas-check/internal/selection"
	"github.com/LLeMbas/lembas-check/runner"
)

// caseFlags are the flags that choose cases, shared by run, list, show, diff and smoke.
type caseFlags struct {
	suites runner.SuiteOptions
	areas  listFlag
	run    string
}

func addCaseFlags(fs *flag.FlagSet) *caseFlags {
	c := &caseFlags{}
	fs.Var((*repeatFlag)(&c.suites.Dirs), "suite", "add a suite: a `DIR` of <area>.json case files (repeatable)")
	fs.BoolVar(&c.suites.NoEmbedded, "no-embedded", false,
		"leave out the embedded suites (the vendored spec's cases and lembas-check's own)")
	fs.Var(&c.areas, "area", "only the cases of these areas (`AREA,…`; repeatable)")
	fs.StringVar(&c.run, "run", "",
		"only the cases whose id matches `GLOB` (* within a segment, ** across; several with ,)")
	return c
}

// selection is the one selection the flags make, for cases, scenarios and saved reports alike.
func (c *caseFlags) selection() (selection.Selection, error) {
	return selection.New(c.areas, c.run)
}

// selected loads the suites the flags name and applies the selection.
func (c *caseFlags) selected() ([]conformance.Case, error) {
	sel, err := c.selection()
	if err != nil {
		return nil, err
	}
	cases, err := runner.LoadCases(c.suites)
	if err != nil {
		return nil, err
	}
	return selection.Cases(sel, cases)
}

func cmdList(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", stderr)
	cf := addCaseFlags(fs)
	form := fs.String("format", "table", "`FORMAT`: "+report.CaseFormats.Help())
	asJSON := fs.Bool("json", false, "the same as --format json")
	if _, err := parse(fs, args); err != nil {
		return flagExit(err)
	}
	if *asJSON {
		*form = "json"
	}
	f, err := report.CaseFormats.Lookup(*form)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	cases, err := cf.selected()
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if err := f.Write(stdout, cases, false); err != nil {
		return errorf(stderr, "%v", err)
	}
	return 0
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
	if err := report.ShowCase(stdout, cases, pos[0]); err != nil {
		return errorf(stderr, "%v", err)
	}
	return 0
}

func cmdVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	pos, err := parse(newFlags("version", stderr), args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		return errorf(stderr, "version takes no arguments")
	}
	fmt.Fprintln(stdout, program().Version)
	return 0
}

func cmdSpec(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("spec", stderr)
	allowExtra := fs.Bool("allow-extra", false,
		"with verify: do not report files the manifest does not pin (a whole copy of the spec has more than the seed)")
	form := fs.String("format", "table",
		"`FORMAT` of the manifest: "+report.SpecFormats.Help()+"; of coverage: "+coverage.Formats.Help())
	asJSON := fs.Bool("json", false, "the same as --format json")
	pos, err := parse(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if *asJSON {
		*form = "json"
	}
	if len(pos) == 1 && pos[0] == "coverage" {
		return coverage.Command(stdout, stderr, *form)
	}
	f, err := report.SpecFormats.Lookup(*form)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	if len(pos) == 0 {
		return report.WriteSpec(stdout, stderr, f).Code()
	}
	if pos[0] != "verify" || len(pos) != 2 {
		return errorf(stderr, "usage: lembas-check spec [coverage | verify DIR [--allow-extra]]")
	}
	st, err := report.SpecVerify(stdout, pos[1], *allowExtra)
	if err != nil {
		return errorf(stderr, "%v", err)
	}
	return st.Code()
}

func cmdSchema(_ context.Context, args []string, stdout, stderr io.Writer) int {
	pos, err := parse(newFlags("schema", stderr), args)
	if err != nil {
		return flagExit(err)
	}
	if err := conformance.WriteSchemas(stdout, pos...); err != nil {
		return errorf(stderr, "%v", err)
	}
	return 0
}
