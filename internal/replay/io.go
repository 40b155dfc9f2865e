package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/LLeMbas/lembas-check/internal/api/chat"
	"github.com/LLeMbas/lembas-check/internal/jsonx"
	"github.com/LLeMbas/lembas-check/internal/replay/redact"
)

// Writer appends to a recording. Each line goes out in one write as soon as its exchange is
// complete, so a process killed mid-session loses at most the exchange in flight; a blob is
// written just before the first exchange that needs it. Safe for concurrent use.
type Writer struct {
	mu    sync.Mutex
	w     io.Writer
	sync  func() error
	seen  map[string]bool
	seq   int
	lines int
	err   error
	rules *redact.Rules
}

// Create makes a new recording file and writes its header.
func Create(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f, h)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.sync = f.Sync
	return w, nil
}

// NewWriter writes a header to w and returns a Writer appending to it.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	h.Type, h.Format, h.Version = TypeHeader, Format, Version
	if h.Created.IsZero() {
		h.Created = time.Now().UTC()
	}
	if h.Rules == nil {
		h.Rules = redact.Builtin()
	}
	h.Redact = h.Rules.Kinds()
	rw := &Writer{w: w, seen: map[string]bool{}, rules: h.Rules}
	if err := rw.line(h); err != nil {
		return nil, err
	}
	return rw, nil
}

func (w *Writer) line(v any) error {
	// Not json.Marshal: it rewrites <, > and & inside a RawMessage as \u003c…, which changes a
	// stored body's bytes (every session note has < and >) so that it no longer hashes to
	// body_sha256, and a blob's data no longer hashes to its name.
	var buf bytes.Buffer
	if err := jsonx.NewEncoder(&buf).Encode(v); err != nil {
		return err
	}
	b := buf.Bytes() // Encode ends the line with '\n'
	if _, err := w.w.Write(b); err != nil {
		w.err = err
		return err
	}
	w.lines++
	return nil
}

// NextSeq reserves the next exchange number, in the order exchanges begin.
func (w *Writer) NextSeq() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	return w.seq
}

// Write records one exchange whose request body was raw: its blobs first, those not yet written,
// then the exchange. x.Request is filled from raw (headers are kept as set on x.Request).
func (w *Writer) Write(x Exchange, raw []byte) error {
	raw = scrub(w.rules, &x, raw)
	req, blobs := SplitBody(raw)
	req.Headers, req.Redacted = x.Request.Headers, x.Request.Redacted
	x.Request = req
	x.Type = TypeExchange
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if x.Seq == 0 {
		w.seq++
		x.Seq = w.seq
	}
	for _, b := range blobs {
		if w.seen[b.SHA256] {
			continue
		}
		if err := w.line(b); err != nil {
			return err
		}
		w.seen[b.SHA256] = true
	}
	return w.line(x)
}

// Sync flushes the file to disk, where the writer has one.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sync == nil {
		return nil
	}
	return w.sync()
}

// Close syncs and closes the file, where the writer made one.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.w.(io.Closer); ok {
		if w.sync != nil {
			w.sync()
		}
		return c.Close()
	}
	return nil
}

// credentialHeaders are left out of a recording, whatever their value.
var credentialHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
	"openai-organization", "openai-project", "x-goog-api-key"}

// CleanHeaders copies headers without the ones that carry credentials: the usual names, and any
// whose name says key, token, secret, auth or password. It returns the names it left out. A
// session or routing id (x-session-affinity, session-id) is no credential and is kept: it is
// what a server's cache routing reads.
func CleanHeaders(h http.Header) (map[string][]string, []string) {
	out := map[string][]string{}
	var redacted []string
	for k, v := range h {
		lk := strings.ToLower(k)
		if isCredential(lk) {
			redacted = append(redacted, lk)
			continue
		}
		out[k] = append([]string(nil), v...)
	}
	sortStrings(redacted)
	return out, redacted
}

