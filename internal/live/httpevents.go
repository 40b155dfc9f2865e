package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/LLeMbas/lembas-check/internal/format"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/live/agents"
	"github.com/LLeMbas/lembas-check/internal/replay"
)

// eventStream is a server's event stream, read as it comes: each event decoded once and handed
// on in order; the channel closes when the stream ends (err says why).
type eventStream struct {
	c    chan event
	stop context.CancelFunc
	mu   sync.Mutex
	err  error
}

type event struct {
	v   any
	raw []byte
}

// listen opens the profile's event stream, bounded until it answers; its events are read from
// then on, for the session's life.
func (s *HTTPSession) listen(ctx context.Context) error {
	path, _ := s.vars.FillRequest(&agents.Request{Method: "GET", Path: s.h.Events.Path}, s.extra, url.PathEscape)
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	req, _ := http.NewRequestWithContext(sctx, http.MethodGet, s.base+path, nil)
	req.Header.Set("Accept", "text/event-stream")
	fmt.Fprintf(s.o.Transcript, "> GET %s (the event stream)\n", path)
	type answer struct {
		resp *http.Response
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := s.hc.Do(req)
		got <- answer{resp, err}
	}()
	var a answer
	select {
	case a = <-got:
	case <-s.o.After(s.o.Short):
		stop()
		return &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("its event stream (GET %s) did not answer within %v",
			path, s.o.Short)}
	case <-ctx.Done():
		stop()
		return ctx.Err()
	}
	if a.err != nil {
		stop()
		return &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("its event stream (GET %s): %v", path, a.err)}
	}
	if a.resp.StatusCode/100 != 2 {
		a.resp.Body.Close()
		stop()
		return fmt.Errorf("its event stream (GET %s) answered %s", path, a.resp.Status)
	}
	ev := &eventStream{c: make(chan event, 256), stop: stop}
	s.ev = ev
	go func() {
		defer a.resp.Body.Close()
		err := replay.EachEvent(a.resp.Body, func(data []byte) error {
			var v any
			if json.Unmarshal(data, &v) != nil {
				return nil // a comment or keep-alive of another shape: not an event of the profile's
			}
			select {
			case ev.c <- event{v, data}:
				return nil
			case <-sctx.Done():
				return sctx.Err()
			}
		})
		ev.mu.Lock()
		ev.err = err
		ev.mu.Unlock()
		close(ev.c)
	}()
	return nil
}

// drain drops what came before a turn's request: the events of the turns before it.
func (e *eventStream) drain() {
	if e == nil {
		return
	}
	for {
		select {
		case _, ok := <-e.c:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

func (e *eventStream) ended() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		return fmt.Errorf("the server closed it")
	}
	return e.err
}

// turnEvents reads the event stream to the turn's end (events.end), bounded by d: the text the
// said events add (the last group's, with said.by), or the error an error event names.
func (s *HTTPSession) turnEvents(ctx context.Context, what string, d time.Duration) (string, error) {
	e := s.h.Events
	deadline := s.o.After(d)
	var said strings.Builder
	group := ""
	for {
		var ev event
		var ok bool
		select {
		case ev, ok = <-s.ev.c:
		case <-deadline:
			return said.String(), &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("its %s's end (an event of "+
				"events.end) did not come within %v", what, d)}
		case <-ctx.Done():
			return said.String(), ctx.Err()
		}
		if !ok {
			return said.String(), &acp.Fault{Kind: acp.Died, Detail: fmt.Sprintf("its event stream ended before "+
				"its %s did: %v", what, s.ev.ended())}
		}
		if !s.meets(ev.v, e.Where) {
			continue
		}
		fmt.Fprintf(s.o.Transcript, "< event %s\n", ev.raw)
		if p := e.Error; p != nil && s.meets(ev.v, p.When) {
			msg, _ := selectPath(ev.v, s.vars.Fill(fillExtra(p.Read, s.extra)))
			return said.String(), fmt.Errorf("its %s failed, the server said: %s", what, format.Quote([]byte(msg)))
		}
		if p := e.Said; p != nil && s.meets(ev.v, p.When) {
			text, _ := selectPath(ev.v, s.vars.Fill(fillExtra(p.Read, s.extra)))
			if p.By != "" {
				if g, _ := selectPath(ev.v, s.vars.Fill(fillExtra(p.By, s.extra))); g != group {
					group = g
					said.Reset()
				}
			}
			said.WriteString(text)
		}
		if s.meets(ev.v, e.End) {
			return said.String(), nil
		}
	}
}

// turnPoll sends the poll request until its answer says the turn has ended (poll.until, and
// poll.changed no longer what it was before the prompt), waiting poll.every between two,
// bounded by d; the turn's answer is the last answer's read.said.
func (s *HTTPSession) turnPoll(ctx context.Context, before string, d time.Duration) (string, error) {
	p := s.h.Poll
	deadline := s.o.After(d)
	for {
		got, b, err := s.do(ctx, "poll", &p.Request, s.o.Short)
		if err != nil {
			return "", err
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			return "", &acp.Fault{Kind: acp.Malformed, Detail: fmt.Sprintf("its poll (%s %s) answered no JSON: %s",
				p.Method, p.Path, format.Quote(b))}
		}
		if s.meets(v, p.Until) {
			now, _ := selectPath(v, s.vars.Fill(fillExtra(p.Changed, s.extra)))
			if p.Changed == "" || now != before {
				return got["said"], nil
			}
		}
		select {
		case <-s.o.Tick(p.Interval()):
		case <-deadline:
			return "", &acp.Fault{Kind: acp.Hung, Detail: fmt.Sprintf("its poll (%s %s) did not say the turn "+
				"ended within %v", p.Method, p.Path, d)}
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
