package export

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gleaner/gleaner/store"
)

// FollowOptions configure Follow. Dir and Dataset are needed.
type FollowOptions struct {
	// Dir is the folder the WARC files go to (created if missing).
	Dir string
	// Dataset is the store dataset followed: a crawl's
	// (crawler.Dataset) or a monitor's (monitor.Dataset).
	Dataset string
	// MaxFileBytes rolls to a new file once one is this big (default 1
	// GiB).
	MaxFileBytes int64
	// Every is the time between two looks at the store (default 1 s).
	Every time.Duration
	// WARC configures the records; Crawl defaults to Dataset.
	WARC WARCOptions
}

// followBatch is how many pages Follow reads from the store at a time.
const followBatch = 32

// Follow writes the recorded pages of a dataset to WARC files in Dir as the
// store commits them, until ctx ends: then it writes the pages committed
// so far, closes its file and returns. It leaves the engine that fetches
// alone: it reads what the store holds, the pages after the last one
// written, in ID order (a page's exchanges are committed with it), and
// only those with exchanges (see WARC: requests and responses as served,
// the DOM as a conversion record; no text, which is extracted later).
//
// Files are written as the IIPC guidelines ask: a gzip member per record,
// rolled at MaxFileBytes. Each is written under a temporary name
// (PREFIX-NNNNN.open) and renamed when closed, so that a process killed
// at any point leaves complete .warc.gz files and at most one partial
// .open file. A finished file's name holds the ID of its last page
// (PREFIX-NNNNN-pID.warc.gz): a later Follow on the same Dir and dataset
// removes the partial file and goes on after that page.
func Follow(ctx context.Context, st store.Store, opt FollowOptions) error {
	f, err := newFollower(st, opt)
	if err != nil {
		return err
	}
	t := time.NewTicker(f.opt.Every)
	defer t.Stop()
	for {
		if err := f.drain(ctx); err != nil && ctx.Err() == nil {
			f.abandon()
			return err
		}
		select {
		case <-ctx.Done():
			return f.finish()
		case <-t.C:
		}
	}
}

// follower is the state of Follow.
type follower struct {
	st     store.Store
	opt    FollowOptions
	prefix string
	seq    int   // of the next file
	after  int64 // the last page written
	seen   map[string]seenPayload
	file   *os.File
	buf    *bufio.Writer
	w      *WARC
	last   int64 // the last page in the open file
}

// newFollower checks opt and resumes after the files already in Dir.
func newFollower(st store.Store, opt FollowOptions) (*follower, error) {
	if opt.Dir == "" || opt.Dataset == "" {
		return nil, fmt.Errorf("warc follow: give a folder and a dataset")
	}
	if opt.MaxFileBytes <= 0 {
		opt.MaxFileBytes = 1 << 30
	}
	if opt.Every <= 0 {
		opt.Every = time.Second
	}
	if opt.WARC.Crawl == "" {
		opt.WARC.Crawl = opt.Dataset
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("warc follow: %w", err)
	}
	f := &follower{st: st, opt: opt, prefix: filePrefix(opt.Dataset), seen: map[string]seenPayload{}}
	if err := f.resume(); err != nil {
		return nil, err
	}
	return f, nil
}

// filePrefix is a dataset's name made safe for file names.
func filePrefix(dataset string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, dataset)
}

// resume removes a partial file a killed Follow left and goes on after
// the finished files: their sequence and the last page they hold.
func (f *follower) resume() error {
	ents, err := os.ReadDir(f.opt.Dir)
	if err != nil {
		return fmt.Errorf("warc follow: %w", err)
	}
	done := regexp.MustCompile(`^` + regexp.QuoteMeta(f.prefix) + `-(\d+)-p(\d+)\.warc\.gz$`)
	partial := regexp.MustCompile(`^` + regexp.QuoteMeta(f.prefix) + `-\d+\.open$`)
	for _, e := range ents {
		if partial.MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(f.opt.Dir, e.Name())); err != nil {
				return fmt.Errorf("warc follow: %w", err)
			}
			continue
		}
		m := done.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		seq, _ := strconv.Atoi(m[1])
		last, _ := strconv.ParseInt(m[2], 10, 64)
		f.seq, f.after = max(f.seq, seq+1), max(f.after, last)
	}
	return nil
}

