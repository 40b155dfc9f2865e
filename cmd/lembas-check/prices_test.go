package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --prices gives money in the audit's table, JSON and markdown and in the bench's table; a bad
// table is an error naming the flag and the file.
func TestPricesFlag(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "prices.json")
	os.WriteFile(table, []byte(`{"currency":"USD","per":1000000,"models":[{"provider":"llama.cpp","match":"qwen3-coder","input":2,"cache_read":0.2,"output":8}]}`), 0o644)
	for format, want := range map[string]string{"table": "$", "json": `"lost_cost":`, "markdown": "Cost at USD prices"} {
		code, out, errs := runCLI(t, "audit", "--prices", table, "--format", format, recDir+"date-in-system.jsonl")
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("audit --format %s: exit %d, want 1 and %q in\n%s\n%s", format, code, want, out, errs)
		}
	}
	code, out, errs := runCLI(t, "bench", recDir+"clean.jsonl", "--sim", "--prices", table)
	if code != 0 || !strings.Contains(out, "cost (server's usage)") || !strings.Contains(out, "$0.0") {
		t.Errorf("bench --prices: exit %d\n%s\n%s", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"currency":"USD"}`), 0o644)
	if code, _, errs := runCLI(t, "audit", "--prices", bad, recDir+"clean.jsonl"); code != 2 || !strings.Contains(errs, "--prices: "+bad+": per must be") {
		t.Errorf("a bad table: exit %d, %s", code, errs)
	}
}
