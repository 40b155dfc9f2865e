package recdiff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/cachebench/audit"
	"github.com/LLeMbas/lembas-check/internal/cachebench/tokens"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// request is one prompt request of a side, as the comparison reads it.
type request struct {
	ref  Ref
	path string
	r    *chat.Request
	// sys, tools and msgs are the parts masked (normalise.go), in the request's order.
	sys, tools, msgs []masked
	// params are the top-level members that are no part of the prompt, masked, by name.
	params map[string]masked
	names  []string
	// headers are the request's headers, names in lower case.
	headers map[string]string
	marks   []string
	// prompt is the masked body's tokens: what the two sides share, cosmetic differences set aside.
	prompt tokens.Prompt
	key    string
}

// promptFields are the top-level members a prompt is made of (and the model), compared part by
// part rather than as parameters.
var promptFields = map[string]bool{"messages": true, "input": true, "instructions": true, "system": true,
	"tools": true, "contents": true, "systemInstruction": true, "system_instruction": true, "model": true}

// read reads a recording's prompt requests, audits them (the prefix the side keeps) and masks
// them for the comparison. Damage in the file, or a prompt request it cannot read, is an error
// naming the file and line: a comparison with a request left out would pair the rest wrongly.
func read(ctx context.Context, file string, tk tokens.Tokenizer, o audit.Options) (Side, []*request, error) {
	rd, f, err := replay.OpenFile(file)
	if err != nil {
		return Side{}, nil, err
	}
	defer f.Close()
	au, err := audit.New(o)
	if err != nil {
		return Side{}, nil, err
	}
	side := Side{File: file, Kind: rd.Kind}
	var out []*request
	for {
		if err := ctx.Err(); err != nil {
			return side, nil, err
		}
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return side, nil, err // a *replay.LineError names the file and line
		}
		q, err := au.Add(ctx, e)
		var ue *audit.UnreadableError
		if errors.As(err, &ue) {
			return side, nil, fmt.Errorf("%s:line %d (request %d): not a request the comparison can read: %s", file,
				ue.Line, ue.Seq, ue.Problem.Error)
		}
		if err != nil {
			return side, nil, fmt.Errorf("%s: %v", file, err)
		}
		if q == nil {
			continue // not a prompt
		}
		rq, err := newRequest(ctx, e, q, tk)
		if err != nil {
			return side, nil, fmt.Errorf("%s:line %d (request %d): %v", file, e.Line, e.Exchange.Seq, err)
		}
		out = append(out, rq)
	}
	side.Requests = len(out)
	side.Audit = au.Report().Totals
	return side, out, nil
}

func newRequest(ctx context.Context, e replay.Entry, q *audit.Request, tk tokens.Tokenizer) (*request, error) {
	body := e.Prompt
	if body == nil {
		body = e.Body
	}
	r, err := chat.ParsePath(e.Exchange.Path, body) // the audit read it: it parses
	if err != nil {
		return nil, err
	}
	rq := &request{path: e.Exchange.Path, r: r, params: map[string]masked{}, headers: map[string]string{},
		marks: q.Breakpoints, ref: Ref{Seq: q.Seq, Line: e.Line, PromptTokens: q.PromptTokens,
			Reusable: q.ReusableTokens,
			Model:    q.Model}}
	var edits []chat.Edit
	each := func(ps []chat.Part) []masked {
		out := make([]masked, len(ps))
		for i, p := range ps {
			out[i] = mask(p.Content())
			edits = append(edits, chat.Replace(p, out[i].all))
		}
		return out
	}
	rq.sys, rq.tools, rq.msgs = each(r.System), each(r.Tools), each(r.Messages)
	keys, vals, err := chat.Members(body)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		if !promptFields[k] {
			rq.names = append(rq.names, k)
			rq.params[k] = mask(vals[i])
		}
	}
	for k, v := range e.Exchange.Request.Headers {
		rq.headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	mb := chat.Splice(body, edits)
	mr, err := chat.ParsePath(e.Exchange.Path, mb)
	if err != nil {
		return nil, fmt.Errorf("the request with its ids and times masked: %v", err)
	}
	if rq.prompt, err = tk.Prompt(ctx, mb, mr); err != nil {
		return nil, fmt.Errorf("tokenizing: %v", err)
	}
	rq.key = pairKey(r)
	return rq, nil
}

// pairKey is what pairs requests when the two sides sent different numbers of them: the API and
// the texts of the messages a person wrote (not tools' results), each cut to its letters and
// digits in lower case, so that one agent quoting the prompt and another not still pair, and a
// title request (which asks its own question first) pairs with none.
func pairKey(r *chat.Request) string {
	var texts []string
	for _, m := range r.Messages {
		if m.Role != "user" || chat.IsToolResult(m.Raw) {
			continue
		}
		t := strings.Join(chat.MessageTexts(m.Raw), "\n")
		texts = append(texts, strings.Map(func(c rune) rune {
			if unicode.IsLetter(c) || unicode.IsDigit(c) {
				return unicode.ToLower(c)
			}
			return -1
		}, t))
	}
	return r.API + "\x00" + strings.Join(texts, "|")
}
