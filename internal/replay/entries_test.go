package replay

import (
	"errors"
	"io"
	"testing"
)

// listSource hands out its entries, then its end (io.EOF, or another error).
type listSource struct {
	entries []Entry
	end     error
}

func (s *listSource) Next() (Entry, error) {
	if len(s.entries) == 0 {
		return Entry{}, s.end
	}
	e := s.entries[0]
	s.entries = s.entries[1:]
	return e, nil
}

// Entries yields every entry, stops quietly at io.EOF, and yields any other error once, last.
func TestEntries(t *testing.T) {
	damaged := errors.New("line 3: cut mid-line")
	for _, c := range []struct {
		name    string
		end     error
		wantErr error
	}{{"to the end", io.EOF, nil}, {"damaged", damaged, damaged}} {
		src := &listSource{entries: []Entry{{Exchange: Exchange{Seq: 1}}, {Exchange: Exchange{Seq: 2}}}, end: c.end}
		var seqs []int
		var errs []error
		for e, err := range Entries(src) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			seqs = append(seqs, e.Exchange.Seq)
		}
		if len(seqs) != 2 || seqs[0] != 1 || seqs[1] != 2 {
			t.Errorf("%s: entries %v, want [1 2]", c.name, seqs)
		}
		if c.wantErr == nil && len(errs) != 0 || c.wantErr != nil && (len(errs) != 1 || errs[0] != c.wantErr) {
			t.Errorf("%s: errors %v, want %v", c.name, errs, c.wantErr)
		}
	}
	// Breaking off reads no further.
	src := &listSource{entries: []Entry{{}, {}, {}}, end: io.EOF}
	for range Entries(src) {
		break
	}
	if len(src.entries) != 2 {
		t.Errorf("after a break %d entries are left, want 2", len(src.entries))
	}
}
