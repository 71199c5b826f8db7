package attackfeed

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/attackprint"
)

// Source is a feed to pull: where, and the one key it is trusted for.
type Source struct {
	URL    string
	Key    ed25519.PublicKey
	CAFile string // PEM roots for the https server; "": the system's
}

// Config is what to pull and how.
type Config struct {
	Sources  []Source
	Interval time.Duration // between two pulls of a feed, a tenth either way
	Timeout  time.Duration // one pull, connection and body
	MaxBytes int64         // a larger feed is refused
}

func (c Config) equal(d Config) bool {
	return c.Interval == d.Interval && c.Timeout == d.Timeout && c.MaxBytes == d.MaxBytes &&
		slices.EqualFunc(c.Sources, d.Sources, func(a, b Source) bool {
			return a.URL == b.URL && a.Key.Equal(b.Key) && a.CAFile == b.CAFile
		})
}

// Options configure a Syncer.
type Options struct {
	// Dir keeps each feed's last good file and its pull state.
	Dir string
	// Add stores a feed's prints, saying how many were new.
	Add func(...attackprint.Print) (int, error)
	Log *slog.Logger
}

// Status is one feed's state, for flowd status.
type Status struct {
	URL string `json:"url"`
	Key string `json:"key"`
	// The last good feed: its sequence number, date, prints, and when it
	// was taken (zero: none yet).
	Seq     uint64    `json:"seq,omitempty"`
	Created time.Time `json:"created,omitzero"`
	Prints  int       `json:"prints"`
	Taken   time.Time `json:"taken,omitzero"`
	// Checked is the last pull that ended well (a new feed or the same);
	// Attempt the last pull at all.
	Checked time.Time `json:"checked,omitzero"`
	Attempt time.Time `json:"attempt,omitzero"`
	// Error is why the last pull failed; the last good feed stays.
	Error string `json:"error,omitempty"`
	// Refused counts the pulls that failed since flowd started.
	Refused int `json:"refused,omitempty"`
}

// Syncer pulls feeds. Its methods are safe for concurrent use.
type Syncer struct {
	o Options

	mu    sync.Mutex
	feeds map[string]*feed // by id
	cfg   Config           // as configured, to tell a change
	stop  context.CancelFunc
	done  chan struct{}
}

// feed is one source's state; pulls of it are one at a time.
type feed struct {
	src    Source
	cfg    Config
	id     string
	client *http.Client
	// broken: the feed's config cannot be used (its CA file); every
	// pull fails with it.
	broken error
	pull   sync.Mutex // held by a pull
	// Below: under Syncer.mu.
	last   taken
	etag   string
	mod    string
	status Status
}

// pullState is what is kept on disk beside the last good feed file.
type pullState struct {
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	Taken        time.Time `json:"taken,omitzero"`
}

// New makes a Syncer that pulls nothing until Configure.
func New(o Options) *Syncer {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Syncer{o: o, feeds: map[string]*feed{}}
}

// id names a feed's files: the URL with its key, so that a feed whose
// key the config changes starts again rather than compare sequence
// numbers of two publishers.
func id(src Source) string {
	sum := sha256.Sum256([]byte(src.URL + "\n" + attackprint.PublicKey(src.Key)))
	return hex.EncodeToString(sum[:8])
}

