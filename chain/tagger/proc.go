package tagger

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
)

// pipeline is a chain of long-lived processes (a | b | c) answering one
// request at a time. A request is written while the answer is read, so
// neither side can fill a pipe and block the other. A cancelled or failed
// request kills the processes; the next request starts them again.
type pipeline struct {
	argv [][]string
	// probe sends the last process's stderr to a pipe read after each
	// answer (see dirty) instead of a log.
	probe bool

	mu     sync.Mutex
	cmds   []*exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer
	errR   *os.File // probe's read end
	// Restarts counts how often the processes were (re)started.
	restarts int
}

func newPipeline(argv ...[]string) *pipeline { return &pipeline{argv: argv} }

// start starts the pipeline's processes, each reading the one before;
// the probed pipeline's last process writes its stderr to the probe.
func (p *pipeline) start() error {
	p.stderr = &bytes.Buffer{}
	p.restarts++
	errW, err := p.openProbe()
	if err != nil {
		return err
	}
	if errW != nil {
		defer errW.Close() // the child holds its own copy
	}
	var prev io.ReadCloser
	for i, a := range p.argv {
		c := exec.Command(a[0], a[1:]...)
		c.Stderr = &limitedWriter{w: p.stderr, n: 4096}
		if errW != nil && i == len(p.argv)-1 {
			c.Stderr = errW
		}
		if prev, err = p.startCmd(c, prev); err != nil {
			return err
		}
	}
	p.stdout = bufio.NewReaderSize(prev, 64<<10)
	return nil
}

// openProbe opens the pipe the probed process writes its stderr to,
// keeping its read end; it returns the write end, nil without a probe.
func (p *pipeline) openProbe() (*os.File, error) {
	if !p.probe {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p.errR = r
	return w, nil
}

// startCmd starts c reading prev's output (the pipeline's input for the
// first) and returns c's output.
func (p *pipeline) startCmd(c *exec.Cmd, prev io.ReadCloser) (io.ReadCloser, error) {
	if prev == nil {
		w, err := c.StdinPipe()
		if err != nil {
			return nil, err
		}
		p.stdin = w
	} else {
		c.Stdin = prev
	}
	r, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		p.kill()
		return nil, fmt.Errorf("start %s: %w", c.Args[0], err)
	}
	p.cmds = append(p.cmds, c)
	return r, nil
}

// kill stops every process of the pipeline; the caller holds mu.
func (p *pipeline) kill() {
	if p.stdin != nil {
		p.stdin.Close()
	}
	for _, c := range p.cmds {
		if c.Process != nil {
			c.Process.Kill()
		}
	}
	for _, c := range p.cmds {
		c.Wait()
	}
	if p.errR != nil {
		p.errR.Close()
		p.errR = nil
	}
	p.cmds, p.stdin, p.stdout = nil, nil, nil
}

// dirty reports whether the probed process wrote to stderr since the last
// call; the caller holds mu. A process writes its stderr before the answer
// that follows, so what it wrote while answering is already in the pipe.
func (p *pipeline) dirty() bool {
	if p.errR == nil {
		return false
	}
	rc, err := p.errR.SyscallConn()
	if err != nil {
		return true // cannot tell: assume the worst
	}
	var buf [4096]byte
	got := false
	for {
		n := 0
		// The pipe is non-blocking (os.Pipe registers it with the
		// poller): read what is there, without waiting.
		rc.Read(func(fd uintptr) bool {
			n, _ = syscall.Read(int(fd), buf[:])
			return true
		})
		if n <= 0 {
			return got
		}
		got = true
		(&limitedWriter{w: p.stderr, n: 4096}).Write(buf[:n])
	}
}

// roundTrip writes req and returns what read returns. read consumes the
// answer from the pipeline's output up to its terminator.
func (p *pipeline) roundTrip(ctx context.Context, req []byte, read func(*bufio.Reader) error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmds == nil {
		if err := p.start(); err != nil {
			return err
		}
	}
	// The goroutines take the pipes now: kill may clear the fields while
	// they still run.
	in := p.stdin
	werr := make(chan error, 1)
	go func() {
		_, err := in.Write(req)
		werr <- err
	}()
	rerr := make(chan error, 1)
	out := p.stdout
	go func() { rerr <- read(out) }()
	select {
	case err := <-rerr:
		if err == nil {
			err = <-werr
		}
		return p.answered(err)
	case <-ctx.Done():
		p.kill()
		<-rerr
		return ctx.Err()
	}
}

// answered ends a round trip whose answer was read, with err the first
// error of reading it or writing the request: on an error the processes
// are stopped and the error carries what they wrote to stderr. A probed
// process that warned is stopped too: its state may have changed (see
// Apertium), so the next request gets a fresh one.
func (p *pipeline) answered(err error) error {
	if err == nil {
		if p.probe && p.dirty() {
			p.kill()
		}
		return nil
	}
	p.kill() // waits for the processes, so stderr is complete
	if msg := strings.TrimSpace(p.stderr.String()); msg != "" {
		err = fmt.Errorf("%w (stderr: %s)", err, msg)
	}
	return fmt.Errorf("%s: %w", p.argv[0][0], err)
}

func (p *pipeline) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmds == nil {
		return nil
	}
	p.stdin.Close()
	var errs []error
	for _, c := range p.cmds {
		if err := c.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Path, err))
		}
	}
	p.cmds, p.stdin, p.stdout = nil, nil, nil
	return errors.Join(errs...)
}

// limitedWriter keeps the first n bytes written (a process's stderr, for
// error messages) and drops the rest.
type limitedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
	n  int
}

func (l *limitedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(b[:min(room, len(b))])
	}
	return len(b), nil
}
