package export

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	// Settle is how long after a page is seen Follow still looks for
	// pages with lower IDs that commit later (default 1 min), on a store
	// that cannot tell its write horizon (store.DB can: there Follow
	// looks until every transaction running when the page was seen has
	// ended, however long it runs): on PostgreSQL with several writers a
	// page's ID is drawn before its transaction commits, so pages appear
	// out of ID order.
	Settle time.Duration
	// WARC configures the records; Crawl defaults to Dataset.
	WARC WARCOptions
}

// followBatch is how many pages Follow reads from the store at a time.
const followBatch = 32

// Follow writes the recorded pages of a dataset to WARC files in Dir as the
// store commits them, until ctx ends: then it writes the pages committed
// so far, closes its file and returns. It leaves the engine that fetches
// alone: it reads what the store holds, in ID order (a page's exchanges
// are committed with it), and only those with exchanges (see WARC:
// requests and responses as served, the DOM as a conversion record; no
// text, which is extracted later).
//
// Files are written as the IIPC guidelines ask: a gzip member per record,
// rolled at MaxFileBytes. Each is written under a temporary name
// (PREFIX-NNNNN.open) and renamed when closed, so that a process killed
// at any point leaves complete .warc.gz files and at most one partial
// .open file.
//
// No committed page is skipped, though pages may commit out of ID order:
// Follow keeps a mark below which every page is written, and looks again
// above it at each turn, writing the pages it has not written yet. The
// mark passes a page once that page was seen Settle ago; when ctx ends
// (the engine that writes having stopped) it passes every page seen. A
// finished file's name holds the mark at its closing
// (PREFIX-NNNNN-pID.warc.gz): a later Follow on the same Dir and dataset
// removes the partial file and goes on above that mark, so that after a
// kill the pages above it are written again rather than lost.
func Follow(ctx context.Context, st store.Store, opt FollowOptions) error {
	f, err := newFollower(ctx, st, opt)
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
	seq    int                 // of the next file
	after  int64               // the mark: every page up to this ID is written
	recent map[int64]time.Time // pages above the mark written, when seen
	// With a store that tells its write horizon: the horizon when each
	// page of recent was seen.
	hz      horizoner
	horizon map[int64]int64
	seen    map[string]seenPayload
	named   string // the last finished file, to carry a mark moved at finish
	file    *os.File
	buf     *bufio.Writer
	w       *WARC
}

// newFollower checks opt and resumes after the files already in Dir.
func newFollower(ctx context.Context, st store.Store, opt FollowOptions) (*follower, error) {
	if opt.Dir == "" || opt.Dataset == "" {
		return nil, fmt.Errorf("warc follow: give a folder and a dataset")
	}
	if opt.MaxFileBytes <= 0 {
		opt.MaxFileBytes = 1 << 30
	}
	if opt.Every <= 0 {
		opt.Every = time.Second
	}
	if opt.Settle <= 0 {
		opt.Settle = time.Minute
	}
	if opt.WARC.Crawl == "" {
		opt.WARC.Crawl = opt.Dataset
	}
	if opt.WARC.Previous == nil {
		// A 304 refers to the capture it confirms, written by an
		// earlier run when not by this one.
		opt.WARC.Previous = previousCapture(context.WithoutCancel(ctx), st, opt.Dataset)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("warc follow: %w", err)
	}
	f := &follower{st: st, opt: opt, prefix: filePrefix(opt.Dataset), seen: map[string]seenPayload{},
		recent: map[int64]time.Time{}, horizon: map[int64]int64{}}
	f.hz, _ = st.(horizoner)
	if err := f.resume(); err != nil {
		return nil, err
	}
	return f, nil
}

// filePrefix is a dataset's name made safe for file names, and
// one-to-one: letters, digits and '_' are kept, ':' (the separator of
// dataset names) becomes '.', any other byte '~' and its hex code. So
// no two datasets share a prefix (monitor "x-hubs" and monitor x's hubs
// once both gave monitor-x-hubs), and no prefix holds the '-' that ends
// it in a file name.
func filePrefix(dataset string) string {
	var b strings.Builder
	for i := 0; i < len(dataset); i++ {
		c := dataset[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_':
			b.WriteByte(c)
		case c == ':':
			b.WriteByte('.')
		default:
			fmt.Fprintf(&b, "~%02x", c)
		}
	}
	return b.String()
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
		if seq >= f.seq {
			f.named = e.Name()
		}
		f.seq, f.after = max(f.seq, seq+1), max(f.after, last)
	}
	return nil
}

