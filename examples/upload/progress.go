package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress draws the upload's progress as one line on w, redrawn in place
// (a carriage return before each drawing):
//
//	uploading  1.2 MB of 4.0 MB  30%  850.0 kB/s
//
// Only a terminal gets the redrawn line: on any other w (stderr redirected
// to a file or a pipe) progress writes no carriage return, only the last
// state of the line, once, when the upload ends.
//
// The SDK calls update from the goroutine that writes the request, never
// concurrently and never after the upload has returned, so progress needs
// no lock as long as finish is called after the upload returns.
type progress struct {
	w     io.Writer
	now   func() time.Time // time.Now; a test sets its own clock
	every time.Duration    // the least time between two drawings
	start time.Time        // when the current attempt started
	last  time.Time        // when the line was last drawn
	sent  int64
	total int64
	drawn bool
	tty   bool // w is a terminal: the line is redrawn in place
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, now: time.Now, every: 100 * time.Millisecond, tty: isTerminal(w)}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// update records that sent of total bytes (-1: unknown) have been sent in
// this attempt, and redraws the line on a terminal unless it was drawn very
// recently. A retry starts again from 0.
func (p *progress) update(sent, total int64) {
	now := p.now()
	if sent == 0 || sent < p.sent || !p.drawn {
		p.start = now // a new attempt
	}
	p.sent, p.total = sent, total
	if !p.tty {
		p.drawn = true // drawn by finish
		return
	}
	if p.drawn && sent != total && now.Sub(p.last) < p.every {
		return
	}
	p.draw(now)
}

// finish draws the line a last time and ends it, if anything was drawn
// (on a terminal) or would have been (elsewhere). A nil progress does
// nothing.
func (p *progress) finish() {
	if p == nil || !p.drawn {
		return
	}
	if !p.tty {
		fmt.Fprintln(p.w, p.line(p.now()))
		return
	}
	p.draw(p.now())
	fmt.Fprintln(p.w)
}

func (p *progress) draw(now time.Time) {
	p.drawn, p.last = true, now
	// Blanks after the line wipe the end of a longer line drawn before.
	fmt.Fprintf(p.w, "\r%-60s", p.line(now))
}

// line is the text of the line at now.
func (p *progress) line(now time.Time) string {
	line := "uploading  " + siBytes(p.sent)
	if p.total >= 0 {
		pct := int64(100)
		if p.total > 0 {
			pct = p.sent * 100 / p.total
		}
		line += fmt.Sprintf(" of %s  %3d%%", siBytes(p.total), pct)
	}
	if d := now.Sub(p.start); d > 0 && p.sent > 0 {
		line += "  " + siBytes(int64(float64(p.sent)/d.Seconds())) + "/s"
	}
	return line
}

// siBytes formats n bytes with SI units, as the service's limit is stated
// (250 MB is 250,000,000 bytes).
func siBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/unit, 0
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, "kMGT"[i])
}
