package jsonx

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadLine(t *testing.T) {
	in := "one\n\n" + strings.Repeat("x", 100) + "\n" + strings.Repeat("y", 101) + "\nlast"
	rd := bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(in)), 16)
	var got []string
	var err error
	for {
		var line []byte
		line, err = ReadLine(rd, 100)
		var long *LineTooLong
		if errors.As(err, &long) {
			got = append(got, "too long:"+string(long.Head))
			if !long.Ended {
				ReadLine(rd, 1000) // past the rest of it
			}
			continue
		}
		got = append(got, string(line))
		if err != nil {
			break
		}
	}
	want := []string{"one", "", strings.Repeat("x", 100), "too long:" + strings.Repeat("y", 101), "last"}
	if !errors.Is(err, io.EOF) || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q (%v)", got, err)
	}
}

// Reading lines with a limit gives the lines bytes.Split gives, each longer one reported too long.
func FuzzReadLine(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint8(2), uint8(16))
	f.Add([]byte(strings.Repeat("x", 40)+"\n"), uint8(39), uint8(16))
	f.Fuzz(func(t *testing.T, data []byte, max, size uint8) {
		rd := bufio.NewReaderSize(bytes.NewReader(data), int(size))
		want := bytes.Split(data, []byte("\n"))
		if len(want[len(want)-1]) == 0 {
			want = want[:len(want)-1]
		}
		for i, w := range want {
			got, err := ReadLine(rd, int(max))
			var long *LineTooLong
			if len(w) > int(max) {
				if !errors.As(err, &long) || !bytes.HasPrefix(w, long.Head) {
					t.Fatalf("line %d (%d bytes, max %d): %q %v", i, len(w), max, got, err)
				}
				if !long.Ended {
					ReadLine(rd, 1<<20) // past the rest of it
				}
				continue
			}
			if !bytes.Equal(got, w) || err != nil && !errors.Is(err, io.EOF) {
				t.Fatalf("line %d: %q %v, want %q", i, got, err, w)
			}
		}
		if got, err := ReadLine(rd, int(max)); len(got) != 0 || !errors.Is(err, io.EOF) {
			t.Fatalf("after the last line: %q %v", got, err)
		}
	})
}
