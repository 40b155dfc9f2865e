package fakeprovider_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/google/go-cmp/cmp"
)

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v: %s", url, err, b)
	}
	return resp.StatusCode
}

// Discovery says link protocol 3 and lists only 3, as a LLeMbas 2.0 server does, so a 2.0 CLI
// logs in; the other endpoints answer in the shapes acp.md gives.
func TestInstanceEndpoints(t *testing.T) {
	srv := fakeprovidertest.New(t, nil)
	var d struct {
		Service   string `json:"service"`
		Protocol  int    `json:"protocol"`
		Protocols []int  `json:"protocols"`
		BaseURL   string `json:"base_url"`
		API       struct {
			OpenAI string `json:"openai"`
		} `json:"api"`
		Login struct {
			Device struct{ Code, Token string } `json:"device"`
		} `json:"login"`
	}
	if getJSON(t, srv.URL+"/.well-known/lembas.json", &d) != 200 || d.Service != "lembas" || d.Protocol != 3 || !cmp.Equal(d.Protocols, []int{3}) ||
		d.BaseURL != srv.URL || d.API.OpenAI != srv.BaseURL() || d.Login.Device.Code == "" {
		t.Errorf("discovery %+v", d)
	}
	var inst map[string]any
	getJSON(t, srv.URL+"/api/v1/instance", &inst)
	for _, k := range []string{"service", "version", "name", "connection", "account", "scope", "default_model", "services"} {
		if _, ok := inst[k]; !ok {
			t.Errorf("instance lacks %s: %v", k, inst)
		}
	}
	if inst["scope"] != "models memory link" || inst["default_model"] != "fake-model" {
		t.Errorf("instance %v", inst)
	}

	// Usage counts what was served.
	post(t, srv.BaseURL()+"/chat/completions", hello)
	var u struct {
		Month struct {
			From           string             `json:"from"`
			TokensIn       int                `json:"tokens_in"`
			TokensOut      int                `json:"tokens_out"`
			CostMoney      *float64           `json:"cost_money"`
			CostByCurrency map[string]float64 `json:"cost_by_currency"`
		} `json:"month"`
		Device struct {
			TokensIn  int `json:"tokens_in"`
			TokensOut int `json:"tokens_out"`
		} `json:"device"`
		Unit    string `json:"unit"`
		Plan    any    `json:"plan"`
		Windows []any  `json:"windows"`
	}
	getJSON(t, srv.URL+"/v1/usage", &u)
	if u.Month.TokensIn == 0 || u.Month.TokensOut == 0 || u.Device.TokensIn != u.Month.TokensIn || u.Month.CostMoney != nil ||
		u.Month.CostByCurrency == nil || len(u.Month.CostByCurrency) != 0 || u.Unit != "money" || u.Plan != nil || u.Windows == nil ||
		!strings.HasSuffix(u.Month.From, "-01T00:00:00Z") {
		t.Errorf("usage %+v", u)
	}

	// Personalization: a partial PUT sets what it names; an unknown field is refused.
	put := func(body string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPut, srv.BaseURL()+"/me/personalization", strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}
	if code, v := put(`{"enabled":true,"instructions":"Be terse."}`); code != 200 || v["enabled"] != true || v["instructions"] != "Be terse." || v["personality"] != "" || v["available"] != true {
		t.Errorf("PUT: %d %v", code, v)
	}
	if code, v := put(`{"personality":"friendly"}`); code != 200 || v["instructions"] != "Be terse." || v["personality"] != "friendly" {
		t.Errorf("partial PUT kept the rest? %d %v", code, v)
	}
	if code, v := put(`{"colour":"red"}`); code != 400 || v["error"] == nil {
		t.Errorf("unknown field: %d %v", code, v)
	}
	var p map[string]any
	getJSON(t, srv.BaseURL()+"/me/personalization", &p)
	if d := cmp.Diff(map[string]any{"enabled": true, "available": true, "personality": "friendly", "personality_custom": "", "instructions": "Be terse."}, p); d != "" {
		t.Errorf("GET (-want +got)\n%s", d)
	}
}