func isCredential(lk string) bool {
	for _, c := range credentialHeaders {
		if lk == c {
			return true
		}
	}
	for _, w := range []string{"key", "token", "secret", "auth", "password"} {
		if strings.Contains(lk, w) {
			return true
		}
	}
	return false
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// Entry is one exchange as a reader gives it, with its exact request body.
type Entry struct {
	Exchange Exchange
	// Body is the request body exactly as received.
	Body []byte
	// Prompt, set only for a Responses request that continues a response recorded earlier
	// (previous_response_id), is the request as the model saw it: the earlier turns put before
	// its input. Nil: Body is the prompt.
	Prompt []byte
	// Line is the exchange's line number in the file.
	Line int
}

// LineError is a recording damaged at a line: everything before it has been read.
type LineError struct {
	File string
	Line int
	// Cut is true for a last line that ends without a newline: a write the process did not finish.
	Cut bool
	Err error
}

func (e *LineError) Error() string {
	where := fmt.Sprintf("line %d", e.Line)
	if e.File != "" {
		where = e.File + ":" + where
	}
	if e.Cut {
		return fmt.Sprintf("%s: the last line is cut short (the writer was stopped mid-line); everything before it "+
			"was read", where)
	}
	return fmt.Sprintf("%s: %v; everything before it was read", where, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Kind of input a reader found.
const (
	KindRecording  = "recording"
	KindRequestLog = "request log"
)

// Reader reads a recording, or a plain request log (one chat-completions request body per line),
// one exchange at a time: memory holds one line and the blobs, never the whole file.
type Reader struct {
	File   string
	Kind   string
	Header Header
	br     *bufio.Reader
	line   int
	blobs  map[string]json.RawMessage
	first  []byte
	err    error
	// The reorder window: exchanges read but not yet given, the seq given next, and the error
	// the file ended with, held until the window is empty.
	pending []Entry
	want    int
	endErr  error
	chains  chains
	// sums checks each body's SHA-256, resuming from what it shares with the one before.
	sums prefixSum
	// lastLine is the length of the last line read, to size the next long one.
	lastLine int
	// offset counts the bytes read, for progress by bytes (Offset).
	offset atomic.Int64
	// whole counts the exchange lines decoded whole by encoding/json, off the one-pass path.
	whole int
}

// Offset is how many bytes of the file the reader has read: how far it has got, for a progress
// line. Safe to call from another goroutine.
func (r *Reader) Offset() int64 { return r.offset.Load() }

// reorderWindow is how many exchanges a reader holds to give them in the order they began. A line
// is written when its exchange completes, so a stream that ends a moment before the next request
// is answered can be written after it; only exchanges in flight together can swap, and an agent
// has few of those at once.
const reorderWindow = 64

// maxLine bounds one line; a longer one is damage, not a request.
const maxLine = 256 << 20

// Open opens a recording or a request log.
func Open(path string) (*Reader, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := NewReader(f)
	if err != nil {
		f.Close()
		var le *LineError
		if errors.As(err, &le) {
			le.File = path
		}
		return nil, nil, err
	}
	r.File = path
	return r, f, nil
}

// NewReader looks at the first line to tell a recording (a header line) from a request log.
func NewReader(rd io.Reader) (*Reader, error) {
	r := &Reader{br: bufio.NewReaderSize(rd, 1<<16), blobs: map[string]json.RawMessage{}}
	for {
		b, err := r.readLine()
		if err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("empty: neither a recording nor a request log")
			}
			return nil, err
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var h Header
		if json.Unmarshal(b, &h) == nil && h.Type == TypeHeader && h.Format == Format {
			if h.Version > Version {
				return nil, fmt.Errorf("a recording of format version %d; this lembas-check reads up to %d: update "+
					"lembas-check", h.Version, Version)
			}
			r.Kind, r.Header = KindRecording, h
			return r, nil
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(b, &probe); err != nil {
			return nil, &LineError{Line: r.line, Err: fmt.Errorf("neither a recording header nor a request body: %v",
				err)}
		}
		if _, ok := probe["messages"]; !ok {
			if _, ok := probe["input"]; !ok {
				return nil, &LineError{Line: r.line,
					Err: fmt.Errorf("a request log line must be a chat-completions request body (with \"messages\")")}
			}
		}
		r.Kind, r.Header = KindRequestLog, Header{Type: TypeHeader, Format: Format, Version: Version, Source: "import"}
		r.first = b
		return r, nil
	}
}

// readLine reads one line, without its newline. A last line with no newline is a *LineError
// with Cut set, unless it is a whole JSON value (a file whose writer did not end it).
func (r *Reader) readLine() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if buf == nil && err == bufio.ErrBufferFull {
			// A line longer than the buffer: sized by the last one (a session's lines grow
			// slowly), so that it is not copied again as it grows.
			buf = make([]byte, 0, max(2*len(chunk), r.lastLine+r.lastLine/8))
		}
		buf = append(buf, chunk...)
		r.offset.Add(int64(len(chunk)))
		if len(buf) > maxLine {
			r.line++
			return nil, &LineError{Line: r.line, Err: fmt.Errorf("a line over %d MiB", maxLine>>20)}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(buf) == 0 {
				return nil, io.EOF
			}
			r.line++
			if json.Valid(bytes.TrimSpace(buf)) {
				return buf, nil
			}
			return nil, &LineError{Line: r.line, Cut: true, Err: io.ErrUnexpectedEOF}
		}
		if err != nil {
			return nil, err
		}
		r.line++
		r.lastLine = len(buf)
		return bytes.TrimRight(buf, "\r\n"), nil
	}
}

// Next returns the next exchange, io.EOF at the end, or a *LineError at damage (after which the
// reader stops: what follows a damaged line cannot be trusted to refer to blobs it has read).
// Exchanges come in the order they began (seq), as far as a window of reorderWindow exchanges
// can restore it; every exchange before damage is given before the error.
func (r *Reader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	e, err := r.next()
	if err != nil {
		var le *LineError
		if errors.As(err, &le) && le.File == "" {
			le.File = r.File
		}
		r.err = err
	}
	return e, err
}

func (r *Reader) next() (Entry, error) {
	if r.Kind == KindRequestLog {
		return r.nextLine()
	}
	if r.want == 0 {
		r.want = 1
	}
	for {
		for i, e := range r.pending {
			if e.Exchange.Seq == r.want || e.Exchange.Seq <= 0 {
				return r.give(i), nil
			}
		}
		if r.endErr != nil || len(r.pending) >= reorderWindow {
			if len(r.pending) == 0 {
				return Entry{}, r.endErr
			}
			// A seq that never came (its exchange was in flight when the writer stopped): go on
			// from the lowest one held.
			low := 0
			for i, e := range r.pending {
				if e.Exchange.Seq < r.pending[low].Exchange.Seq {
					low = i
				}
			}
			return r.give(low), nil
		}
		e, err := r.nextLine()
		if err != nil {
			r.endErr = err
			continue
		}
		r.pending = append(r.pending, e)
	}
}

// give takes the i-th held exchange out of the window.
func (r *Reader) give(i int) Entry {
	e := r.pending[i]
	r.pending = append(r.pending[:i], r.pending[i+1:]...)
	if e.Exchange.Seq >= r.want {
		r.want = e.Exchange.Seq + 1
	}
	e.Prompt = r.chains.prompt(&e)
	return e
}

// nextLine reads lines up to the next exchange, in file order.
func (r *Reader) nextLine() (Entry, error) {
	for {
		var b []byte
		if r.first != nil {
			b, r.first = r.first, nil
		} else {
			var err error
			if b, err = r.readLine(); err != nil {
				return Entry{}, err
			}
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if r.Kind == KindRequestLog {
			if !json.Valid(b) {
				return Entry{}, &LineError{Line: r.line, Err: fmt.Errorf("not a JSON request body")}
			}
			n := r.line
			req, _ := SplitBody(b)
			return Entry{Exchange: Exchange{Type: TypeExchange, Seq: n, Method: http.MethodPost, Path: pathOf(b),
				Request: req}, Body: append([]byte(nil), b...), Line: n}, nil
		}
		typ, err := lineType(b)
		if err != nil {
			return Entry{}, &LineError{Line: r.line, Err: err}
		}
		switch typ {
		case TypeBlob:
			var bl Blob
			if err := json.Unmarshal(b, &bl); err != nil {
				return Entry{}, &LineError{Line: r.line, Err: err}
			}
			if sum(bl.Data) != bl.SHA256 {
				return Entry{}, &LineError{Line: r.line, Err: fmt.Errorf("blob %s does not hash to its name",
					short(bl.SHA256))}
			}
			r.blobs[bl.SHA256] = bl.Data
		case TypeExchange:
			if x, refs, ok := decodeExchange(b); ok {
				if body, ok := joinRefs(x.Request.Body, refs, r.blobs); ok && r.sums.sum(body) == x.Request.BodySHA256 {
					return Entry{Exchange: x, Body: body, Line: r.line}, nil
				}
				// Damage: decoded whole below, it is named as it always was.
			}
			r.whole++
			var x Exchange
			if err := json.Unmarshal(b, &x); err != nil {
				return Entry{}, &LineError{Line: r.line, Err: err}
			}
			body, err := x.Request.Exact(r.blobs)
			if err != nil {
				return Entry{}, &LineError{Line: r.line, Err: err}
			}
			if x.Request.BodySHA256 != "" && r.sums.sum(body) != x.Request.BodySHA256 {
				return Entry{}, &LineError{Line: r.line,
					Err: fmt.Errorf("the request body does not hash to body_sha256")}
			}
			return Entry{Exchange: x, Body: body, Line: r.line}, nil
		case TypeHeader:
			return Entry{}, &LineError{Line: r.line,
				Err: fmt.Errorf("a second header: two recordings joined into one file")}
		default:
			return Entry{}, &LineError{Line: r.line, Err: fmt.Errorf("unknown line type %q", typ)}
		}
	}
}

// pathOf is the endpoint a request log's body was for, by the API chat tells from its members
// (a Gemini body names no model: its path names none); chat completions when it cannot tell.
func pathOf(body []byte) string {
	if r, err := chat.Parse(body); err == nil {
		switch r.API {
		case chat.Responses:
			return "/v1/responses"
		case chat.Anthropic:
			return "/v1/messages"
		case chat.Gemini:
			return "/v1beta/models/:generateContent"
		}
	}
	return "/v1/chat/completions"
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// lineType is a line's "type". The writer puts it first, so the usual line is told by its first
// bytes; any other is scanned. Decoding a whole line only to learn its type would read every
// request of a session twice.
func lineType(b []byte) (string, error) {
	for _, t := range []string{TypeExchange, TypeBlob, TypeHeader} {
		if bytes.HasPrefix(b, []byte(`{"type":"`+t+`"`)) {
			return t, nil
		}
	}
	t, ok := chat.StringMember(b, "type")
	if !ok {
		if !json.Valid(b) {
			return "", fmt.Errorf("not JSON")
		}
		return "", fmt.Errorf("a line without a \"type\"")
	}
	return t, nil
}

// ReadAll reads every exchange of a file; with damage it returns what came before and the error.
func ReadAll(path string) ([]Entry, *Reader, error) {
	r, f, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []Entry
	for e, err := range Entries(r) {
		if err != nil {
			return out, r, err
		}
		out = append(out, e)
	}
	return out, r, nil
}

// Entries ranges over a source's entries to its end; an error other than io.EOF is yielded
// once, with the zero Entry, and ends it.
func Entries(src Source) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for {
			e, err := src.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(Entry{}, err)
				return
			}
			if !yield(e, nil) {
				return
			}
		}
	}
}
