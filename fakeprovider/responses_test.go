package fakeprovider_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/fakeprovider"
	"github.com/LLeMbas/lembas-check/fakeprovider/fakeprovidertest"
	"github.com/LLeMbas/lembas-check/internal/replay"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

func object(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object (%v): %s", err, b)
	}
	return m
}

// keysOf lists an object's keys in the order written.
func keysOf(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", b)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		var skip json.RawMessage
		if err != nil || dec.Decode(&skip) != nil {
			t.Fatalf("%v: %s", err, b)
		}
		keys = append(keys, k.(string))
	}
	return keys
}

// The response object has every field of the API's, in its order, with the request's settings
// echoed — in the JSON reply and in every lifecycle event.
func TestResponsesObjectComplete(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, "- text: hi\n- text: hi\n"))
	req := `{"model":"fake-model","input":"hello","instructions":"Be brief.","max_output_tokens":500,"store":false,"temperature":0.2,"top_p":0.9,
		"parallel_tool_calls":false,"tool_choice":"auto","metadata":{"k":"v"},"prompt_cache_key":"pk","safety_identifier":"u1","service_tier":"auto",
		"max_tool_calls":3,"top_logprobs":0,"presence_penalty":0.5,"frequency_penalty":0.25,"user":"u","truncation":"auto",
		"reasoning":{"effort":"low"},"text":{"format":{"type":"json_object"},"verbosity":"low"},
		"tools":[{"type":"function","name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}]}`
	want := []string{"id", "object", "created_at", "status", "background", "access_programs", "completed_at", "error", "frequency_penalty", "incomplete_details",
		"instructions", "max_output_tokens", "max_tool_calls", "model", "output", "parallel_tool_calls", "presence_penalty", "previous_response_id",
		"prompt_cache_key", "reasoning", "safety_identifier", "service_tier", "store", "temperature", "text", "tool_choice", "tools",
		"top_logprobs", "top_p", "truncation", "usage", "user", "metadata"}
	echoed := map[string]string{"instructions": `"Be brief."`, "max_output_tokens": "500", "store": "false", "temperature": "0.2", "top_p": "0.9",
		"parallel_tool_calls": "false", "tool_choice": `"auto"`, "metadata": `{"k":"v"}`, "prompt_cache_key": `"pk"`, "safety_identifier": `"u1"`,
		"service_tier": `"default"`, "max_tool_calls": "3", "presence_penalty": "0.5", "frequency_penalty": "0.25", "user": `"u"`, "truncation": `"auto"`,
		"reasoning": `{"effort":"low","summary":null}`, "text": `{"format":{"type":"json_object"},"verbosity":"low"}`,
		"tools": `[{"type":"function","description":null,"name":"read","parameters":{"type":"object","properties":{"path":{"type":"string"}}},"strict":true}]`}
	check := func(what string, b []byte) {
		t.Helper()
		if d := cmp.Diff(want, keysOf(t, b)); d != "" {
			t.Errorf("%s: fields (-want +got)\n%s", what, d)
		}
		m := object(t, b)
		for k, v := range echoed {
			if string(m[k]) != v {
				t.Errorf("%s: %s = %s, want %s", what, k, m[k], v)
			}
		}
	}
	_, b := post(t, srv.BaseURL()+"/responses", req)
	check("body", b)
	if m := object(t, b); string(m["completed_at"]) == "null" || string(m["status"]) != `"completed"` {
		t.Errorf("completed_at %s, status %s", m["completed_at"], m["status"])
	}
	_, b = post(t, srv.BaseURL()+"/responses", strings.Replace(req, `"input"`, `"stream":true,"input"`, 1))
	seen := map[string]bool{}
	for _, ev := range replay.Events(b) {
		var e struct {
			Type     string          `json:"type"`
			Response json.RawMessage `json:"response"`
		}
		json.Unmarshal(ev, &e)
		if e.Response != nil {
			check(e.Type, e.Response)
			seen[e.Type] = true
		}
	}
	if len(seen) != 3 {
		t.Errorf("lifecycle events with a response: %v", seen)
	}
}

