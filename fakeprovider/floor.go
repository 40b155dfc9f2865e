package fakeprovider

import (
	"context"
	"sync"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/api/wire"
	"github.com/LLeMbas/lembas-check/internal/cachebench/cachesim"
)

// The floor build (go test -tags lembasfloor) answers each distinct body as it answered it the
// first time: its decoding, its usage and its rendered stream are kept by the body's bytes, so
// what is left of a request is the fake's plumbing (routing, the recording's hooks, metrics,
// writes). It is for measuring only (every stream repeats the first one's id and time):
// docs/performance.md sets it beside the bare handler to show how much of the gap to a bare
// server is the fake's own work at all. In the default build floor is false and none of this
// is reached.
var floorReqs, floorUsage, floorFrames sync.Map

func floorDecode(decode func([]byte) (*wire.Request, *wire.Error)) func([]byte) (*wire.Request, *wire.Error) {
	return func(body []byte) (*wire.Request, *wire.Error) {
		if v, ok := floorReqs.Load(string(body)); ok {
			return v.(*wire.Request), nil
		}
		r, e := decode(body)
		if e == nil {
			floorReqs.Store(string(body), r)
		}
		return r, e
	}
}

func floorServe(ctx context.Context, c *cachesim.Cache, body []byte, parts *chat.Request) (cachesim.Result, error) {
	if v, ok := floorUsage.Load(string(body)); ok {
		return v.(cachesim.Result), nil
	}
	r, err := c.ServeParsed(ctx, body, parts)
	if err == nil {
		floorUsage.Store(string(body), r)
	}
	return r, err
}

func floorStream(body []byte, m wire.Meta, a wire.Answer, u wire.Usage, includeUsage bool) [][]byte {
	if v, ok := floorFrames.Load(string(body)); ok {
		return v.([][]byte)
	}
	frames, _ := wire.AppendChatStream(nil, m, a, u, includeUsage)
	floorFrames.Store(string(body), frames)
	return frames
}
