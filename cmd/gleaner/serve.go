package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gleaner/gleaner/dashboard"
	"github.com/gleaner/gleaner/store"
)

func init() {
	register(&command{
		name:  "serve",
		short: "web dashboard: launch, pause and follow crawls live; sites' templates (MDS, heat map); pages; corpus and exports",
		run:   runServe,
	})
}

const defaultServeAddr = "127.0.0.1:8080"

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	db := addDBFlag(fs)
	addr := fs.String("addr", defaultServeAddr, "listening `host:port` (loopback unless --public)")
	public := fs.Bool("public", false, "allow a non-loopback --addr (requires --token or GLEANER_DASHBOARD_TOKEN)")
	token := fs.String("token", os.Getenv("GLEANER_DASHBOARD_TOKEN"), "`secret` every request must present (required with --public; default $GLEANER_DASHBOARD_TOKEN)")
	chromium := fs.String("chromium", "", "Chromium `binary` for crawls launched in render mode")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gleaner serve [--db PATH] [--addr 127.0.0.1:8080] [--public --token T]\n\n"+
			"Serves the dashboard over the store: crawls (launch, pause, resume, stop, live counters and\n"+
			"log), each site's templates, pages with their extraction, the corpus and its exports.\n"+
			"It listens on loopback only unless --public is given with a token.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	if err := dashboard.CheckAddr(*addr, *public, *token); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if _, err := os.Stat(*db); err != nil {
		return fmt.Errorf("database %s: %w (make one with gleaner crawl or gleaner import)", *db, err)
	}
	st, err := store.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	tok := ""
	if *public {
		tok = *token
	}
	srv, err := dashboard.New(st, dashboard.Options{Token: tok, Chromium: *chromium, Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	return serveUntilDone(ctx, srv, ln, tok, stdout)
}

// serveUntilDone serves h on ln until ctx ends, then shuts down.
func serveUntilDone(ctx context.Context, h http.Handler, ln net.Listener, token string, stdout io.Writer) error {
	u := "http://" + ln.Addr().String() + "/"
	if token != "" {
		u += "?token=" + token
	}
	fmt.Fprintf(stdout, "dashboard on %s (Ctrl-C to stop)\n", u)
	// Requests share ctx: its end closes the live streams too.
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
