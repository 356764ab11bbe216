package dashboard

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gleaner/gleaner/crawler"
)

// launchForm is the launch form's values, kept to show them again with an
// error.
type launchForm struct {
	Name, Seeds, Terms, Formula, Strategy, Mode, AllowHosts string
	MaxPages, MaxDocs, MaxDepth, Workers, Tabs              string
	MaxDuration, Delay, Timeout                             string
}

func readLaunchForm(v url.Values) launchForm {
	g := func(k string) string { return strings.TrimSpace(v.Get(k)) }
	return launchForm{Name: g("name"), Seeds: g("seeds"), Terms: g("terms"), Formula: g("formula"), Strategy: g("strategy"),
		Mode: g("mode"), AllowHosts: g("allow_hosts"), MaxPages: g("max_pages"), MaxDocs: g("max_docs"), MaxDepth: g("max_depth"),
		Workers: g("workers"), Tabs: g("tabs"), MaxDuration: g("max_duration"), Delay: g("delay"), Timeout: g("timeout")}
}

// defaultLaunchForm is what the form shows first: the command line's
// defaults (no private host allowed, rendering with two tabs).
var defaultLaunchForm = launchForm{Strategy: "opic", Mode: "render", Tabs: "2", MaxPages: "200"}

// config turns the form into a crawl configuration with the same defaults
// and guards as "gleaner crawl": empty fields take the crawler's defaults,
// private and loopback targets stay refused unless listed.
func (f launchForm) config() (cfg crawler.Config, render bool, tabs int, err error) {
	cfg = crawler.Config{Name: f.Name, Formula: f.Formula, Strategy: f.Strategy, Seeds: fields(f.Seeds),
		Terms: splitTerms(f.Terms), AllowHosts: fields(f.AllowHosts), Record: true} // recording, as gleaner crawl does
	if err = checkSeeds(cfg.Seeds); err != nil {
		return cfg, false, 0, err
	}
	if _, err = crawler.ParseStrategy(orDefault(f.Strategy, "opic")); err != nil {
		return cfg, false, 0, err
	}
	if tabs, err = f.limits(&cfg); err != nil {
		return cfg, false, 0, err
	}
	switch f.Mode {
	case "render", "":
		render = true
	case "plain":
	default:
		return cfg, false, 0, fmt.Errorf("mode %q: want render or plain", f.Mode)
	}
	return cfg, render, max(tabs, 1), nil
}

// checkSeeds requires at least one seed, each an http(s) URL.
func checkSeeds(seeds []string) error {
	if len(seeds) == 0 {
		return fmt.Errorf("no seed URL")
	}
	for _, s := range seeds {
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("seed %q: want an http or https URL", s)
		}
	}
	return nil
}

// limits reads the numeric fields into cfg and returns the tab count.
func (f launchForm) limits(cfg *crawler.Config) (tabs int, err error) {
	ints := []struct {
		name, v string
		dst     *int
	}{{"max pages", f.MaxPages, &cfg.MaxPages}, {"max documents", f.MaxDocs, &cfg.MaxDocs},
		{"max depth", f.MaxDepth, &cfg.MaxDepth}, {"workers", f.Workers, &cfg.Workers}, {"tabs", f.Tabs, &tabs}}
	for _, n := range ints {
		if *n.dst, err = nonNegative(n.name, n.v); err != nil {
			return 0, err
		}
	}
	durs := []struct {
		name, v string
		dst     *time.Duration
	}{{"max duration", f.MaxDuration, &cfg.MaxDuration}, {"delay", f.Delay, &cfg.Delay}, {"timeout", f.Timeout, &cfg.Timeout}}
	for _, d := range durs {
		if *d.dst, err = duration(d.name, d.v); err != nil {
			return 0, err
		}
	}
	return tabs, nil
}

func fields(s string) []string { return strings.Fields(strings.ReplaceAll(s, ",", " ")) }

// splitTerms splits on commas and new lines: a term may be a phrase.
func splitTerms(s string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func nonNegative(name, v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s %q: want a whole number, 0 or more", name, v)
	}
	return n, nil
}

func duration(name, v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s %q: want a duration such as 500ms, 30s or 10m", name, v)
	}
	return d, nil
}