// Configure pulls c's sources from now on, each at once and then on the
// schedule; the same config as before leaves the schedule as it is.
// Each feed's last good file is read again first, so that its prints are
// back even if the prints store was lost.
func (s *Syncer) Configure(c Config) {
	s.mu.Lock()
	same := c.equal(s.cfg)
	s.mu.Unlock()
	if same {
		return
	}
	s.Close()
	if err := os.MkdirAll(s.o.Dir, 0o700); err != nil {
		s.o.Log.Error("attack feeds cannot be kept on disk", "dir", s.o.Dir, "err", err)
	}
	feeds := map[string]*feed{}
	for _, src := range c.Sources {
		f := &feed{src: src, cfg: c, id: id(src), status: Status{URL: src.URL, Key: attackprint.PublicKey(src.Key)}}
		if f.client, f.broken = httpClient(src, c.Timeout); f.broken != nil {
			f.status.Error = f.broken.Error()
			s.o.Log.Error("attack feed cannot be pulled", "url", src.URL, "err", f.broken)
		}
		s.restore(f)
		feeds[f.id] = f
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.mu.Lock()
	c.Sources = slices.Clone(c.Sources)
	s.feeds, s.cfg, s.stop, s.done = feeds, c, stop, done
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, f := range feeds {
		if f.broken != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx, f)
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
}

// Close stops pulling and waits for the pulls under way.
func (s *Syncer) Close() {
	s.mu.Lock()
	stop, done := s.stop, s.done
	s.stop, s.done, s.cfg = nil, nil, Config{}
	s.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

func (s *Syncer) loop(ctx context.Context, f *feed) {
	for {
		s.pullFeed(ctx, f)
		t := time.NewTimer(jittered(f.cfg.Interval))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// jittered is d a tenth either way at random: a fleet started at once
// does not pull at once ever after.
func jittered(d time.Duration) time.Duration {
	if d < 10 {
		return d
	}
	return d - d/10 + rand.N(d/5+1)
}

// Status is every feed's state, in the configured order.
func (s *Syncer) Status() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Status, 0, len(s.cfg.Sources))
	for _, src := range s.cfg.Sources {
		if f, ok := s.feeds[id(src)]; ok {
			out = append(out, f.status)
		}
	}
	return out
}

// Pull pulls the configured feed at url now, as the schedule would.
func (s *Syncer) Pull(ctx context.Context, url string) error {
	s.mu.Lock()
	var f *feed
	for _, src := range s.cfg.Sources {
		if src.URL == url {
			f = s.feeds[id(src)]
		}
	}
	s.mu.Unlock()
	if f == nil {
		return fmt.Errorf("no feed %s is configured", url)
	}
	return s.pullFeed(ctx, f)
}

// pullFeed pulls f once; a failure is logged and kept in its status.
func (s *Syncer) pullFeed(ctx context.Context, f *feed) error {
	f.pull.Lock()
	defer f.pull.Unlock()
	err := s.pull(ctx, f)
	s.mu.Lock()
	f.status.Attempt = time.Now()
	if err != nil {
		f.status.Error = err.Error()
		f.status.Refused++
	} else {
		f.status.Error, f.status.Checked = "", f.status.Attempt
	}
	s.mu.Unlock()
	if err != nil && ctx.Err() == nil {
		s.o.Log.Warn("attack feed not taken; the last good one stays", "url", f.src.URL, "err", err)
	}
	return err
}

func (s *Syncer) pull(ctx context.Context, f *feed) error {
	s.mu.Lock()
	last, etag, mod := f.last, f.etag, f.mod
	s.mu.Unlock()
	raw, got, err := s.fetch(ctx, f, etag, mod)
	if err != nil || raw == nil { // nil: not modified
		return err
	}
	sum := sha256.Sum256(raw)
	hexSum := hex.EncodeToString(sum[:])
	if hexSum == last.SHA256 {
		s.mu.Lock()
		f.etag, f.mod = got.ETag, got.LastModified
		s.mu.Unlock()
		return nil
	}
	feed, err := attackprint.VerifyFeed(raw, []ed25519.PublicKey{f.src.Key})
	if err != nil {
		return err
	}
	if _, err := verdict(last, feed, hexSum); err != nil {
		return err
	}
	added, err := s.o.Add(feed.Prints...)
	if err != nil {
		return err
	}
	got.Taken = time.Now()
	// The file first: a state without its feed would be read as no feed.
	if err := atomicfile.Write(s.path(f, ".feed"), raw, 0o600); err != nil {
		return fmt.Errorf("keep the feed: %w", err)
	}
	if b, err := json.Marshal(got); err == nil {
		if err := atomicfile.Write(s.path(f, ".json"), b, 0o600); err != nil {
			s.o.Log.Warn("attack feed taken, but its pull state was not kept: the next start pulls it whole again", "url", f.src.URL, "err", err)
		}
	}
	s.mu.Lock()
	f.last = taken{Seq: feed.Seq, Created: feed.Created, SHA256: hexSum}
	f.etag, f.mod = got.ETag, got.LastModified
	f.status.Seq, f.status.Created, f.status.Prints, f.status.Taken = feed.Seq, feed.Created, len(feed.Prints), got.Taken
	s.mu.Unlock()
	s.o.Log.Info("attack feed taken", "url", f.src.URL, "seq", feed.Seq, "prints", len(feed.Prints), "new", added, "skipped", feed.Skipped)
	return nil
}

func (s *Syncer) path(f *feed, ext string) string { return filepath.Join(s.o.Dir, f.id+ext) }

// restore reads f's last good feed from disk, verified again with its
// key, and stores its prints again.
func (s *Syncer) restore(f *feed) {
	raw, err := os.ReadFile(s.path(f, ".feed"))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var feed attackprint.Feed
	if err == nil {
		feed, err = attackprint.VerifyFeed(raw, []ed25519.PublicKey{f.src.Key})
	}
	if err == nil {
		_, err = s.o.Add(feed.Prints...)
	}
	if err != nil {
		// Pulled again whole; a replay of an older feed could then be
		// taken once, which is why the file is kept at all.
		s.o.Log.Error("the last good attack feed kept on disk cannot be read; it is pulled again", "url", f.src.URL, "err", err)
		return
	}
	sum := sha256.Sum256(raw)
	var st pullState
	if b, err := os.ReadFile(s.path(f, ".json")); err == nil {
		json.Unmarshal(b, &st) // unreadable: no conditional request, the feed is compared whole
	}
	f.last = taken{Seq: feed.Seq, Created: feed.Created, SHA256: hex.EncodeToString(sum[:])}
	f.etag, f.mod = st.ETag, st.LastModified
	f.status.Seq, f.status.Created, f.status.Prints, f.status.Taken = feed.Seq, feed.Created, len(feed.Prints), st.Taken
}

// fetch gets the feed file; nil raw and no error: not modified since the
// last pull.
func (s *Syncer) fetch(ctx context.Context, f *feed, etag, mod string) ([]byte, pullState, error) {
	u, err := url.Parse(f.src.URL)
	if err != nil {
		return nil, pullState{}, fmt.Errorf("feed address: %w", err)
	}
	if u.Scheme == "file" {
		raw, err := readFile(filePath(u), f.cfg.MaxBytes)
		return raw, pullState{}, err
	}
	if f.broken != nil {
		return nil, pullState{}, f.broken
	}
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.src.URL, nil)
	if err != nil {
		return nil, pullState{}, fmt.Errorf("feed request: %w", err)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if mod != "" {
		req.Header.Set("If-Modified-Since", mod)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, pullState{}, fmt.Errorf("pull feed: %w", err)
	}
	defer resp.Body.Close()
	got := pullState{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return nil, got, nil
	case resp.StatusCode != http.StatusOK:
		return nil, got, fmt.Errorf("pull feed: the server answered %s", resp.Status)
	case resp.ContentLength > f.cfg.MaxBytes:
		return nil, got, tooLarge(f.cfg.MaxBytes)
	}
	raw, err := readAll(resp.Body, f.cfg.MaxBytes)
	if err != nil {
		return nil, got, fmt.Errorf("pull feed: %w", err)
	}
	return raw, got, nil
}

func tooLarge(max int64) error {
	return fmt.Errorf("feed larger than injection.known_attacks.feed_max_bytes (%d bytes)", max)
}

// readAll reads r whole, up to max bytes.
func readAll(r io.Reader, max int64) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(raw)) > max {
		return nil, tooLarge(max)
	}
	return raw, nil
}

