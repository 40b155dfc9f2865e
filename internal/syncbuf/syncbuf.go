// Package syncbuf holds Buffer, a bytes.Buffer one goroutine may write while another reads it
// (a process's or a printer's output, read as it comes), and Writer, a writer several goroutines
// may write at once (a transcript, a command's stderr).
package syncbuf

import (
	"bytes"
	"io"
	"sync"
)

// Buffer is a bytes.Buffer behind a mutex. The zero value is empty and ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Len is how many bytes were written so far.
func (b *Buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Len()
}

// Writer passes each write on to the writer it wraps whole, one at a time.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (l *Writer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
