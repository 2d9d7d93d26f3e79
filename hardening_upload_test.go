package workflow

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// blockingReader hands out its first bytes, then blocks until closed.
// blocked is closed when a Read first blocks.
type blockingReader struct {
	first   []byte
	closed  chan struct{}
	blocked chan struct{}
	once    sync.Once
	closes  atomic.Int64
}

func (b *blockingReader) Read(p []byte) (int, error) {
	if len(b.first) > 0 {
		n := copy(p, b.first)
		b.first = b.first[n:]
		return n, nil
	}
	b.once.Do(func() { close(b.blocked) })
	<-b.closed
	return 0, io.ErrClosedPipe
}

func (b *blockingReader) Close() error {
	if b.closes.Add(1) == 1 {
		close(b.closed)
	}
	return nil
}

// unclosable hides a reader's Close.
type unclosable struct{ r io.Reader }

func (u unclosable) Read(p []byte) (int, error) { return u.r.Read(p) }

func TestUploadFromABlockingReaderEndsWithTheContext(t *testing.T) {
	for _, tc := range []struct {
		name     string
		closable bool
	}{
		{"report.pdf", true}, {"no-extension", true}, // the second is sniffed first
		{"report.pdf", false}, {"no-extension", false},
	} {
		name := tc.name
		t.Run(fmt.Sprint(name, " closable=", tc.closable), func(t *testing.T) {
			got := make(chan struct{}, 1)
			ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case got <- struct{}{}:
				default:
				}
				_, _ = io.Copy(io.Discard, r.Body)
			}))
			c := ts.client(t)
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

			ctx, cancel := context.WithCancel(t.Context())
			r := &blockingReader{first: []byte("%PDF-1.4 start"), closed: make(chan struct{}), blocked: make(chan struct{})}
			var body io.Reader = r
			if !tc.closable {
				body = unclosable{r}
			}
			done := make(chan error, 1)
			go func() {
				_, err := c.Attachments.Upload(ctx, Tasks, "it", "1", name, body, nil)
				done <- err
			}()
			if name == "report.pdf" {
				<-got // the request is on its way
			}
			// The context ends only while Upload is stuck in a Read (the
			// sniff of the second name, the body of the first), not before
			// it started.
			<-r.blocked
			cancel()
			select {
			case err := <-done:
				require.ErrorIs(t, err, context.Canceled)
			case <-time.After(5 * time.Second):
				t.Fatal("Upload did not return after its context ended")
			}
			if tc.closable {
				assert.EqualValues(t, 1, r.closes.Load(), "the reader, an io.Closer, was closed")
			} else {
				// Upload has returned; the read it left behind ends when
				// the reader returns, and nothing reads it again.
				_ = r.Close()
			}
			ts.CloseClientConnections()
		})
	}
}
