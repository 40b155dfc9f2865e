package script_test

import (
	"fmt"

	"github.com/LLeMbas/lembas-check/fakeprovider/script"
)

// A script is YAML: each step a reply, in order; a bad step is named by file and line.
func ExampleParse() {
	_, err := script.Parse("s.yaml", []byte("- text: hi\n- nosuch: 1\n"))
	fmt.Println(err != nil)
	// Output: true
}