// drain writes the pages committed above the mark not written yet, then
// moves the mark past the pages seen Settle ago.
func (f *follower) drain(ctx context.Context) error {
	ended, err := f.endedBelow(ctx) // before the listing: what ended then is in it
	if err != nil {
		return err
	}
	for cursor := f.after; ; {
		listed, err := f.st.Pages(ctx, store.PageQuery{Dataset: f.opt.Dataset, AfterID: cursor, Limit: followBatch})
		if err != nil {
			return fmt.Errorf("warc follow: %w", err)
		}
		if err := f.writeNew(ctx, listed); err != nil {
			return err
		}
		if len(listed) < followBatch {
			break
		}
		cursor = listed[len(listed)-1].ID
	}
	if f.hz == nil {
		f.settle(time.Now().Add(-f.opt.Settle))
		return nil
	}
	if err := f.stamp(ctx); err != nil {
		return err
	}
	f.settleBy(func(id int64) bool { return f.horizon[id] <= ended })
	return nil
}

// horizoner is a store that tells its write horizon (store.DB).
type horizoner interface {
	WriteHorizon(ctx context.Context) (int64, error)
	WritesEndedBelow(ctx context.Context) (int64, error)
}

// endedBelow is the horizon below which every write transaction has
// ended, 0 without a horizoner.
func (f *follower) endedBelow(ctx context.Context) (int64, error) {
	if f.hz == nil {
		return 0, nil
	}
	h, err := f.hz.WritesEndedBelow(ctx)
	if err != nil {
		return 0, fmt.Errorf("warc follow: %w", err)
	}
	return h, nil
}

// stamp gives the pages first seen in this drain the write horizon taken
// after they were listed: a transaction holding a lower ID drew it before
// theirs, so it is below that horizon until it ends.
func (f *follower) stamp(ctx context.Context) error {
	h, taken := int64(0), false
	for id := range f.recent {
		if _, ok := f.horizon[id]; ok {
			continue
		}
		if !taken {
			var err error
			if h, err = f.hz.WriteHorizon(ctx); err != nil {
				return fmt.Errorf("warc follow: %w", err)
			}
			taken = true
		}
		f.horizon[id] = h
	}
	return nil
}

// writeNew loads and writes the pages of listed (metadata only) not
// written yet, in ID order.
func (f *follower) writeNew(ctx context.Context, listed []*store.Page) error {
	var ids []int64
	for _, p := range listed {
		if _, done := f.recent[p.ID]; !done {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	pages, err := f.st.Pages(ctx, store.PageQuery{Dataset: f.opt.Dataset, IDs: ids, WithContent: true})
	if err != nil {
		return fmt.Errorf("warc follow: %w", err)
	}
	slices.SortFunc(pages, func(a, b *store.Page) int { return cmp.Compare(a.ID, b.ID) })
	for _, p := range pages {
		if err := f.page(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// settle moves the mark to the highest page seen before cutoff: a page
// with a lower ID still uncommitted by then is taken to be none (its
// transaction rolled back, or it belongs to another dataset).
func (f *follower) settle(cutoff time.Time) {
	f.settleBy(func(id int64) bool { return !f.recent[id].After(cutoff) })
}

// settleBy moves the mark to the highest page seen that passed, and
// forgets the pages below it.
func (f *follower) settleBy(passed func(id int64) bool) {
	for id := range f.recent {
		if passed(id) {
			f.after = max(f.after, id)
		}
	}
	for id := range f.recent {
		if id <= f.after {
			delete(f.recent, id)
			delete(f.horizon, id)
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
	f.recent[p.ID] = time.Now()
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
	if err == nil {
		err = f.rename(tmp, f.seq)
	}
	f.file, f.buf, f.w = nil, nil, nil
	f.seq++
	if err != nil {
		return fmt.Errorf("warc follow: %s: %w", tmp, err)
	}
	return nil
}

// finalName is the name of finished file seq, holding the mark.
func (f *follower) finalName(seq int) string {
	return fmt.Sprintf("%s-%05d-p%d.warc.gz", f.prefix, seq, f.after)
}

// rename gives the file at path its finished name as file seq, durably.
func (f *follower) rename(path string, seq int) error {
	name := f.finalName(seq)
	if err := os.Rename(path, filepath.Join(f.opt.Dir, name)); err != nil {
		return err
	}
	f.named = name
	return syncDir(f.opt.Dir)
}

// renameLast carries the mark into the last finished file's name when it
// moved after that file was closed and no file is open.
func (f *follower) renameLast() error {
	if f.named == "" || f.named == f.finalName(f.seq-1) {
		return nil
	}
	if err := f.rename(filepath.Join(f.opt.Dir, f.named), f.seq-1); err != nil {
		return fmt.Errorf("warc follow: %s: %w", f.named, err)
	}
	return nil
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

// finish writes what the store committed until now, moves the mark past
// every page seen (the engine that writes has stopped: nothing below will
// commit later), then closes the open file: the store stays open until
// Follow returns.
func (f *follower) finish() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.drain(ctx); err != nil {
		f.abandon()
		return err
	}
	f.settle(time.Now())
	if f.w == nil {
		return f.renameLast()
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
