package term

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// FORCE_COLOR and CLICOLOR_FORCE paint what goes to a pipe (a CI log that renders colour); "0"
// forces nothing; NO_COLOR wins over both.
func TestColourForcedInAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"FORCE_COLOR": "1"}, true},
		{map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{map[string]string{"FORCE_COLOR": "3", "TERM": "dumb"}, true},
		{map[string]string{"FORCE_COLOR": "0"}, false},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false},
		{map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false},
	} {
		for _, out := range []io.Writer{w, &bytes.Buffer{}} {
			_, got := Colour(out, func(k string) string { return c.env[k] }).(Writer)
			if got != c.want {
				t.Errorf("%v on %T: colour %v, want %v", c.env, out, got, c.want)
			}
		}
	}
}
