package wire

// Event is one server-sent event as OpenAI's and Anthropic's streams frame them: `event: typ`
// (no such line for ""), the data on one line, a blank line.
func Event(typ string, data []byte) []byte {
	b := make([]byte, 0, len(typ)+len(data)+16)
	if typ != "" {
		b = append(b, "event: "...)
		b = append(b, typ...)
		b = append(b, '\n')
	}
	b = append(b, "data: "...)
	b = append(b, data...)
	return append(b, '\n', '\n')
}

// GeminiEvent is one event of a Gemini stream (alt=sse): the data alone, ended by CRLF CRLF, as
// Gemini ends each.
func GeminiEvent(data []byte) []byte {
	b := make([]byte, 0, len(data)+10)
	b = append(b, "data: "...)
	b = append(b, data...)
	return append(b, "\r\n\r\n"...)
}
