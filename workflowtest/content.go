package workflowtest

import (
	"bytes"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
)

// The bytes of uploaded files. A file of up to spillAt bytes is kept in
// memory; a larger one is written to a temporary file as it streams in,
// in a directory of the server's own under os.TempDir (TMPDIR), so that
// the fake holds files of the service's 250 MB without holding them in
// memory. The file goes when its attachment is deleted, when Reset
// forgets it, and the directory when the server closes.

// defaultSpillAt is the size beyond which an upload goes to a file.
const defaultSpillAt = 1 << 20

// content is the kept bytes of one uploaded file: mem, or the file at
// path.
type content struct {
	mem  []byte
	path string
	size int64
}

// open returns a reader of the bytes. A file opened before the
// attachment is deleted stays readable to the end.
func (c *content) open() (io.ReadCloser, error) {
	if c.path == "" {
		return io.NopCloser(bytes.NewReader(c.mem)), nil
	}
	return os.Open(c.path)
}

// remove drops the bytes (the temporary file, if any).
func (c *content) remove() {
	if c != nil && c.path != "" {
		_ = os.Remove(c.path)
	}
}

// files is the server's directory of spilled uploads, made at the first
// spill.
type files struct {
	mu     sync.Mutex
	dir    string
	closed bool
}

// create makes a new temporary file for an upload.
func (f *files) create() (*os.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, fmt.Errorf("the server is closed")
	}
	if f.dir == "" {
		dir, err := os.MkdirTemp("", "workflowtest-uploads-")
		if err != nil {
			return nil, err
		}
		f.dir = dir
	}
	return os.CreateTemp(f.dir, "upload-")
}

// removeAll removes the directory and every file in it; no file is made
// after.
func (f *files) removeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	_ = os.RemoveAll(f.dir) // nothing, when no file was made ("")
}

// spool counts and hashes what is written to it, and keeps it up to limit
// bytes (all of it or nothing): in memory up to spillAt, in a file of fs
// beyond.
type spool struct {
	h       hash.Hash
	n       int64
	limit   int64
	spillAt int64
	fs      *files
	buf     []byte
	f       *os.File
	err     error // the temporary file could not be written
}

func (c *spool) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	switch {
	case c.n > c.limit: // nothing is kept
		c.buf = nil
		c.discard()
	case c.f == nil && c.n <= c.spillAt:
		c.buf = append(c.buf, p...)
	default:
		w := p
		if c.f == nil { // the first write beyond spillAt: what is in memory goes first
			c.f, c.err = c.fs.create()
			w, c.buf = append(c.buf, p...), nil
		}
		if c.err == nil {
			_, c.err = c.f.Write(w)
		}
		if c.err != nil {
			return 0, c.err
		}
	}
	return c.h.Write(p)
}

// discard removes the temporary file, if any.
func (c *spool) discard() {
	if c.f != nil {
		_ = c.f.Close()
		_ = os.Remove(c.f.Name())
		c.f = nil
	}
}

// kept returns the bytes kept, nil when the file was over the limit.
func (c *spool) kept() (*content, error) {
	if c.n > c.limit {
		return nil, nil
	}
	kept := &content{mem: c.buf, size: c.n}
	if c.f != nil {
		if err := c.f.Close(); err != nil {
			return nil, err // discard removes the file
		}
		kept.path, c.f = c.f.Name(), nil
	}
	return kept, nil
}
