package tagger

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
)

// pipeline is a chain of long-lived processes (a | b | c) answering one
// request at a time. A request is written while the answer is read, so
// neither side can fill a pipe and block the other. A cancelled or failed
// request kills the processes; the next request starts them again.
type pipeline struct {
	argv [][]string

	mu     sync.Mutex
	cmds   []*exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer
}

func newPipeline(argv ...[]string) *pipeline { return &pipeline{argv: argv} }

func (p *pipeline) start() error {
	var prev io.ReadCloser
	p.stderr = &bytes.Buffer{}
	for i, a := range p.argv {
		c := exec.Command(a[0], a[1:]...)
		c.Stderr = &limitedWriter{w: p.stderr, n: 4096}
		if i == 0 {
			w, err := c.StdinPipe()
			if err != nil {
				return err
			}
			p.stdin = w
		} else {
			c.Stdin = prev
		}
		r, err := c.StdoutPipe()
		if err != nil {
			return err
		}
		if err := c.Start(); err != nil {
			p.kill()
			return fmt.Errorf("start %s: %w", a[0], err)
		}
		p.cmds = append(p.cmds, c)
		prev = r
	}
	p.stdout = bufio.NewReaderSize(prev, 64<<10)
	return nil
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
	p.cmds, p.stdin, p.stdout = nil, nil, nil
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
	werr := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(req)
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
		if err != nil {
			p.kill() // waits for the processes, so stderr is complete
			msg := strings.TrimSpace(p.stderr.String())
			if msg != "" {
				err = fmt.Errorf("%w (stderr: %s)", err, msg)
			}
			return fmt.Errorf("%s: %w", p.argv[0][0], err)
		}
		return nil
	case <-ctx.Done():
		p.kill()
		<-rerr
		return ctx.Err()
	}
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
