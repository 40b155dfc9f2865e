package replay

import "github.com/LLeMbas/lembas-check/internal/replay/redact"

// scrub replaces the secrets of an exchange before it is written: in its path (a ?key= query),
// its headers' values, the request body raw (returned scrubbed) and the response, a stream's
// chunks joined to find a secret split across them and split again with their timing kept.
func scrub(r *redact.Rules, x *Exchange, raw []byte) []byte {
	if r == nil {
		return raw
	}
	c := redact.Counts{}
	x.Path = r.Text(x.Path, c)
	scrubHeaders(r, x.Request.Headers, c)
	raw = r.Body(raw, c)
	if resp := x.Response; resp != nil {
		scrubHeaders(r, resp.Headers, c)
		if resp.Body != nil {
			resp.Body = r.Body(resp.Body, c)
		}
		if resp.BodyText != nil {
			t := r.Text(*resp.BodyText, c)
			resp.BodyText = &t
		}
		if len(resp.Chunks) > 0 {
			data := make([]string, len(resp.Chunks))
			for i, ch := range resp.Chunks {
				data[i] = ch.Data
			}
			for i, d := range r.Stream(data, c) {
				resp.Chunks[i].Data = d
			}
		}
	}
	if len(c) > 0 {
		x.Scrubbed = c
	}
	return raw
}

func scrubHeaders(r *redact.Rules, h map[string][]string, c redact.Counts) {
	for k, vs := range h {
		for i, v := range vs {
			h[k][i] = r.Text(v, c)
		}
	}
}
