package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// OpenFile is Open for a file a person named: an error names the file once (a damaged line
// says its file and line; any other error is "PATH: why").
func OpenFile(path string) (*Reader, io.Closer, error) {
	r, f, err := Open(path)
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			return nil, nil, err
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return r, f, nil
}

// Summary is what a recording holds, counted by reading it back whole.
type Summary struct {
	Exchanges, Errors int
	Bytes             int64
	// FirstErrors names the first three exchanges that ended in an error.
	FirstErrors []string
}

// Summarize reads a recording back: it proves the file whole, and counts what is in it.
func Summarize(path string) (Summary, error) {
	var s Summary
	st, err := os.Stat(path)
	if err != nil {
		return s, err
	}
	s.Bytes = st.Size()
	r, f, err := Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	for e, err := range Entries(r) {
		if err != nil {
			return s, err
		}
		s.Exchanges++
		if e.Exchange.Error != "" {
			s.Errors++
			if len(s.FirstErrors) < 3 {
				s.FirstErrors = append(s.FirstErrors, fmt.Sprintf("exchange %d (%s %s): %s", e.Exchange.Seq,
					e.Exchange.Method, e.Exchange.Path, e.Exchange.Error))
			}
		}
	}
	return s, nil
}
