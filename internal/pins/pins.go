// Package pins checks a testdata folder against its SHA256SUMS (sha256sum's format): every file
// is the one the sums pin, and every file the glob names is pinned. The tests of each package
// with fixtures call it, so that one reading of the format serves them all.
package pins

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Check reads dir/SHA256SUMS and returns how many files it pins and each mismatch: a file whose
// SHA-256 differs from its pin, and a file matching glob (SHA256SUMS itself aside) that is not
// pinned. An error is a folder or a sums file that cannot be read, or a malformed line.
func Check(dir, glob string) (pinned int, problems []string, err error) {
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			return 0, nil, fmt.Errorf("%s/SHA256SUMS:%d: malformed line %q", dir, n, sc.Text())
		}
		b, err := os.ReadFile(filepath.Join(dir, fields[1]))
		if err != nil {
			return 0, nil, err
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != fields[0] {
			problems = append(problems, fmt.Sprintf("%s: sha256 %x, SHA256SUMS pins %s", fields[1], sum, fields[0]))
		}
		seen[fields[1]] = true
	}
	if err := sc.Err(); err != nil {
		return 0, nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, glob))
	if err != nil {
		return 0, nil, err
	}
	for _, p := range names {
		if name := filepath.Base(p); name != "SHA256SUMS" && !seen[name] {
			problems = append(problems, fmt.Sprintf("%s is not pinned in SHA256SUMS", name))
		}
	}
	return len(seen), problems, nil
}
