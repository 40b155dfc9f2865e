package fakeprovider_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
)

// scrape reads /metrics into "name{labels}" → value, once every request sent has been counted.
// A request is counted as its handler returns, which can be after the client has its response
// (the test then read a count one short, 6 runs in 30): shutting the server down waits for every
// handler, and the metrics are then read from its handler directly.
func scrape(t *testing.T, srv *fakeprovider.Server) map[string]float64 {
	t.Helper()
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b := rec.Body.Bytes()
	out := map[string]float64{}
	line := regexp.MustCompile(`^(.+) (\S+)$`)
	for _, l := range strings.Split(string(b), "\n") {
		if m := line.FindStringSubmatch(l); m != nil && !strings.HasPrefix(l, "#") {
			v, _ := strconv.ParseFloat(m[2], 64)
			out[m[1]] = v
		}
	}
	return out
}

func TestMetrics(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, `
models: [fake-model]
replies:
  - text: "a b c"
  - text: "d e f"
  - fault: {status: 429}
`))
	post(t, srv.BaseURL()+"/chat/completions", hello)
	resp, _ := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(streamHello))
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	post(t, srv.BaseURL()+"/chat/completions", hello)
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"nope","messages":[{"role":"user","content":"x"}]}`)
	http.Get(srv.URL + "/v1/models")
	http.Get(srv.URL + "/random/path")
	m := scrape(t, srv)
	for k, want := range map[string]float64{
		`lembas_fake_requests_total{route="POST /v1/chat/completions",status="200"}`:   2,
		`lembas_fake_requests_total{route="POST /v1/chat/completions",status="429"}`:   1,
		`lembas_fake_requests_total{route="POST /v1/chat/completions",status="404"}`:   1,
		`lembas_fake_requests_total{route="GET /v1/models",status="200"}`:              1,
		`lembas_fake_requests_total{route="other",status="404"}`:                       1,
		`lembas_fake_stream_duration_seconds_count{route="POST /v1/chat/completions"}`: 1,
		`lembas_fake_completion_tokens_total`:                                          6,
	} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if m["lembas_fake_prompt_tokens_total"] < 10 || m["lembas_fake_cached_tokens_total"] <= 0 || m["lembas_fake_cached_tokens_total"] >= m["lembas_fake_prompt_tokens_total"] {
		t.Errorf("tokens: prompt %v cached %v (the second identical request should hit the cache)", m["lembas_fake_prompt_tokens_total"], m["lembas_fake_cached_tokens_total"])
	}
}

// Proxied requests are counted by their API path.
func TestProxyMetrics(t *testing.T) {
	up := fakeprovidertest.New(t, nil)
	srv := fakeprovidertest.NewWith(t, fakeprovider.Config{Upstream: up.BaseURL()})
	post(t, srv.BaseURL()+"/chat/completions", hello)
	if resp, err := http.Get(srv.URL + "/v1/strange"); err == nil {
		resp.Body.Close()
	}
	m := scrape(t, srv)
	if m[`lembas_fake_requests_total{route="proxy POST /v1/chat/completions",status="200"}`] != 1 || m[`lembas_fake_requests_total{route="proxy other",status="404"}`] != 1 {
		t.Errorf("%v", m)
	}
}
