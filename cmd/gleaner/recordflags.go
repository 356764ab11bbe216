package main

import (
	"flag"
	"fmt"

	"github.com/gleaner/gleaner/browser"
)

// recordFlags are the flags of the commands that fetch pages (crawl,
// render, monitor) saying what of each page's HTTP exchanges is kept, for
// export --format warc,wacz. Recording is on by default: an analyst's
// export is then a capture (the pages as served), as an archiving
// crawler's is, at a CPU cost per page within the noise of crawler's
// BenchmarkCrawlRecord (plain and rendered fixture crawls, off and on
// alternated); --record=false keeps the pages alone.
type recordFlags struct {
	on, media, secrets bool
}

// addRecordFlags defines --record, --record-media and --record-secrets on
// fs; what says whose exchanges are kept ("each page (…)").
func addRecordFlags(fs *flag.FlagSet, what string) *recordFlags {
	r := &recordFlags{}
	fs.BoolVar(&r.on, "record", true, fmt.Sprintf("keep the HTTP exchanges of %s as served (requests, response heads and payloads, HTTPS included), "+
		"for export --format warc,wacz; bounded: 8 MiB a response, 32 MiB a page, 4 GiB a run; --record=false: the pages alone", what))
	fs.BoolVar(&r.media, "record-media", false, "with --record: download and keep images, audio, video and fonts too (not downloaded otherwise)")
	fs.BoolVar(&r.secrets, "record-secrets", false, "with --record: keep the values of Cookie, Set-Cookie and Authorization headers (written as \"(withheld)\" otherwise)")
	return r
}

// options are the recording options the flags give.
func (r *recordFlags) options() browser.RecordOptions {
	return browser.RecordOptions{On: r.on, Media: r.on && r.media, Secrets: r.on && r.secrets}
}
