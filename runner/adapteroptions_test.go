package runner

import (
	"fmt"
	"testing"
	"time"
)

// --jobs and --timeout are checked as the flags give them.
func TestAdapterOptionsCheck(t *testing.T) {
	for _, c := range []struct {
		o    AdapterOptions
		want string
	}{
		{AdapterOptions{Jobs: 1, Timeout: time.Second}, ""},
		{AdapterOptions{Jobs: 0, Timeout: time.Second}, "--jobs 0: want 1 or more"},
		{AdapterOptions{Jobs: 1, Timeout: -time.Second}, "--timeout -1s: want a positive duration, e.g. 10s"},
	} {
		err := c.o.Check()
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}
