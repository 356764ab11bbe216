// Package statusline shows the progress of a long job: a status line
// rewritten in place on a terminal (five times a second at most), a log
// line every few seconds otherwise, and log messages in between that
// never mix with the status line.
package statusline

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Line is the status line of one job on one writer.
type Line struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	quiet    bool
	last     time.Time
	shown    bool
	interval time.Duration
}

// New returns the status line on w; quiet shows nothing.
func New(w io.Writer, quiet bool) *Line {
	l := &Line{w: w, quiet: quiet, interval: 5 * time.Second}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			l.tty, l.interval = true, 200*time.Millisecond
		}
	}
	return l
}

// Update shows the line status makes, unless one was shown less than the
// interval ago (status is then not called).
func (l *Line) Update(status func() string) {
	if l.quiet {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Since(l.last) < l.interval {
		return
	}
	l.last = time.Now()
	if l.tty {
		fmt.Fprintf(l.w, "\r\033[K%s", status())
		l.shown = true
	} else {
		fmt.Fprintln(l.w, status())
	}
}

// Logf prints a message on a line of its own.
func (l *Line) Logf(format string, a ...any) {
	if l.quiet {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty && l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
	fmt.Fprintf(l.w, format+"\n", a...)
}

// Done ends the status line on a terminal, so that what follows starts
// on a line of its own.
func (l *Line) Done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty && l.shown {
		fmt.Fprintln(l.w)
		l.shown = false
	}
}