// drain writes the pages committed after the last one written.
func (f *follower) drain(ctx context.Context) error {
	for {
		pages, err := f.st.Pages(ctx, store.PageQuery{Dataset: f.opt.Dataset, AfterID: f.after, Limit: followBatch, WithContent: true})
		if err != nil {
			return fmt.Errorf("warc follow: %w", err)
		}
		for _, p := range pages {
			if err := f.page(ctx, p); err != nil {
				return err
			}
		}
		if len(pages) < followBatch {
			return nil
		}
	}
}

// page writes one page's records when it has exchanges, rolling the file
// at its size.
func (f *follower) page(ctx context.Context, p *store.Page) error {
	xs, err := f.st.Exchanges(ctx, p.ID)
	if err != nil {
		return fmt.Errorf("warc follow: page %d: %w", p.ID, err)
	}
	if len(xs) > 0 {
		if err := f.write(p, xs); err != nil {
			return err
		}
	}
	f.after = p.ID
	if f.w != nil && f.w.Offset() >= f.opt.MaxFileBytes {
		return f.closeFile()
	}
	return nil
}

// write writes a page's records to the open file, opening one first.
func (f *follower) write(p *store.Page, xs []store.Exchange) error {
	if f.w == nil {
		if err := f.openFile(); err != nil {
			return err
		}
	}
	page := toPage(p, item{}, nil)
	page.Exchanges = xs
	if p.Capture != nil {
		page.Title = p.Capture.Title
	}
	if err := f.w.WritePage(page); err != nil {
		return err
	}
	f.last = p.ID
	return nil
}

// tempName is the name of file seq while it is written.
func (f *follower) tempName(seq int) string {
	return filepath.Join(f.opt.Dir, fmt.Sprintf("%s-%05d.open", f.prefix, seq))
}

// openFile starts the next file under its temporary name.
func (f *follower) openFile() error {
	file, err := os.OpenFile(f.tempName(f.seq), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("warc follow: %w", err)
	}
	f.file, f.buf = file, bufio.NewWriterSize(file, 256<<10)
	opt := f.opt.WARC
	opt.NoText = true
	if f.w, err = NewWARCWith(f.buf, opt); err != nil {
		f.abandon()
		return err
	}
	f.w.seen = f.seen // revisits refer across the files
	return nil
}

// closeFile flushes the open file to disk and gives it its final name.
func (f *follower) closeFile() error {
	err := f.buf.Flush()
	if err == nil {
		err = f.file.Sync()
	}
	if cerr := f.file.Close(); err == nil {
		err = cerr
	}
	tmp := f.tempName(f.seq)
	final := filepath.Join(f.opt.Dir, fmt.Sprintf("%s-%05d-p%d.warc.gz", f.prefix, f.seq, f.last))
	if err == nil {
		err = os.Rename(tmp, final)
	}
	f.file, f.buf, f.w = nil, nil, nil
	f.seq++
	if err != nil {
		return fmt.Errorf("warc follow: %s: %w", tmp, err)
	}
	return syncDir(f.opt.Dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("warc follow: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("warc follow: %w", err)
	}
	return nil
}

// finish writes what the store committed until now, then closes the open
// file: the store stays open until Follow returns.
func (f *follower) finish() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.drain(ctx); err != nil {
		f.abandon()
		return err
	}
	if f.w == nil {
		return nil
	}
	return f.closeFile()
}

// abandon closes the open file without naming it finished: a later Follow
// removes it and writes its pages again.
func (f *follower) abandon() {
	if f.file != nil {
		f.file.Close()
		f.file, f.buf, f.w = nil, nil, nil
	}
}
