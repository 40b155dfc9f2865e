package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// entry is one file of an archive; Mode 0o755 marks an executable.
type entry struct {
	Name string
	Data []byte
	Mode int64
}

// writeArchive writes the platform's archive: the binary and the README, at the top level.
func writeArchive(path string, p Platform, bin string) error {
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(filepath.Join(moduleRoot(), "README.md"))
	if err != nil {
		return err
	}
	files := []entry{{p.Exe(), data, 0o755}, {"README.md", readme, 0o644}}
	var out []byte
	if p.GOOS == "windows" {
		out, err = zipBytes(files)
	} else {
		out, err = tgzBytes(files)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// tgzBytes is a gzipped tar of files, every time the epoch: the same input, the same bytes.
func tgzBytes(files []entry) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: f.Name, Mode: f.Mode, Size: int64(len(f.Data)), ModTime: epoch, Typeflag: tar.TypeReg,
			Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipBytes is a zip of files (deflated), with their modes in the Unix attributes, which pip and
// unzip read to make a file executable.
func zipBytes(files []entry) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: epoch}
		h.SetMode(os.FileMode(f.Mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readArchiveBinary reads the binary back out of a platform's archive: the packages are made
// from what the archive holds, so the three ways to install carry the same bytes.
func readArchiveBinary(path string, p Platform) ([]byte, error) {
	if p.GOOS == "windows" {
		zr, err := zip.OpenReader(path)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		f, err := zr.Open(p.Exe())
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(f)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, fmt.Errorf("no %s in the archive", p.Exe())
		}
		if err != nil {
			return nil, err
		}
		if h.Name == p.Exe() {
			return io.ReadAll(tr)
		}
	}
}
