package jsonx

import (
	"bufio"
	"errors"
)

// headBytes is how much of a line over the limit LineTooLong keeps: 200 characters of up to 4
// bytes, as much as a message quotes (format.Quote).
const headBytes = 800

// LineTooLong is a line over ReadLine's limit: its start, and whether its end ("\n") was read too
// (else the rest is still unread).
type LineTooLong struct {
	Head  []byte
	Ended bool
}

func (e *LineTooLong) Error() string { return "line too long" }

// ReadLine reads one '\n'-terminated line of at most max bytes (without the newline), as a JSON
// lines protocol is read from a program that may print anything: the adapter protocol, both its
// ends, and an RPC agent's output. A line that fits the reader's buffer is returned without a
// copy, valid until the next read. Past max it stops and returns a *LineTooLong holding the
// line's start; at EOF it returns what it has and io.EOF.
func ReadLine(rd *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1]
		}
		if len(buf)+len(body) > max {
			// Keep the start only, copied: enough to quote.
			head := append([]byte(nil), buf[:min(len(buf), headBytes)]...)
			head = append(head, body[:min(len(body), headBytes-len(head))]...)
			return nil, &LineTooLong{Head: head, Ended: err == nil}
		}
		switch {
		case err == nil && buf == nil:
			return body, nil
		case err == nil:
			return append(buf, body...), nil
		case errors.Is(err, bufio.ErrBufferFull):
			buf = append(buf, chunk...)
		default:
			return append(buf, chunk...), err
		}
	}
}
