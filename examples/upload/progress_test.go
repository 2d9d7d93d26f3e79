package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSIBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0:             "0 B",
		999:           "999 B",
		1000:          "1.0 kB",
		300_000:       "300.0 kB",
		1_234_567:     "1.2 MB",
		250_000_000:   "250.0 MB",
		3_000_000_000: "3.0 GB",
	} {
		assert.Equal(t, want, siBytes(n), "%d bytes", n)
	}
}

// clock is a test clock that moves only when told to.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func drawings(out string) []string       { return strings.Split(strings.TrimPrefix(out, "\r"), "\r") }
func trimmed(lines []string) (out []string) {
	for _, l := range lines {
		out = append(out, strings.TrimRight(l, " \n"))
	}
	return out
}

func TestProgressLine(t *testing.T) {
	tests := []struct {
		name  string
		steps func(p *progress, c *clock)
		want  []string // each drawing of the line, trailing blanks cut
	}{
		{
			name: "first update, throttled middle, the end",
			steps: func(p *progress, c *clock) {
				p.update(0, 4000)
				c.advance(10 * time.Millisecond)
				p.update(1000, 4000) // within 100 ms of the last drawing: skipped
				c.advance(100 * time.Millisecond)
				p.update(2000, 4000)
				c.advance(10 * time.Millisecond)
				p.update(4000, 4000) // the end is always drawn
				p.finish()
			},
			want: []string{
				"uploading  0 B of 4.0 kB    0%",
				"uploading  2.0 kB of 4.0 kB   50%  18.2 kB/s",
				"uploading  4.0 kB of 4.0 kB  100%  33.3 kB/s",
				"uploading  4.0 kB of 4.0 kB  100%  33.3 kB/s",
			},
		},
		{
			name: "unknown total",
			steps: func(p *progress, c *clock) {
				p.update(0, -1)
				c.advance(time.Second)
				p.update(5000, -1)
				p.finish()
			},
			want: []string{"uploading  0 B", "uploading  5.0 kB  5.0 kB/s", "uploading  5.0 kB  5.0 kB/s"},
		},
		{
			name: "a retry starts the rate again",
			steps: func(p *progress, c *clock) {
				p.update(0, 2000)
				c.advance(time.Second)
				p.update(1000, 2000)
				c.advance(time.Second)
				p.update(0, 2000) // the retry
				c.advance(time.Second)
				p.update(2000, 2000)
				p.finish()
			},
			want: []string{
				"uploading  0 B of 2.0 kB    0%",
				"uploading  1.0 kB of 2.0 kB   50%  1.0 kB/s",
				"uploading  0 B of 2.0 kB    0%",
				"uploading  2.0 kB of 2.0 kB  100%  2.0 kB/s",
				"uploading  2.0 kB of 2.0 kB  100%  2.0 kB/s",
			},
		},
		{
			name:  "nothing sent, nothing drawn",
			steps: func(p *progress, _ *clock) { p.finish() },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			c := &clock{t: time.Unix(1_700_000_000, 0)}
			p := newProgress(&out)
			p.now, p.tty = c.now, true // as on a terminal
			tt.steps(p, c)
			if tt.want == nil {
				assert.Empty(t, out.String())
				return
			}
			assert.True(t, strings.HasSuffix(out.String(), "\n"), "finish ends the line")
			assert.Equal(t, tt.want, trimmed(drawings(out.String())))
		})
	}
	var p *progress
	p.finish() // -quiet: no progress, and finish does nothing
}

// TestProgressNotOnTerminal checks that a progress line on a writer that
// is no terminal writes no carriage return, only the line's last state,
// once, at the end.
func TestProgressNotOnTerminal(t *testing.T) {
	var out bytes.Buffer
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	p := newProgress(&out)
	p.now = c.now
	p.update(0, 4000)
	c.advance(time.Second)
	p.update(2000, 4000)
	c.advance(time.Second)
	p.update(4000, 4000)
	assert.Empty(t, out.String(), "nothing before the end")
	p.finish()
	assert.Equal(t, "uploading  4.0 kB of 4.0 kB  100%  2.0 kB/s\n", out.String())
}

func TestIsTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr.txt"))
	require.NoError(t, err)
	defer file.Close()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	for name, tt := range map[string]struct {
		w    io.Writer
		want bool
	}{
		"a buffer":       {&bytes.Buffer{}, false},
		"a regular file": {file, false},
		"a pipe":         {w, false},
	} {
		assert.Equal(t, tt.want, isTerminal(tt.w), name)
	}
	if dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer dev.Close()
		if fi, err := dev.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			assert.True(t, isTerminal(dev), "a character device, as a terminal is")
		}
	}
}
