package live

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
)

// lineLog writes what passes through it into a transcript a line at a time, each line behind
// its prefix ("> " sent, "< " received, as the ACP transcript has them); a line cut between two
// writes waits for its end, and Flush writes what is left.
type lineLog struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	part   []byte
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.line(l.part[:i])
		l.part = l.part[i+1:]
	}
}

// Flush writes a last line that had no newline.
func (l *lineLog) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.part) > 0 {
		l.line(l.part)
		l.part = nil
	}
}

func (l *lineLog) line(b []byte) {
	if len(bytes.TrimSpace(b)) == 0 {
		return
	}
	var out bytes.Buffer
	out.WriteString(l.prefix)
	out.Write(bytes.TrimSuffix(b, []byte("\r")))
	out.WriteByte('\n')
	l.w.Write(out.Bytes())
}

// teeReader is r, each line read from it written into the transcript behind "< ".
type teeReader struct {
	r   io.Reader
	log *lineLog
}

func (t teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.log.Write(p[:n])
	if err != nil {
		t.log.Flush()
	}
	return n, err
}

// teeWriter is w, each line written to it written into the transcript behind "> " first.
type teeWriter struct {
	w   io.Writer
	log *lineLog
}

func (t teeWriter) Write(p []byte) (int, error) {
	t.log.Write(p)
	return t.w.Write(p)
}

// commandLine is a one-shot prompt's command as its transcript says it: "$ " and the words,
// each quoted that needs it.
func commandLine(argv []string) string {
	var words []string
	for _, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`") {
			a = fmt.Sprintf("%q", a)
		}
		words = append(words, a)
	}
	return "$ " + strings.Join(words, " ") + "\n"
}

// RunLogged is RunOnce with the command in transcript tr (nil: none): "$ " and its words, what
// it printed on stdout behind "< ", and how it ended after "= ", as the live driver and the live
// target both keep a one-shot agent's.
func RunLogged(ctx context.Context, argv []string, o Once, tr io.Writer) (left string, err error) {
	if tr == nil {
		return RunOnce(ctx, argv, o)
	}
	io.WriteString(tr, commandLine(argv))
	said := &lineLog{w: tr, prefix: "< "}
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	o.Stdout = io.MultiWriter(o.Stdout, said)
	left, err = RunOnce(ctx, argv, o)
	said.Flush()
	end := "exit 0"
	if err != nil {
		end = err.Error()
	}
	fmt.Fprintf(tr, "= %s\n", end)
	return left, err
}
