package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/gleaner/gleaner/dashboard"
	"github.com/gleaner/gleaner/store"
)

const defaultServeAddr = "127.0.0.1:8080"

// serveFlags are gleaner serve's settings.
type serveFlags struct {
	db, addr, token, chromium string
	public                    bool
}

func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, error) {
	fs := newFlagSet("serve", stderr)
	f := &serveFlags{}
	fs.StringVar(&f.db, "db", defaultDB, "database `path` (SQLite, made by gleaner crawl or gleaner import)")
	fs.StringVar(&f.addr, "addr", defaultServeAddr, "listening `host:port` (loopback unless --public)")
	fs.BoolVar(&f.public, "public", false, "allow a non-loopback --addr (requires --token or GLEANER_DASHBOARD_TOKEN)")
	fs.StringVar(&f.token, "token", os.Getenv("GLEANER_DASHBOARD_TOKEN"), "`secret` every request must present (required with --public; default $GLEANER_DASHBOARD_TOKEN)")
	fs.StringVar(&f.chromium, "chromium", "", "Chromium `binary` for crawls launched in render mode")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner serve [--db PATH] [--addr 127.0.0.1:8080] [--public --token T]\n\n"+
			"Serves the dashboard over the store: crawls (launch, pause, resume, stop, live counters and\n"+
			"log), each site's templates, pages with their extraction, the corpus and its exports.\n"+
			"It listens on loopback only unless --public is given with a token.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	if err := dashboard.CheckAddr(f.addr, f.public, f.token); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if !f.public {
		f.token = "" // loopback: the Host check guards instead
	}
	return f, nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseServeFlags(args, stderr)
	if err != nil {
		return err
	}
	if _, err := os.Stat(f.db); err != nil {
		return fmt.Errorf("database %s: %w (make one with gleaner crawl or gleaner import)", f.db, err)
	}
	st, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	srv, err := dashboard.New(st, dashboard.Options{Token: f.token, Chromium: f.chromium, Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	return serveUntilDone(ctx, srv, ln, f.token, stdout)
}

// serveUntilDone prints the dashboard's address and serves h on ln
// until ctx ends.
func serveUntilDone(ctx context.Context, h http.Handler, ln net.Listener, token string, stdout io.Writer) error {
	u := "http://" + ln.Addr().String() + "/"
	if token != "" {
		u += "?token=" + token
	}
	fmt.Fprintf(stdout, "dashboard on %s (Ctrl-C to stop)\n", u)
	return dashboard.Serve(ctx, h, ln)
}
