// Package browser opens a page in headless Chromium, for the tests that check a report as a
// person sees it (the diff page, the audit chart): the DOM once the page has loaded and its
// scripts ran (--dump-dom), and a screenshot (--screenshot). Chromium is found through
// $LEMBAS_CHROMIUM; each call runs one Chromium with a profile of its own, offline, and ends it
// and whatever it started (internal/proc) before returning.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	html_ "html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/LLeMbas/lembas-check/internal/proc"
)

// EnvVar names the Chromium binary the tests use; CI installs Debian's chromium and sets it.
const EnvVar = "LEMBAS_CHROMIUM"

// Chromium is one Chromium binary.
type Chromium struct {
	Path string
	// Timeout bounds one page (default 60s): a Chromium that hangs is ended, not waited for.
	Timeout time.Duration
}

// Find is the Chromium $LEMBAS_CHROMIUM names, or an error that says how to get one.
func Find() (Chromium, error) {
	p := os.Getenv(EnvVar)
	if p == "" {
		return Chromium{}, fmt.Errorf("$%s is not set: set it to a Chromium binary (Debian: apt-get install "+
			"chromium; LEMBAS_CHROMIUM=/usr/bin/chromium) to check the pages in a browser", EnvVar)
	}
	if _, err := exec.LookPath(p); err != nil {
		return Chromium{}, fmt.Errorf("$%s=%s: %v", EnvVar, p, err)
	}
	return Chromium{Path: p}, nil
}

// FileURL is the file:// URL of a path, with a fragment when frag is not "".
func FileURL(path, frag string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), Fragment: frag}
	return u.String(), nil
}

// DOM loads the page at url (file://) and returns its DOM as it stands once loaded and its
// scripts ran.
func (c Chromium) DOM(ctx context.Context, url string, width, height int) (string, error) {
	out, err := c.run(ctx, width, height, "--dump-dom", url)
	return string(out), err
}

// Screenshot loads the page at url in a window of width × height and writes what it shows to
// png.
func (c Chromium) Screenshot(ctx context.Context, url, png string, width, height int) error {
	abs, err := filepath.Abs(png)
	if err != nil {
		return err
	}
	os.Remove(abs)
	if _, err := c.run(ctx, width, height, "--screenshot="+abs, url); err != nil {
		return err
	}
	if st, err := os.Stat(abs); err != nil || st.Size() == 0 {
		return fmt.Errorf("chromium wrote no screenshot to %s", abs)
	}
	return nil
}

// run runs one headless Chromium on a profile of its own with nothing that reaches the network,
// and ends it, and all it started, by its process's group.
func (c Chromium) run(ctx context.Context, width, height int, args ...string) ([]byte, error) {
	profile, err := os.MkdirTemp("", "lembas-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	argv := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir=" + profile, fmt.Sprintf("--window-size=%d,%d", width, height),
		// A page that fetches anything fails to: the reports must stand alone.
		"--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
	}, args...)
	cmd := exec.Command(c.Path, argv...)
	var stdout bytes.Buffer
	stderr := &proc.Tail{Max: 2000} // what a message quotes of it
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.Env = append(os.Environ(), "HOME="+profile)
	p, err := proc.Start(cmd, proc.Options{Grace: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %v", c.Path, err)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	switch err := p.Await(ctx, timer.C); {
	case errors.Is(err, proc.ErrDeadline):
		return nil, fmt.Errorf("chromium did not finish in %s: ended it (stderr: %s)", timeout,
			strings.TrimSpace(stderr.String()))
	case err != nil:
		return nil, err
	}
	if err := p.Wait(); err != nil {
		return nil, fmt.Errorf("chromium: %v (stderr: %s)", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// probeOut is where a page's probe script leaves what it found: a <pre id="probe"> of JSON.
var probeOut = regexp.MustCompile(`(?s)<pre id="probe">(.*?)</pre>`)

// Probe loads the page html (written to a file of its own, so that it is opened from disk as a
// person would), lets its scripts run, and decodes into v the JSON its probe script wrote into a
// <pre id="probe">: what a test learns of the page as the browser laid it out.
func (c Chromium) Probe(ctx context.Context, html string, width, height int, v any) error {
	dir, err := os.MkdirTemp("", "lembas-page-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		return err
	}
	url, err := FileURL(page, "")
	if err != nil {
		return err
	}
	dom, err := c.DOM(ctx, url, width, height)
	if err != nil {
		return err
	}
	m := probeOut.FindStringSubmatch(dom)
	if m == nil {
		return fmt.Errorf("the page's probe wrote nothing; its DOM begins %.500q", dom)
	}
	if err := json.Unmarshal([]byte(html_.UnescapeString(m[1])), v); err != nil {
		return fmt.Errorf("the probe's JSON: %v: %.500s", err, m[1])
	}
	return nil
}
