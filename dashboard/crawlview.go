package dashboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/gleaner/gleaner/crawler"
)

// outcomeColumns are Babouk's counters, in his order, after tried and
// validated.
var outcomeColumns = []crawler.Outcome{crawler.OutcomeIrrelevant, crawler.OutcomeDuplicate, crawler.OutcomeLanguage, crawler.OutcomeHTTPError,
	crawler.OutcomeTimeout, crawler.OutcomeSize, crawler.OutcomeMIME, crawler.OutcomeNoExtract, crawler.OutcomeNoIndex,
	crawler.OutcomeRobots, crawler.OutcomeForbidden}

// crawlRow is one crawl with its counters.
type crawlRow struct {
	Name     string
	State    string
	Stop     string
	Counters counterView
	Snapshot snapshot
}

// counterView is the JSON and template form of a crawl's counters.
type counterView struct {
	Tried          int                     `json:"tried"`
	Validated      int                     `json:"validated"`
	Queued         int                     `json:"queued"`
	Leased         int                     `json:"leased"`
	Harvest        float64                 `json:"harvest"`
	Tokens         int64                   `json:"tokens"`
	Outcomes       map[crawler.Outcome]int `json:"outcomes"`
	PagesPerSecond float64                 `json:"pages_per_second"`
	State          string                  `json:"state"`
	Stop           string                  `json:"stop,omitempty"`
}

func (s *Server) crawlRow(r *http.Request, name string) (crawlRow, error) {
	c, err := crawler.CrawlCounters(r.Context(), s.db, name)
	if err != nil {
		return crawlRow{}, err
	}
	row := crawlRow{Name: name, State: stateIdle}
	if cr := s.crawls.get(name); cr != nil {
		row.Snapshot = cr.snapshot()
		row.State, row.Stop = row.Snapshot.State, row.Snapshot.Stop
	}
	row.Counters = counterView{Tried: c.Tried, Validated: c.Validated, Queued: c.Queued, Leased: c.Leased, Harvest: c.HarvestRate(),
		Tokens: c.Tokens, Outcomes: c.Outcomes, PagesPerSecond: row.Snapshot.PagesPerSecond, State: row.State, Stop: row.Stop}
	return row, nil
}

type crawlsData struct {
	Crawls   []crawlRow
	Outcomes []crawler.Outcome
	Form     launchForm
	Error    string
}

func (s *Server) handleCrawls(w http.ResponseWriter, r *http.Request) {
	s.showCrawls(w, r, http.StatusOK, defaultLaunchForm, "")
}

func (s *Server) showCrawls(w http.ResponseWriter, r *http.Request, code int, form launchForm, msg string) {
	names, err := s.crawls.names(r.Context())
	if err != nil {
		s.failFor(w, err)
		return
	}
	d := crawlsData{Outcomes: outcomeColumns, Form: form, Error: msg}
	for _, n := range names {
		row, err := s.crawlRow(r, n)
		if err != nil {
			s.failFor(w, err)
			return
		}
		d.Crawls = append(d.Crawls, row)
	}
	w.WriteHeader(code)
	s.render(w, "crawls", "Crawls", "crawls", d)
}

func (s *Server) handleLaunch(w http.ResponseWriter, r *http.Request) {
	form := readLaunchForm(r.PostForm)
	cfg, render, tabs, err := form.config()
	if err == nil {
		err = s.crawls.launch(cfg, render, tabs)
	}
	if err != nil {
		s.showCrawls(w, r, http.StatusBadRequest, form, err.Error())
		return
	}
	http.Redirect(w, r, "/crawls/"+url.PathEscape(cfg.Name), http.StatusSeeOther)
}

type crawlData struct {
	Row      crawlRow
	Outcomes []crawler.Outcome
	Log      []string
}

func (s *Server) handleCrawl(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if !s.knownCrawl(r, name) {
		s.fail(w, http.StatusNotFound, fmt.Errorf("no crawl named %q", name))
		return
	}
	row, err := s.crawlRow(r, name)
	if err != nil {
		s.failFor(w, err)
		return
	}
	d := crawlData{Row: row, Outcomes: outcomeColumns}
	if cr := s.crawls.get(name); cr != nil {
		d.Log, _ = cr.logsSince(0)
	}
	s.render(w, "crawl", "Crawl "+name, "crawls", d)
}

func (s *Server) knownCrawl(r *http.Request, name string) bool {
	names, err := s.crawls.names(r.Context())
	if err != nil {
		return false
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func (s *Server) handleControl(w http.ResponseWriter, r *http.Request) {
	name, action := r.PathValue("name"), r.PathValue("action")
	if err := s.crawls.control(r.Context(), name, action); err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, errBusy) {
			code = http.StatusConflict
		}
		s.fail(w, code, err)
		return
	}
	http.Redirect(w, r, "/crawls/"+url.PathEscape(name), http.StatusSeeOther)
}

// handleEvents streams a crawl's counters (when they change) and new log
// lines as Server-Sent Events until the client leaves.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, http.StatusInternalServerError, errors.New("streaming unsupported"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	st := &stream{name: r.PathValue("name")}
	if cr := s.crawls.get(st.name); cr != nil {
		_, st.seq = cr.logsSince(0) // the page already shows them
	}
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := s.sendUpdates(w, r, st); err != nil {
			return
		}
		fl.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// stream is what one event stream has sent.
type stream struct {
	name string
	last []byte // the counters last sent
	seq  int    // log lines sent
}

// sendUpdates writes the counters when they changed and the new log lines.
func (s *Server) sendUpdates(w http.ResponseWriter, r *http.Request, st *stream) error {
	row, err := s.crawlRow(r, st.name)
	if err != nil {
		return err
	}
	if b, _ := json.Marshal(row.Counters); !bytes.Equal(b, st.last) {
		fmt.Fprintf(w, "event: counters\ndata: %s\n\n", b)
		st.last = b
	}
	cr := s.crawls.get(st.name)
	if cr == nil {
		return nil
	}
	var lines []string
	lines, st.seq = cr.logsSince(st.seq)
	for _, l := range lines {
		b, _ := json.Marshal(l)
		fmt.Fprintf(w, "event: log\ndata: %s\n\n", b)
	}
	return nil
}

func (s *Server) handleProgressSVG(w http.ResponseWriter, r *http.Request) {
	var samples []sample
	if cr := s.crawls.get(r.PathValue("name")); cr != nil {
		samples = cr.snapshot().Samples
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprint(w, progressSVG(samples, true))
}
