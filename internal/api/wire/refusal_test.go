package wire

import (
	"bytes"
	"testing"
)

// The fake refuses a prompt past a slot's context with llama-server's own 400, byte for byte.
func TestContextRefusalIsLlamaServers(t *testing.T) {
	want := bytes.TrimSpace(readFixture(t, "11-refused-context.json"))
	if got := ContextRefusalBody(628, 512); !bytes.Equal(got, want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
