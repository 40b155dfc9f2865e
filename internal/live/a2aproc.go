package live

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync"
	"syscall"
	"time"

	"github.com/LLeMbas/lembas-check/internal/lazyre"
	"github.com/LLeMbas/lembas-check/internal/live/acp"
	"github.com/LLeMbas/lembas-check/internal/proc"
)

// printedURL is how an HTTP agent says where it listens: the first http URL with a port it
// prints, on stdout or stderr (`lembas-check agent --http`: "A2A on http://127.0.0.1:PORT"; the
// Gemini CLI's A2A server: "Agent Server started on http://localhost:PORT").
var printedURL = lazyre.New(`https?://[A-Za-z0-9.\-]+:[0-9]+`)

// urlWatch is a writer that finds the first printed URL in the lines written to it.
type urlWatch struct {
	once sync.Once
	url  chan string
}

func newURLWatch() *urlWatch { return &urlWatch{url: make(chan string, 1)} }

func (u *urlWatch) Write(b []byte) (int, error) {
	if m := printedURL().Find(b); m != nil {
		u.once.Do(func() { u.url <- string(m) })
	}
	return len(b), nil
}

// Server is an agent that serves HTTP for a whole session (A2A, an HTTP profile): its process
// on stdio (its stdin held open, as a person's terminal would be) and the URL it printed.
type Server struct {
	*Stdio
	URL string
}

// StartServer starts argv in dir with env under the process supervisor and waits, up to d on
// after, for the URL it prints; what it prints goes to stderr too. A server that exits or stays
// silent is a fault that says so, with what it printed last.
func StartServer(ctx context.Context, argv, env []string, dir string, stderr *proc.Tail, d time.Duration,
	after func(time.Duration) <-chan time.Time) (*Server, error) {
	w := newURLWatch()
	s, err := StartStdio(argv, env, dir, io.MultiWriter(stderr, w), grace)
	if err != nil {
		return nil, &NotRun{err}
	}
	go func() {
		sc := bufio.NewScanner(s.Out)
		for sc.Scan() {
			line := append(sc.Bytes(), '\n')
			stderr.Write(line)
			w.Write(line)
		}
	}()
	select {
	case u := <-w.url:
		return &Server{Stdio: s, URL: u}, nil
	case <-s.P.Exited():
		<-s.P.Done()
		s.Kill()
		return nil, &acp.Fault{Kind: acp.Died,
			Detail: fmt.Sprintf("%s exited (%s) before it printed where it listens; it printed:\n%s", argv[0],
				s.P.State(), stderr.String())}
	case <-after(d):
		s.Kill()
		return nil, &acp.Fault{Kind: acp.Hung,
			Detail: fmt.Sprintf("%s printed no http://HOST:PORT within %v; it printed:\n%s", argv[0], d,
				stderr.String())}
	case <-ctx.Done():
		s.Kill()
		return nil, ctx.Err()
	}
}

// End stops the server at once (TERM, then KILL after grace), with all it started: a server is
// not expected to exit when its input closes, as a stdio agent is. It returns how it ended and
// the line naming what it had left running ("" when nothing).
func (s *Server) End(whose string) (left string, err error) {
	s.In.Close()
	err = s.P.Stop(syscall.SIGTERM)
	s.Out.Close()
	return proc.Summary(s.P.Left(), whose), err
}
