package fakeprovider_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
)

// A person's first words to an agent offering a read tool, streamed: the default policy's
// request for README.md.
const readRequest = `{"model":"fake-model","stream":true,"messages":[{"role":"user","content":"Fix the bug"}],` +
	`"tools":[{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]}`

// varies is what the fake numbers per request (response and call ids, the clock); everything
// else in an answer is the request's own.
var varies = regexp.MustCompile(`"(id|created)":("[^"]*"|[0-9]+)`)

// answerOf posts body and gives back its answer with what varies blanked out; safe to call from
// any goroutine.
func answerOf(url, body string) (string, error) {
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d, %v: %s", resp.StatusCode, err, b)
	}
	return string(varies.ReplaceAll(b, []byte(`"$1":_`))), nil
}

// The same request gets the same answer, whatever was asked before it: sent twice, the second
// is not answered "done" because the first made a call; a request with tool_choice none, whose
// call is left out, uses up nothing.
func TestSameRequestSameAnswer(t *testing.T) {
	srv := fakeprovidertest.New(t, nil)
	first, err := answerOf(srv.URL, readRequest)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first, `"name":"read"`) {
		t.Fatalf("the first answer reads no file:\n%s", first)
	}
	none := strings.Replace(readRequest, `"stream":true,`, `"stream":true,"tool_choice":"none",`, 1)
	for i, body := range []string{readRequest, none, readRequest} {
		got, err := answerOf(srv.URL, body)
		if err != nil {
			t.Fatal(err)
		}
		if body == readRequest && got != first {
			t.Errorf("request %d answered otherwise:\n%s\nthen\n%s", i+2, first, got)
		}
	}
}

// 64 clients sending the same request at once, in random order, get 64 identical answers.
func TestSameRequestConcurrently(t *testing.T) {
	srv := fakeprovidertest.New(t, nil)
	want, err := answerOf(fakeprovidertest.New(t, nil).URL, readRequest)
	if err != nil {
		t.Fatal(err)
	}
	// Half the clients send a tool_choice none request first, in an order of their own.
	none := strings.Replace(readRequest, `"stream":true,`, `"stream":true,"tool_choice":"none",`, 1)
	const n = 64
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for _, i := range rand.Perm(n) {
		wg.Go(func() {
			if i%2 == 1 {
				if _, err := answerOf(srv.URL, none); err != nil {
					errs[i] = err
					return
				}
			}
			got[i], errs[i] = answerOf(srv.URL, readRequest)
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("client %d: %v", i, errs[i])
		}
		if !bytes.Equal([]byte(got[i]), []byte(want)) {
			t.Errorf("client %d was answered otherwise:\n%s\nwant\n%s", i, got[i], want)
		}
	}
}
