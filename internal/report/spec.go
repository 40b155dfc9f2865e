package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/LLeMbas/lembas-check/harness/spec"
	"github.com/LLeMbas/lembas-check/internal/format"
)

// SpecFormats are the formats `lembas-check spec` writes the vendored spec's manifest in.
var SpecFormats = format.Formats[[]spec.Entry]{
	{Name: "table", Write: writeManifestTable},
	{Name: "json", About: "the version and each pinned file", Write: func(w io.Writer, m []spec.Entry, _ bool) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"version": spec.Version(), "files": m})
	}},
}

func writeManifestTable(w io.Writer, m []spec.Entry, _ bool) error {
	fmt.Fprintf(w,
		"harness spec %s, vendored in harness/spec/files (pinned by harness/spec/MANIFEST.sha256; check a copy with "+
			"`spec verify DIR`)\n\n", spec.Version())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SHA-256\tBYTES\tFILE")
	for _, e := range m {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", e.SHA256, e.Size, e.Path)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\ntexts the spec fixes that no whole file carries, with their sources:")
	extra := spec.ExtraFiles()
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		fmt.Fprintf(w, "  %s  %d bytes  %s\n", spec.Sum(extra[name])[:16], len(extra[name]), name)
	}
	return nil
}

// SpecCompareStatus is how `spec verify` ended: ok when the copy matches the pins, else failed.
func SpecCompareStatus(problems []spec.Problem) format.Status {
	if len(problems) == 0 {
		return format.OK
	}
	return format.Failed
}

// WriteSpecCompare writes how a project's copy of the spec (dir) differs from the pinned files:
// each difference, then the summary line.
func WriteSpecCompare(w io.Writer, dir string, problems []spec.Problem) error {
	st := SpecCompareStatus(problems)
	if st == format.OK {
		_, err := fmt.Fprintf(w, "%s\t%s matches harness spec %s as lembas-check pins it (%d files)\n", st.Word(), dir,
			spec.Version(), len(spec.Manifest()))
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(w, p.String())
	}
	_, err := fmt.Fprintf(w, "%s\t%s: %d files differ from harness spec %s as lembas-check pins it\n", st.Word(), dir,
		len(problems), spec.Version())
	return err
}

// SpecVerify is `spec verify DIR`: the project's copy compared with the pinned manifest, written
// to w; its status, or an error when dir is not a directory.
func SpecVerify(w io.Writer, dir string, allowExtra bool) (format.Status, error) {
	problems, err := spec.CompareDir(dir, spec.CompareOptions{AllowExtra: allowExtra})
	if err != nil {
		return format.Unfinished, err
	}
	if err := WriteSpecCompare(w, dir, problems); err != nil {
		return format.Unfinished, err
	}
	return SpecCompareStatus(problems), nil
}

// WriteSpec is `spec` without verify: the vendored spec's manifest in f, then the check of the
// embedded files against it (a failure on stderr, FAIL).
func WriteSpec(stdout, stderr io.Writer, f format.Format[[]spec.Entry]) format.Status {
	if err := f.Write(stdout, spec.Manifest(), false); err != nil {
		fmt.Fprintf(stderr, "lembas-check: %v\n", err)
		return format.Unfinished
	}
	if err := spec.Verify(); err != nil {
		fmt.Fprintln(stderr, err)
		return format.Failed
	}
	return format.OK
}
