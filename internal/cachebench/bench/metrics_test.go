package bench

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/usage"
)

func ip(n int) *int { return &n }

func TestMetricsServedAndWritten(t *testing.T) {
	m := NewMetrics()
	m.Info("clean.jsonl", "http://127.0.0.1:8080/v1")
	m.Start("baseline")
	m.Start("date-in-system:3")
	ms := 12.5
	m.Observe(Row{Run: "baseline", Status: 200, TTFT: 30 * time.Millisecond, Total: 90 * time.Millisecond, Reusable: 900, Predicted: ip(899),
		Usage: usage.Usage{PromptTokens: ip(1000), CachedTokens: ip(900), PromptMS: &ms}})
	m.Observe(Row{Run: "date-in-system:3", Status: 200, Usage: usage.Usage{PromptTokens: ip(1000)}})
	// A request the server failed is out of the predicted totals, although the simulator served it.
	m.Start("tool-churn")
	m.Observe(Row{Run: "tool-churn", Status: 500, Error: "500 Internal Server Error: server_error", Predicted: ip(700)})
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`lembas_bench_requests_total{run="baseline",status="200"} 1`,
		`lembas_bench_cached_tokens_total{run="baseline"} 900`,
		`lembas_bench_cache_not_reported_total{run="date-in-system:3"} 1`,
		`lembas_bench_prompt_processing_seconds_total{run="baseline"} 0.0125`,
		// A 0–1 fraction is a _ratio (issue 16: it was _share), and an _info metric names what ran.
		`lembas_bench_last_cached_ratio{run="baseline"} 0.9`,
		`lembas_bench_info{recording="clean.jsonl",server="http://127.0.0.1:8080/v1"} 1`,
		`lembas_bench_time_to_first_token_seconds_count{run="baseline"} 1`,
		`lembas_bench_predicted_cached_tokens_total{run="baseline"} 899`,
		`lembas_bench_predicted_cached_tokens_total{run="tool-churn"} 0`,
		// every metric exists from the run's start: 0, not absent
		`lembas_bench_cache_not_reported_total{run="baseline"} 0`,
		`lembas_bench_server_errors_total{run="baseline"} 0`,
		`lembas_bench_cached_tokens_total{run="date-in-system:3"} 0`,
		`lembas_bench_prompt_processing_seconds_total{run="date-in-system:3"} 0`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	path := filepath.Join(t.TempDir(), "bench.prom")
	if err := m.WriteTextfile(path); err != nil {
		t.Fatal(err)
	}
	f, _ := os.ReadFile(path)
	if !strings.Contains(string(f), `lembas_bench_predicted_reusable_tokens_total{run="baseline"} 900`) {
		t.Errorf("textfile:\n%s", f)
	}
}

// --metrics-listen: the metrics are served at the URL Listen gives until it is stopped; an address
// that cannot be listened on is an error.
func TestMetricsListen(t *testing.T) {
	m := NewMetrics()
	m.Observe(Row{Run: "baseline", Status: 200})
	url, stop, err := m.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasSuffix(url, "/metrics") || !strings.Contains(string(b), `lembas_bench_requests_total{run="baseline",status="200"} 1`) {
		t.Errorf("%s:\n%s", url, b)
	}
	stop()
	if _, err := http.Get(url); err == nil {
		t.Error("still served after stop")
	}
	if _, _, err := m.Listen("127.0.0.1:not-a-port"); err == nil {
		t.Error("a bad address was listened on")
	}
}