// Defaults are the API's: store true, temperature 1.0, tools [], text format text.
func TestResponsesDefaults(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, "- text: hi\n"))
	_, b := post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","input":"hello"}`)
	m := object(t, b)
	for k, v := range map[string]string{"store": "true", "temperature": "1.0", "top_p": "1.0", "tools": "[]", "tool_choice": `"auto"`,
		"text": `{"format":{"type":"text"},"verbosity":"medium"}`, "metadata": "{}", "instructions": "null", "previous_response_id": "null",
		"top_logprobs": "0", "presence_penalty": "0.0", "service_tier": `"default"`, "truncation": `"disabled"`, "parallel_tool_calls": "true"} {
		if string(m[k]) != v {
			t.Errorf("%s = %s, want %s", k, m[k], v)
		}
	}
}

// A stored response continues; GET, DELETE and input_items read it; an unknown id is the API's
// error.
func TestResponsesState(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, `
replies:
  - tool_calls: [{id: call_a, name: read, arguments: {path: README.md}}]
  - text: "It says hello."
  - text: "again"
rules:
  - when: {user_matches: "code word"}
    reply: {text: "cobalt"}
`))
	client := sdkClient(srv)
	ctx := context.Background()
	tools := []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{Name: "read", Parameters: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}}}
	first, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "fake-model", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Read the README.")}, Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	// Only the tool output is sent: the call it answers is in the stored response.
	second, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "fake-model", PreviousResponseID: openai.String(first.ID), Tools: tools,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
			CallID: openai.String("call_a"), Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String("# Hello")}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if second.OutputText() != "It says hello." || second.PreviousResponseID != first.ID {
		t.Errorf("continuation: %q, previous %q", second.OutputText(), second.PreviousResponseID)
	}
	if second.Usage.InputTokens <= first.Usage.InputTokens {
		t.Errorf("the continuation's prompt (%d tokens) should hold the first turn's (%d)", second.Usage.InputTokens, first.Usage.InputTokens)
	}
	got, err := client.Responses.Get(ctx, second.ID, responses.ResponseGetParams{})
	if err != nil || got.OutputText() != "It says hello." {
		t.Fatalf("GET: %v %+v", err, got)
	}
	items, err := client.Responses.InputItems.List(ctx, second.ID, responses.InputItemListParams{})
	if err != nil || len(items.Data) != 1 || items.Data[0].Type != "function_call_output" || items.Data[0].ID == "" {
		t.Fatalf("input_items: %v %+v", err, items)
	}
	if err := client.Responses.Delete(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Responses.Get(ctx, first.ID, responses.ResponseGetParams{})
	var apiErr *openai.Error
	if !asError(err, &apiErr) || apiErr.StatusCode != 404 {
		t.Errorf("GET after DELETE: %v", err)
	}
	// Continuing a response that is not kept: 400 previous_response_not_found.
	resp, b := post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","previous_response_id":"resp_nope","input":"hi"}`)
	e := decodeError(t, b)
	if resp.StatusCode != 400 || *e.Error.Code != "previous_response_not_found" || *e.Error.Param != "previous_response_id" {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
	// store: false is not kept.
	_, b = post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","store":false,"input":"hi"}`)
	id := string(object(t, b)["id"])
	resp, _ = post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","previous_response_id":`+id+`,"input":"what is the code word?"}`)
	if resp.StatusCode != 400 {
		t.Errorf("a store:false response was continued over HTTP: %d", resp.StatusCode)
	}
	// A tool output that answers no call of the chain is refused.
	resp, b = post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","previous_response_id":"`+second.ID+`","input":[{"type":"function_call_output","call_id":"call_x","output":"?"}]}`)
	if resp.StatusCode != 400 || !strings.Contains(string(b), "call_x") {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
}

func asError(err error, target **openai.Error) bool {
	e, ok := err.(*openai.Error)
	if ok {
		*target = e
	}
	return ok
}

// Conversations keep their items; a response in a conversation sees them and adds to them.
func TestConversations(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, `
rules:
  - when: {user_matches: "name"}
    reply: {text: "Alice"}
`))
	resp, b := post(t, srv.BaseURL()+"/conversations", `{"items":[{"type":"message","role":"user","content":"My name is Alice."}],"metadata":{"topic":"t"}}`)
	c := object(t, b)
	if resp.StatusCode != 200 || string(c["object"]) != `"conversation"` || string(c["metadata"]) != `{"topic":"t"}` {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var id string
	json.Unmarshal(c["id"], &id)
	_, b = post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","conversation":"`+id+`","input":"What is my name?"}`)
	r := object(t, b)
	if !strings.Contains(string(r["output"]), "Alice") || string(r["conversation"]) != `{"id":"`+id+`"}` {
		t.Errorf("response: %s", b)
	}
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID, Type, Role string
		} `json:"data"`
		HasMore bool `json:"has_more"`
	}
	getJSON(t, srv.BaseURL()+"/conversations/"+id+"/items?order=asc", &list)
	var roles []string
	for _, it := range list.Data {
		if it.ID == "" {
			t.Errorf("an item without an id: %+v", it)
		}
		roles = append(roles, it.Role)
	}
	if d := cmp.Diff([]string{"user", "user", "assistant"}, roles); d != "" || list.Object != "list" {
		t.Errorf("items (-want +got)\n%s", d)
	}
	resp, _ = post(t, srv.BaseURL()+"/conversations/"+id+"/items", `{"items":[{"type":"message","role":"user","content":"more"}]}`)
	if resp.StatusCode != 200 {
		t.Errorf("append: %d", resp.StatusCode)
	}
	if resp, _ := post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","conversation":"conv_nope","input":"x"}`); resp.StatusCode != 404 {
		t.Errorf("unknown conversation: %d", resp.StatusCode)
	}
}