func readFile(path string, max int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read feed: %w", err)
	}
	defer fh.Close()
	// A pipe or a device would hold the pull, which has no timeout here,
	// and with it a reload or a stop.
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read feed: %s is not a regular file", path)
	}
	raw, err := readAll(fh, max)
	if err != nil {
		return nil, fmt.Errorf("read feed %s: %w", path, err)
	}
	return raw, nil
}

var windowsDrive = regexp.MustCompile(`^/[A-Za-z]:`)

// filePath is a file URL's path: file:///C:/feeds/x is C:/feeds/x.
func filePath(u *url.URL) string {
	p := u.Path
	if windowsDrive.MatchString(p) {
		p = p[1:]
	}
	return filepath.FromSlash(p)
}

// httpClient pulls src: bounded in time, over TLS to the end (a redirect
// to plain http is refused), trusting src.CAFile's roots when it names
// one.
func httpClient(src Source, timeout time.Duration) (*http.Client, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if src.CAFile != "" {
		pem, err := os.ReadFile(src.CAFile)
		if err != nil {
			return nil, fmt.Errorf("feed ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("feed ca_file %s holds no PEM certificate", src.CAFile)
		}
		t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: t, Timeout: timeout, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "https" {
			return fmt.Errorf("feed redirected to %s: only https is followed", req.URL.Redacted())
		}
		if len(via) >= 5 {
			return errors.New("feed redirected more than 5 times")
		}
		return nil
	}}, nil
}
