package live

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
)

// rpcMsg is one line an RPC agent writes (pi's --mode rpc, docs/live.md): a command's response
// (type "response", the command's id) or an event (agent_end carries the prompt's messages).
type rpcMsg struct {
	Type     string            `json:"type"`
	ID       string            `json:"id"`
	Command  string            `json:"command"`
	Success  bool              `json:"success"`
	Error    string            `json:"error"`
	Messages []json.RawMessage `json:"messages"`
	err      error
}

// rpcConn is the runner's side of an RPC agent's stdio.
type rpcConn struct {
	in      io.Writer
	lines   <-chan rpcMsg
	after   func(time.Duration) <-chan time.Time
	timeout time.Duration // a prompt's bound; every other command has min(a minute, it)
	n       int
}

// maxRPCLine bounds a line of an RPC agent's output, as MaxAnswerLine does an adapter's.
const maxRPCLine = 16 << 20

// readRPC sends each line of out on the channel until out ends or done closes. Lines are split
// on LF alone (a JSON string may hold U+2028, which some line readers split on), a trailing CR
// dropped; a line that is not a JSON object is a malformed message, and the last thing sent.
func readRPC(out io.Reader, lines chan<- rpcMsg, done <-chan struct{}) {
	defer close(lines)
	r := bufio.NewReaderSize(out, 64<<10)
	for n := 1; ; n++ {
		b, err := jsonx.ReadLine(r, maxRPCLine)
		if long := new(jsonx.LineTooLong); errors.As(err, &long) {
			select {
			case lines <- rpcMsg{err: &acp.Fault{Kind: acp.Malformed,
				Detail: fmt.Sprintf("line %d of its output is over %d MiB: %s…", n, maxRPCLine>>20,
					format.Quote(long.Head))}}:
			case <-done:
			}
			return
		}
		b = bytes.TrimSuffix(b, []byte("\r"))
		if len(bytes.TrimSpace(b)) > 0 {
			var m rpcMsg
			if jerr := json.Unmarshal(b, &m); jerr != nil || m.Type == "" {
				m = rpcMsg{err: &acp.Fault{Kind: acp.Malformed,
					Detail: fmt.Sprintf("line %d of its output is not an RPC message: %s", n, format.Quote(b))}}
			}
			select {
			case lines <- m:
			case <-done:
				return
			}
			if m.err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// call sends a command and waits for its response, and, for a prompt, for the agent_end that
// ends the prompt's turns: it returns that event.
func (c *rpcConn) call(ctx context.Context, cmd map[string]any) (end *rpcMsg, err error) {
	c.n++
	id := "lembas-" + strconv.Itoa(c.n)
	cmd["id"] = id
	kind := cmd["type"].(string)
	b, _ := jsonx.Marshal(cmd)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return nil, &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("the agent's input is closed (it exited?): %v", err)}
	}
	d := min(time.Minute, c.timeout)
	if kind == "prompt" {
		d = c.timeout
	}
	deadline := c.after(d)
	answered := false
	for {
		select {
		case m, ok := <-c.lines:
			switch {
			case !ok:
				return nil, &acp.Fault{Kind: acp.Died,
					Detail: fmt.Sprintf("the agent closed its output before ending its %s", kind)}
			case m.err != nil:
				return nil, m.err
			case m.Type == "response" && m.ID == id:
				if !m.Success {
					return nil, fmt.Errorf("the agent refused its %s: %s", kind, m.Error)
				}
				answered = true
			case m.Type == "agent_end" && kind == "prompt":
				end = &m
			}
			if answered && (kind != "prompt" || end != nil) {
				return end, nil
			}
		case <-deadline:
			return nil, &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("its %s did not end within %v", kind, d)}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// said is the text of the last assistant message a prompt's agent_end holds.
func (m *rpcMsg) said() string {
	for i := len(m.Messages) - 1; i >= 0; i-- {
		var msg struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Messages[i], &msg) != nil || msg.Role != "assistant" {
			continue
		}
		// Its text blocks; pi's thinking and toolCall blocks carry no "text".
		t, _ := chat.ContentText(msg.Content, "")
		return strings.TrimSpace(t)
	}
	return ""
}

// rpc drives the agent over its own JSON lines (the profile's rpc command), one process for the
// whole scenario as a person's interactive session: a clock moved between two prompts reaches the
// same process, which one-shot prompts (a new process each) cannot show.
func (d *driver) rpc(ctx context.Context) {
	argv, ok := d.ag.RPC()
	if !ok {
		d.r.Fault = &NotRun{fmt.Errorf("the %s profile has no rpc command: drive it one-shot", d.r.Profile.Name)}
		return
	}
	a, err := d.startStdio(argv)
	if err != nil {
		d.r.Fault = err
		return
	}
	lines, done := make(chan rpcMsg), make(chan struct{})
	go readRPC(teeReader{a.Out, &lineLog{w: d.tr, prefix: "< "}}, lines, done)
	c := &rpcConn{in: teeWriter{a.In, &lineLog{w: d.tr, prefix: "> "}}, lines: lines, after: d.o.After,
		timeout: d.o.StepTimeout}
	defer func() {
		d.endStdio(a) // pi exits when its input closes
		close(done)
	}()
	d.each(ctx, func(sr StepRun) (StepRun, error) {
		switch st := sr.Step; {
		case st.Prompt != "":
			end, err := c.call(ctx, map[string]any{"type": "prompt", "message": st.Prompt})
			if err == nil {
				sr.Said = end.said()
			}
			return sr, err
		case st.Compact:
			_, err := c.call(ctx, map[string]any{"type": "compact"})
			return sr, err
		default:
			return sr, &acp.Unsupported{What: st.String(),
				Why: "over RPC the runner makes only prompts and a compaction (drive the agent with --acp where it " +
					"has ACP)"}
		}
	})
}