// /responses/compact gives the user's messages back and one compaction item with the script's
// summary; a later request that sends it back is answered.
func TestCompact(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, "compaction: \"We launch Tuesday.\"\nreplies: [{text: ok}]\n"))
	resp, b := post(t, srv.BaseURL()+"/responses/compact", `{"model":"fake-model","input":[{"role":"user","content":"Launch Tuesday?"},{"role":"assistant","content":"Yes."}]}`)
	m := object(t, b)
	if resp.StatusCode != 200 || string(m["object"]) != `"response.compaction"` {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var out []struct {
		Type string `json:"type"`
	}
	json.Unmarshal(m["output"], &out)
	if len(out) != 2 || out[1].Type != "compaction" || !strings.Contains(string(m["output"]), "We launch Tuesday.") {
		t.Errorf("output %s", m["output"])
	}
	if resp, _ := post(t, srv.BaseURL()+"/responses/compact", `{"input":"x"}`); resp.StatusCode != 400 {
		t.Errorf("no model: %d", resp.StatusCode)
	}
}

// The WebSocket mode, through the official SDK: turns one after another on one connection, a
// store:false continuation on the same connection, previous_response_not_found on another, and
// each turn recorded with its messages and their times.
func TestResponsesWebSocket(t *testing.T) {
	srv, path, w := recorded(t, fakeprovider.Config{Script: mustParse(t, `
replies:
  - {text: "first", chunk: 2}
  - {text: "OK"}
rules:
  - when: {user_matches: "code word"}
    reply: {text: "cobalt"}
`)})
	client := sdkClient(srv)
	ctx := t.Context() // no bound of its own: go test's -timeout catches a hang
	conn, err := client.Responses.Connect(ctx, responses.ResponseConnectionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(c *responses.ResponseConnection, msg string) (types []string, final map[string]json.RawMessage, errEv map[string]json.RawMessage) {
		t.Helper()
		if err := c.SendRaw(ctx, json.RawMessage(msg)); err != nil {
			t.Fatal(err)
		}
		for {
			raw, err := c.RecvRaw(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var ev map[string]json.RawMessage
			json.Unmarshal(raw, &ev)
			var typ string
			json.Unmarshal(ev["type"], &typ)
			types = append(types, typ)
			switch typ {
			case "response.completed":
				return types, object(t, ev["response"]), nil
			case "error":
				return types, nil, ev
			}
		}
	}
	// codex's warm-up: generate false, no input; answered with no output, using up no reply.
	_, w0, _ := turn(conn, `{"type":"response.create","model":"fake-model","input":[],"generate":false,"stream":true}`)
	if string(w0["output"]) != "[]" {
		t.Errorf("warm-up: %s", w0["output"])
	}
	types, r1, _ := turn(conn, `{"type":"response.create","model":"fake-model","store":false,"previous_response_id":`+string(w0["id"])+`,"input":"Reply with exactly: first"}`)
	if types[0] != "response.created" || len(types) < 8 || !strings.Contains(string(r1["output"]), `"first"`) {
		t.Errorf("turn 1: %v %s", types, r1["output"])
	}
	_, r2, _ := turn(conn, `{"type":"response.create","model":"fake-model","store":false,"previous_response_id":`+string(r1["id"])+`,"input":"What is the code word?"}`)
	if !strings.Contains(string(r2["output"]), "cobalt") || string(r2["previous_response_id"]) != string(r1["id"]) {
		t.Errorf("continuation: %s", r2)
	}
	conn.Close()
	conn2, err := client.Responses.Connect(ctx, responses.ResponseConnectionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, e := turn(conn2, `{"type":"response.create","model":"fake-model","store":false,"previous_response_id":`+string(r2["id"])+`,"input":"again"}`)
	if e == nil || string(e["status"]) != "400" || !strings.Contains(string(e["error"]), `"code":"previous_response_not_found"`) {
		t.Errorf("another connection: %s", e)
	}
	conn2.Close()
	es := readBack(t, srv, w, path)
	var turns int
	for _, x := range es {
		if x.Exchange.Transport != "websocket" {
			continue
		}
		turns++
		if x.Exchange.Method != "POST" || x.Exchange.Response == nil || !x.Exchange.Response.WebSocket || len(x.Exchange.Response.Chunks) == 0 {
			t.Errorf("turn %d recorded as %+v", x.Exchange.Seq, x.Exchange)
			continue
		}
		if !strings.HasPrefix(string(x.Body), `{"type":"response.create"`) {
			t.Errorf("request body %s", x.Body)
		}
		if x.Exchange.Conn == 0 {
			t.Errorf("turn %d has no connection number", x.Exchange.Seq)
		}
	}
	if turns != 4 {
		t.Errorf("%d WebSocket turns recorded, want 4", turns)
	}
	var first *replay.Entry
	for i := range es {
		if es[i].Exchange.Transport == "websocket" && !strings.Contains(string(es[i].Body), `"generate":false`) {
			first = &es[i]
			break
		}
	}
	rep, err := first.Exchange.Response.Reply()
	if err != nil || rep.Text != "first" {
		t.Errorf("the first recorded turn reads back as %+v (%v)", rep, err)
	}
	// The continuation on the same connection reads back whole: the earlier turn before it.
	var cont *replay.Entry
	for i := range es {
		if strings.Contains(string(es[i].Body), "code word") {
			cont = &es[i]
		}
	}
	if cont == nil || cont.Prompt == nil || !strings.Contains(string(cont.Prompt), "Reply with exactly: first") ||
		!strings.Contains(string(cont.Prompt), `"text":"first"`) || strings.Contains(string(cont.Prompt), "previous_response_id") {
		t.Errorf("the continuation's prompt: %s", cont.Prompt)
	}
}

// context_management's compaction threshold reached: the output starts with a compaction
// item; input_matches sees the turns a request continues.
func TestAutoCompactionAndInputMatches(t *testing.T) {
	srv := fakeprovidertest.New(t, mustParse(t, `
rules:
  - when: {input_matches: "code is 2468", user_matches: "What is the code"}
    reply: {text: "2468"}
default: {}
`))
	_, b := post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","input":"Remember the code is 2468."}`)
	id := string(object(t, b)["id"])
	_, b = post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","previous_response_id":`+id+`,"context_management":[{"type":"compaction","compact_threshold":1}],"input":"OK?"}`)
	var r struct {
		ID     string `json:"id"`
		Output []struct {
			Type string `json:"type"`
		} `json:"output"`
	}
	json.Unmarshal(b, &r)
	if len(r.Output) < 2 || r.Output[0].Type != "compaction" {
		t.Fatalf("output %s", b)
	}
	_, b = post(t, srv.BaseURL()+"/responses", `{"model":"fake-model","previous_response_id":"`+r.ID+`","input":"What is the code?"}`)
	if !strings.Contains(string(b), `"text":"2468"`) {
		t.Errorf("the rule did not see the earlier turns: %s", b)
	}
}
