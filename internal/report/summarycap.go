package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// SummaryBudget is the most bytes a markdown report holds. GitHub drops a step summary over
// 1 MiB; a run and a diff may write into the same step's summary, so each keeps under half.
const SummaryBudget = 480 << 10

// FullReportEnv names where the whole report is (a path or a URL), for the line a cut summary
// ends with; the Action sets it to the JUnit file it uploads.
const FullReportEnv = "LEMBAS_CHECK_FULL_REPORT"

const detailsOpen = "<details><summary>"

// capMarkdown writes what write writes, cut to budget bytes if it is longer: the part before the
// first <details> (heading, counts, lists) whole if it fits, then failures' <details> blocks in
// full while they fit, then a line saying how many were left out and where the full report is.
// The one place the budget lives: the markdown writers do not know of it.
func capMarkdown(w io.Writer, budget int, where string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	err := write(&buf)
	if buf.Len() <= budget {
		_, werr := w.Write(buf.Bytes())
		return firstErr(err, werr)
	}
	_, werr := io.WriteString(w, cutMarkdown(buf.String(), budget, where))
	return firstErr(err, werr)
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// cutMarkdown is md cut to budget bytes at a block's end, with the closing line.
func cutMarkdown(md string, budget int, where string) string {
	blocks := splitDetails(md)
	reserve := len(cutLine(len(blocks), where)) + 64
	var b strings.Builder
	shown, hidden := 0, 0
	for i, blk := range blocks {
		isDetails := strings.HasPrefix(blk, detailsOpen)
		switch {
		case hidden == 0 && b.Len()+len(blk)+reserve <= budget:
			b.WriteString(blk)
			if isDetails {
				shown++
			}
		case i == 0 && !isDetails:
			// The head alone is over the budget (lists of thousands of cases): keep its first lines.
			b.WriteString(cutLines(blk, budget-reserve))
			b.WriteString("\n\n")
		case isDetails:
			hidden++
		}
	}
	if hidden == 0 && shown == 0 {
		return b.String() + cutLine(-1, where)
	}
	return b.String() + cutLine(hidden, where)
}

// splitDetails cuts md into the head and each <details> block (one failure) with what follows it
// up to the next; a block begins where a line begins with detailsOpen.
func splitDetails(md string) []string {
	var blocks []string
	for {
		from := 0
		if strings.HasPrefix(md, detailsOpen) {
			from = len(detailsOpen)
		}
		i := strings.Index(md[from:], "\n"+detailsOpen)
		if i < 0 {
			return append(blocks, md)
		}
		blocks = append(blocks, md[:from+i+1])
		md = md[from+i+1:]
	}
}

// cutLines is s's first whole lines that fit in n bytes.
func cutLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return ""
}

// cutLine is the closing line of a cut summary; n < 0 when the head itself was cut.
func cutLine(n int, where string) string {
	place := "the report in another format (`--format junit` or `--format json`, `--out FILE`)"
	if where != "" {
		place = "`" + strings.ReplaceAll(where, "`", "'") + "`"
	}
	if n < 0 {
		return fmt.Sprintf("**This summary is cut to %d KiB (GitHub drops a step summary over 1 MiB); the full "+
			"report: %s.**\n", SummaryBudget>>10, place)
	}
	return fmt.Sprintf("**%d more failures not shown: this summary is kept under %d KiB (GitHub drops a step summary "+
		"over 1 MiB); all of them are in %s.**\n", n, SummaryBudget>>10, place)
}

// cappedMarkdown is a markdown writer held to SummaryBudget, the full report named from
// $LEMBAS_CHECK_FULL_REPORT.
func cappedMarkdown(w io.Writer, write func(io.Writer) error) error {
	return capMarkdown(w, SummaryBudget, os.Getenv(FullReportEnv), write)
}
