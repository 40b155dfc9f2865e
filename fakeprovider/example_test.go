package fakeprovider_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/script"
)

// The fake answers an OpenAI chat completion from a script, as a real server would.
func ExampleStart() {
	s, err := script.Parse("hello.yaml", []byte("- text: hello from the script\n"))
	if err != nil {
		panic(err)
	}
	srv, err := fakeprovider.Start(fakeprovider.Config{Script: s})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	body := `{"model":"fake-model","messages":[{"role":"user","content":"hi"}]}`
	resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct{ Message struct{ Content string } }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, out.Choices[0].Message.Content)
	// Output: 200 hello from the script
}
