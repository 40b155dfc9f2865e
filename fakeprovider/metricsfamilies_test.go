package fakeprovider_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/internal/api/usage"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// /metrics is what client_golang served before internal/metrics replaced it: a Prometheus parser
// reads it, and its families, their types, help texts and series are the ones it had (taken from
// the fake at f56b5d1, the vllm dialect's counters included).
func TestMetricsFamiliesAreTheSame(t *testing.T) {
	srv := okFake(t, fakeprovider.Config{Models: []string{"m"}, Dialect: usage.VLLM})
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"one"}]}`)
	post(t, srv.BaseURL()+"/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`)
	http.Get(srv.URL + "/random/path")
	m := scrape(t, srv) // shuts the server down: every request counted
	if len(m) == 0 {
		t.Fatal("no metrics")
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); ct != "text/plain; version=0.0.4; charset=utf-8; escaping=underscores" {
		t.Errorf("Content-Type %q", ct)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatalf("expfmt: %v\n%s", err, rec.Body.Bytes())
	}
	var got []string
	for name, f := range fams {
		var series []string
		for _, s := range f.GetMetric() {
			var labels []string
			for _, l := range s.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			if h := s.GetHistogram(); h != nil {
				labels = append(labels, fmt.Sprintf("%d buckets", len(h.GetBucket())))
			}
			series = append(series, "{"+strings.Join(labels, ",")+"}")
		}
		sort.Strings(series)
		got = append(got, fmt.Sprintf("%s %s %q %s", name, strings.ToLower(f.GetType().String()), f.GetHelp(),
			strings.Join(series, " ")))
	}
	sort.Strings(got)
	want := []string{
		`lembas_fake_cached_tokens_total counter "Prompt tokens the cache simulator found cached." {}`,
		`lembas_fake_completion_tokens_total counter "Completion tokens of the replies sent." {}`,
		`lembas_fake_prompt_tokens_total counter "Prompt tokens of the requests answered, as the cache simulator ` +
			`counts them." {}`,
		`lembas_fake_requests_total counter "Requests served, by route and HTTP status." ` +
			`{route=POST /v1/chat/completions,status=200} {route=other,status=404}`,
		`lembas_fake_stream_duration_seconds histogram "How long streamed responses took, from the request to ` +
			`the last byte." {route=POST /v1/chat/completions,11 buckets}`,
		`vllm:generation_tokens_total counter "Number of generation tokens processed." {model_name=m}`,
		`vllm:prefix_cache_hits_total counter "Prefix cache hits, in terms of number of cached tokens." {model_name=m}`,
		`vllm:prefix_cache_queries_total counter "Prefix cache queries, in terms of number of queried tokens." ` +
			`{model_name=m}`,
		`vllm:prompt_tokens_total counter "Number of prefill tokens processed." {model_name=m}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("families:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
