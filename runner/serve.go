package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/LLeMbas/lembas-check/conformance"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
)

// maxRequestLine bounds a request line Serve reads; a case is far smaller.
const maxRequestLine = 64 << 20

// Serve is the other end of the protocol: it answers requests read from in on out with target t,
// until bye or the end of in. `lembas-check adapter` is Serve with the builtin reference, so the
// whole adapter path can be checked against the builtin case by case.
//
// A request it cannot use (not JSON, an unknown cmd, a run without a case) is answered with an
// "error" naming the request's line, and serving goes on; only a line over 64 MiB or a broken
// stream ends it with an error.
func Serve(ctx context.Context, in io.Reader, out io.Writer, t Target) error {
	info, err := t.Start(ctx)
	if err != nil {
		return err
	}
	defer t.Close()
	rd := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for n := 1; ; n++ {
		line, err := jsonx.ReadLine(rd, maxRequestLine)
		var long *jsonx.LineTooLong
		switch {
		case errors.As(err, &long):
			return fmt.Errorf("request line %d is over %d MiB: %s…", n, maxRequestLine>>20, format.Quote(long.Head))
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil
		case err != nil && !errors.Is(err, io.EOF):
			return fmt.Errorf("reading request line %d: %v", n, err)
		}
		reply, bye := handle(ctx, t, info, line, n)
		if bye {
			return nil
		}
		w.Write(reply)
		w.WriteByte('\n')
		if err := w.Flush(); err != nil {
			return fmt.Errorf("writing the answer to request line %d: %v", n, err)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

type request struct {
	Cmd         string          `json:"cmd"`
	Protocol    *int            `json:"protocol"`
	HarnessSpec string          `json:"harness_spec"`
	Seq         *int64          `json:"seq"`
	Area        string          `json:"area"`
	Case        json.RawMessage `json:"case"`
}

type reply struct {
	Seq    *int64          `json:"seq,omitempty"`
	Answer json.RawMessage `json:"answer,omitempty"`
	Skip   *string         `json:"skip,omitempty"`
	Error  *string         `json:"error,omitempty"`
}

type helloReply struct {
	Protocol       int             `json:"protocol"`
	Implementation *Implementation `json:"implementation,omitempty"`
	Areas          []string        `json:"areas,omitempty"`
	Error          string          `json:"error,omitempty"`
}

// handle answers one request line (n counts lines from 1, for messages). bye is true for bye.
func handle(ctx context.Context, t Target, info TargetInfo, line []byte, n int) (answer []byte, bye bool) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return mustJSON(reply{Error: ptr(fmt.Sprintf("request line %d is not a protocol message (%v): %s", n, err,
			format.Quote(line)))}), false
	}
	switch req.Cmd {
	case "hello":
		if req.Protocol == nil || *req.Protocol != Protocol {
			got := "none"
			if req.Protocol != nil {
				got = fmt.Sprint(*req.Protocol)
			}
			return mustJSON(helloReply{Protocol: Protocol,
				Error: fmt.Sprintf("this adapter speaks protocol %d; the runner asked for %s", Protocol, got)}), false
		}
		return mustJSON(helloReply{Protocol: Protocol, Implementation: &info.Implementation, Areas: info.Areas}), false
	case "bye":
		return nil, true
	case "run":
		if req.Seq == nil {
			return mustJSON(reply{Error: ptr(fmt.Sprintf("request line %d: a run request without seq", n))}), false
		}
		if req.Area == "" || len(req.Case) == 0 {
			return mustJSON(reply{Seq: req.Seq,
				Error: ptr(fmt.Sprintf("request line %d: a run request needs area and case", n))}), false
		}
		out := t.Answer(ctx, conformance.Case{Label: conformance.Label{Area: req.Area}, Input: req.Case})
		r := reply{Seq: req.Seq}
		switch out.Verdict {
		case "":
			r.Answer = out.Answer
		case Skip:
			r.Skip = &out.Message
		default:
			r.Error = &out.Message
		}
		b, err := json.Marshal(r)
		if err != nil {
			b = mustJSON(reply{Seq: req.Seq, Error: ptr("the answer cannot be written as JSON: " + err.Error())})
		}
		return b, false
	}
	return mustJSON(reply{Seq: req.Seq,
		Error: ptr(fmt.Sprintf("request line %d: unknown cmd %q (want hello, run or bye)", n, req.Cmd))}), false
}

func ptr[T any](v T) *T { return &v }

// mustJSON marshals a reply made only of strings and numbers, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
