package dashboard

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"github.com/gleaner/gleaner/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure a dashboard.
type Options struct {
	// Token, when set, must accompany every request (see the package
	// doc); leave it empty on loopback.
	Token string
	// Chromium is the browser binary of crawls launched in render mode
	// ("" finds one).
	Chromium string
	// Logf receives server-side errors (default: none).
	Logf func(format string, args ...any)
}

// Server is the dashboard over one store. Make it with New; it is an
// http.Handler.
type Server struct {
	db     *store.DB
	opt    Options
	csrf   string
	views  map[string]*template.Template
	mux    *http.ServeMux
	crawls *crawlManager
}

// New prepares the dashboard of db.
func New(db *store.DB, opt Options) (*Server, error) {
	if db == nil {
		return nil, errors.New("dashboard: no store")
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("dashboard: csrf token: %w", err)
	}
	views, err := parseViews()
	if err != nil {
		return nil, err
	}
	s := &Server{db: db, opt: opt, csrf: hex.EncodeToString(tok), views: views}
	s.crawls = newCrawlManager(db, opt)
	s.routes()
	return s, nil
}

// Close stops the crawls the dashboard launched and waits for them.
func (s *Server) Close() error { return s.crawls.stopAll() }

// ServeHTTP answers a request after the security checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.guard(s.mux).ServeHTTP(w, r)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /{$}", s.handleCrawls)
	m.HandleFunc("POST /crawls", s.handleLaunch)
	m.HandleFunc("GET /crawls/{name}", s.handleCrawl)
	m.HandleFunc("POST /crawls/{name}/{action}", s.handleControl)
	m.HandleFunc("GET /crawls/{name}/events", s.handleEvents)
	m.HandleFunc("GET /crawls/{name}/progress.svg", s.handleProgressSVG)
	m.HandleFunc("GET /sites", s.handleSites)
	m.HandleFunc("GET /sites/{site}", s.handleSite)
	m.HandleFunc("GET /pages/{id}", s.handlePage)
	m.HandleFunc("GET /pages/{id}/render", s.handleRender)
	m.HandleFunc("GET /corpus", s.handleCorpus)
	m.HandleFunc("GET /corpus/export", s.handleExport)
	s.mux = m
}

// parseViews parses each view with the shared layout.
func parseViews() (map[string]*template.Template, error) {
	names := []string{"crawls", "crawl", "sites", "site", "page", "corpus", "error"}
	out := map[string]*template.Template{}
	for _, n := range names {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+n+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard: template %s: %w", n, err)
		}
		out[n] = t
	}
	return out, nil
}

var funcs = template.FuncMap{
	"pct":  func(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" },
	"f2":   func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
	"f3":   func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) },
	"when": func(t time.Time) string { return whenString(t) },
	"list": func(s ...string) []string { return s },
}

func whenString(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

// page is what every view receives.
type page struct {
	Title string
	Nav   string
	CSRF  string
	Data  any
}

// render writes view with data, or a 500 when the template fails.
func (s *Server) render(w http.ResponseWriter, view, title, nav string, data any) {
	var b bytes.Buffer
	err := s.views[view].Execute(&b, page{Title: title, Nav: nav, CSRF: s.csrf, Data: data})
	if err != nil {
		s.opt.Logf("dashboard: view %s: %v", view, err)
		http.Error(w, "template error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// fail shows an error page with status code.
func (s *Server) fail(w http.ResponseWriter, code int, err error) {
	if code >= 500 {
		s.opt.Logf("dashboard: %v", err)
	}
	w.WriteHeader(code)
	var b bytes.Buffer
	if e := s.views["error"].Execute(&b, page{Title: http.StatusText(code), CSRF: s.csrf, Data: err.Error()}); e != nil {
		return
	}
	w.Write(b.Bytes())
}

// failFor maps store.ErrNotFound to 404, other errors to 500.
func (s *Server) failFor(w http.ResponseWriter, err error) {
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	s.fail(w, http.StatusInternalServerError, err)
}
