// Command gen writes the recordings the tests and benchmarks read: the small scripted sessions
// under testdata/recordings (clean and prune-results also as plain request logs, for the importer), or one large
// generated session.
//
//	go run ./internal/cachebench/cmd/gen -out testdata/recordings
//	go run ./internal/cachebench/cmd/gen -large 2000 -tokens 40000000 -o /tmp/large.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/LLeMbas/lembas-check/internal/cachebench/gen"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

func main() {
	out := flag.String("out", "", "write every small recording into `DIR`")
	large := flag.Int("large", 0, "write one large session of `N` requests to -o")
	tokens := flag.Int64("tokens", 40_000_000, "with -large: cumulative prompt tokens to aim for")
	seed := flag.Uint64("seed", 1, "with -large: the random seed")
	file := flag.String("o", "", "with -large: the output `FILE`")
	flag.Parse()
	if err := run(*out, *large, *tokens, *seed, *file); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

func run(out string, large int, tokens int64, seed uint64, file string) error {
	switch {
	case large > 0:
		if file == "" {
			return fmt.Errorf("-large needs -o FILE")
		}
		return write(file, func(w io.Writer) error {
			return gen.WriteLarge(w, gen.LargeOptions{Requests: large, Tokens: tokens, Seed: seed})
		})
	case out != "":
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		for _, name := range gen.ScriptNames() {
			path := filepath.Join(out, name+".jsonl")
			if err := write(path, func(w io.Writer) error { return gen.WriteScript(name, w) }); err != nil {
				return err
			}
			if name == "clean" || name == "prune-results" {
				if err := requestLog(path, filepath.Join(out, name+".requests.jsonl")); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return fmt.Errorf("give -out DIR (the small recordings) or -large N -o FILE")
}

func write(path string, f func(io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	if err := f(w); err != nil {
		fh.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// requestLog writes a recording's request bodies one per line: the shape gateways log.
func requestLog(from, to string) error {
	entries, _, err := replay.ReadAll(from)
	if err != nil {
		return err
	}
	return write(to, func(w io.Writer) error {
		for _, e := range entries {
			if _, err := w.Write(append(e.Body, '\n')); err != nil {
				return err
			}
		}
		return nil
	})
}
