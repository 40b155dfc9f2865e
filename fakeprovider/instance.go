package fakeprovider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// The LLeMbas instance endpoints a CLI reads as it starts (harness spec 3.1.0, acp.md, "The HTTP
// API"): discovery says link protocol 3, as a 2.0 server does, and the token (any, or none)
// carries the scopes a device login asks for.

// Protocol is the link protocol discovery announces.
const Protocol = 3

// InstanceVersion is the LLeMbas version the fake says it runs.
const InstanceVersion = "2.0.0"

func (s *Server) handleDiscovery(w http.ResponseWriter, r *http.Request) {
	base := s.origin(r)
	writeValue(w, map[string]any{
		"service":   "lembas",
		"name":      "lembas-check fake",
		"version":   InstanceVersion,
		"protocol":  Protocol,
		"protocols": []int{Protocol},
		"base_url":  base,
		"api":       map[string]any{"openai": base + "/v1"},
		"login": map[string]any{"device": map[string]any{
			"code":  base + "/api/v1/device/code",
			"token": base + "/api/v1/device/token",
		}},
	})
}

func (s *Server) handleInstance(w http.ResponseWriter, r *http.Request) {
	writeValue(w, map[string]any{
		"service":       "lembas",
		"version":       InstanceVersion,
		"name":          "lembas-check fake",
		"connection":    "fake",
		"account":       map[string]any{"email": "fake@lembas-check.invalid", "name": "lembas-check"},
		"scope":         "models memory link",
		"default_model": s.models[0],
		"services":      map[string]any{},
	})
}

// handleUsage counts what the fake served, priced at nothing: spec 3.0.0's shape, with the 1.x
// credit fields sent as null.
func (s *Server) handleUsage(w http.ResponseWriter, r *http.Request) {
	in, out := s.tokensIn.Load(), s.tokensOut.Load()
	now := s.now().UTC()
	from := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	writeValue(w, map[string]any{
		"month": map[string]any{
			"from": from.Format(time.RFC3339), "tokens_in": in, "tokens_out": out,
			"cost_money": nil, "cost_by_currency": map[string]float64{}, "cost": nil,
		},
		"device":        map[string]any{"tokens_in": in, "tokens_out": out, "cost": nil, "cost_money": nil},
		"currency":      "USD",
		"admin":         false,
		"unit":          "money",
		"plan":          nil,
		"balance":       nil,
		"balance_money": nil,
		"windows":       []any{},
	})
}

// personalization is GET/PUT /v1/me/personalization's record, kept in memory.
type personalization struct {
	mu                sync.Mutex
	Enabled           bool   `json:"enabled"`
	Available         bool   `json:"available"`
	Personality       string `json:"personality"`
	PersonalityCustom string `json:"personality_custom"`
	Instructions      string `json:"instructions"`
}

func (s *Server) handlePersonalization(w http.ResponseWriter, r *http.Request) {
	p := &s.personal
	if r.Method == http.MethodPut {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			writeError(w, wire.TooLarge(1<<20))
			return
		}
		// A partial PUT sets the fields it names; an unknown field is refused.
		var in struct {
			Enabled           *bool   `json:"enabled"`
			Personality       *string `json:"personality"`
			PersonalityCustom *string `json:"personality_custom"`
			Instructions      *string `json:"instructions"`
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			writeError(w, &wire.Error{Status: http.StatusBadRequest, Type: wire.TypeInvalidRequest,
				Message: fmt.Sprintf("The personalization body must be an object of enabled, personality, "+
					"personality_custom and instructions: %v.", err)})
			return
		}
		p.mu.Lock()
		setIf(&p.Enabled, in.Enabled)
		setIf(&p.Personality, in.Personality)
		setIf(&p.PersonalityCustom, in.PersonalityCustom)
		setIf(&p.Instructions, in.Instructions)
		p.mu.Unlock()
	}
	p.mu.Lock()
	b, _ := jsonx.Marshal(p)
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, b)
}

// setIf sets *dst to what v points at, when the body named it (v not nil).
func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// origin is the URL the client reached the server by.
func (s *Server) origin(r *http.Request) string {
	if r.Host != "" {
		return "http://" + r.Host
	}
	return s.URL
}

func writeValue(w http.ResponseWriter, v any) {
	b, err := jsonx.Marshal(v)
	if err != nil {
		writeError(w, &wire.Error{Status: http.StatusInternalServerError, Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, b)
}
