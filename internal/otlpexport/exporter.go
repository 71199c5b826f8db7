package otlpexport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/exportqueue"
	"github.com/flowd-dev/flowd/internal/secrets"
	"github.com/flowd-dev/flowd/internal/spool"
	"github.com/flowd-dev/flowd/internal/version"
)

// Status is what flowd status shows of the exporter.
type Status struct {
	Enabled    bool   `json:"enabled"`
	Endpoint   string `json:"endpoint,omitempty"`
	Protocol   string `json:"protocol,omitempty"`
	Connected  bool   `json:"connected"` // the last export was accepted
	Queued     int    `json:"queued"`
	QueueLimit int    `json:"queue_limit,omitempty"`
	// Spool is what waits on disk for the collector.
	Spool      spool.Stats `json:"spool"`
	SpoolError string      `json:"spool_error,omitempty"`
	Sent       uint64      `json:"sent"`
	// Dropped: records lost to a full memory queue (the spool's own
	// drops are in Spool.Dropped); Rejected: records the collector
	// refused as malformed, which a retry would not change.
	Dropped   uint64    `json:"dropped"`
	Rejected  uint64    `json:"rejected"`
	LastError string    `json:"last_error,omitempty"`
	LastErrAt time.Time `json:"last_error_at,omitzero"`
}

// Backoff bounds between attempts to reach a collector that is away.
var (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 30 * time.Second
)

// batchMax is how many records one export carries at most.
const batchMax = 512

// lingerMax is how long a record that finds the exporter idle waits for
// others to share its request.
const lingerMax = 100 * time.Millisecond

// sendTimeout bounds one export.
const sendTimeout = 10 * time.Second

// Exporter sends each record offered to it to the configured collector,
// in order. Offer never waits: records queue in memory, and go to the
// spool on disk when the collector is away or slow.
type Exporter struct {
	dir  string // the spool's directory
	log  *slog.Logger
	src  Resource
	mask Masker

	mu     sync.Mutex
	cfg    config.OTLP
	gen    uint64 // bumped by Configure: a new client
	q      *exportqueue.Queue
	st     Status
	spool  *spool.Spool // opened by run at the first enabled config
	reconf chan struct{}
	stop   chan struct{}
	done   chan struct{}
	// base is cancelled when a stopping exporter's drain time is up: it
	// ends the export in flight.
	base       context.Context
	cancelBase context.CancelFunc
}

// New starts an exporter with cfg (off when cfg.Enabled is false) whose
// spool lives in dir; Close stops it.
func New(cfg config.OTLP, dir string, log *slog.Logger) (*Exporter, error) {
	host, _ := os.Hostname()
	e := &Exporter{dir: dir, log: log,
		src:  Resource{Host: host, PID: os.Getpid(), Version: version.Version},
		mask: maskSecrets, q: exportqueue.New(0),
		reconf: make(chan struct{}, 1),
		stop:   make(chan struct{}), done: make(chan struct{})}
	e.base, e.cancelBase = context.WithCancel(context.Background())
	if err := e.Configure(cfg); err != nil {
		return nil, err
	}
	go e.run()
	return e, nil
}

// maskSecrets replaces each secret the detector finds in s with its
// type; without a detector nothing of s is sent.
func maskSecrets(s string) string {
	d, err := secrets.Default()
	if err != nil {
		return "[not exported: the secret detector is unavailable]"
	}
	found := d.Scan(s)
	if len(found) == 0 {
		return s
	}
	var out []byte
	last := 0
	for _, f := range found {
		if f.Start < last {
			continue // overlaps one masked already
		}
		out = append(out, s[last:f.Start]...)
		out = append(out, "[secret:"+f.Type+"]"...)
		last = f.End
	}
	return string(append(out, s[last:]...))
}

func equal(a, b config.OTLP) bool {
	return maps.Equal(a.Headers, b.Headers) && reflect.DeepEqual(withoutHeaders(a), withoutHeaders(b))
}

func withoutHeaders(c config.OTLP) config.OTLP {
	c.Headers = nil
	return c
}

// Configure applies cfg from the next export on; what waits stays for
// the new collector. Its TLS files are read here, so that a bad one is
// an error now.
func (e *Exporter) Configure(cfg config.OTLP) error {
	if cfg.Enabled {
		if _, err := clientTLS(cfg); err != nil {
			e.fail(err)
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if equal(cfg, e.cfg) && e.gen > 0 {
		return nil
	}
	cfg.Headers = maps.Clone(cfg.Headers)
	e.cfg = cfg
	e.gen++
	e.st.Enabled, e.st.Endpoint, e.st.Protocol, e.st.QueueLimit = cfg.Enabled, cfg.Endpoint, cfg.Protocol, cfg.QueueLimit
	e.q.SetLimit(cfg.QueueLimit)
	select {
	case e.reconf <- struct{}{}:
	default:
	}
	return nil
}

// Offer queues r, dropping the oldest queued record when the queue is
// full (the exporter moves the queue to the spool long before, unless
// the disk fails). It is the activity store's Committed hook.
func (e *Exporter) Offer(r activity.Record) {
	e.mu.Lock()
	on := e.cfg.Enabled
	e.mu.Unlock()
	if on {
		e.q.Push(r)
	}
}

// Status is the exporter's state now.
func (e *Exporter) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.st
	s.Queued, s.Dropped = e.q.Len(), e.q.Dropped()
	if e.spool != nil {
		s.Spool = e.spool.Stats()
	}
	s.Connected = s.Connected && e.cfg.Enabled
	return s
}

// Close stops the exporter: for up to the config's drain timeout it
// keeps sending what waits, then puts what is left in the spool for the
// next start.
func (e *Exporter) Close() {
	e.mu.Lock()
	select {
	case <-e.stop:
		e.mu.Unlock()
		return
	default:
	}
	close(e.stop)
	drain := e.cfg.DrainTimeout.Duration
	e.mu.Unlock()
	t := time.AfterFunc(drain, e.cancelBase)
	<-e.done
	t.Stop()
	e.cancelBase()
}

func (e *Exporter) stopping() bool {
	select {
	case <-e.stop:
		return true
	default:
		return false
	}
}

// run sends what waits, the spool's records before the queue's (they
// are older), redialling with backoff while the collector is away; the
// queue moves to the spool whenever a send fails and while it waits.
func (e *Exporter) run() {
	defer close(e.done)
	var (
		c       client
		cgen    uint64
		backoff = minBackoff
	)
	defer func() {
		if c != nil {
			c.close()
		}
		e.mu.Lock()
		if e.spool != nil {
			if err := e.spool.Close(); err != nil {
				e.log.Error("otlp export: closing the spool", "err", err)
			}
		}
		e.mu.Unlock()
	}()
	for {
		e.mu.Lock()
		cfg, gen, enabled := e.cfg, e.gen, e.cfg.Enabled
		e.mu.Unlock()
		q := e.q.Len()
		stopping := e.stopping()
		if !enabled {
			// What waited goes to the spool, for when export is on again.
			e.mu.Lock()
			sp := e.spool
			e.mu.Unlock()
			if sp != nil {
				e.spill(sp)
			}
			if stopping || !e.wait() {
				return
			}
			continue
		}
		sp := e.openSpool(cfg)
		if c == nil || cgen != gen {
			if c != nil {
				c.close()
			}
			var err error
			if c, err = newClient(cfg); err != nil {
				c = nil
				e.fail(err)
				if stopping || !e.wait() {
					return
				}
				continue
			}
			cgen = gen
		}
		// A queue past half full goes to the spool: a collector slower
		// than flowd loses nothing either.
		if sp != nil && q > cfg.QueueLimit/2 {
			e.spill(sp)
		}
		sent, err := e.sendNext(c, sp)
		switch {
		case err != nil:
			e.fail(err)
			e.setConnected(false)
			if sp != nil {
				e.spill(sp)
			}
			if stopping || e.base.Err() != nil {
				return
			}
			if !e.sleep(backoff, sp) {
				e.finish(c, sp)
				return
			}
			backoff = min(2*backoff, maxBackoff)
		case sent:
			e.setConnected(true)
			backoff = minBackoff
		case stopping:
			return // all sent
		default:
			if !e.wait() {
				e.finish(c, sp)
				return
			}
			e.linger()
		}
	}
}

// finish is a stopping exporter's last round: it sends what waits until
// the drain time is up or a send fails, then spools the rest.
func (e *Exporter) finish(c client, sp *spool.Spool) {
	for e.base.Err() == nil {
		sent, err := e.sendNext(c, sp)
		if err != nil {
			e.fail(err)
			break
		}
		if !sent {
			return
		}
	}
	if sp != nil {
		e.spill(sp)
	}
}

// wait waits for a record or a config; false once stopped.
func (e *Exporter) wait() bool {
	select {
	case <-e.q.Ready():
		return true
	case <-e.reconf:
		return true
	case <-e.stop:
		return false
	}
}

// linger gives the record that woke an idle exporter company: up to
// lingerMax for a batch to fill. A steady trickle of records then goes
// in a few requests rather than one each, which costs flowd and the
// collector CPU a verdict competes for.
func (e *Exporter) linger() {
	t := time.NewTimer(lingerMax)
	defer t.Stop()
	for e.q.Len() < batchMax {
		select {
		case <-t.C:
			return
		case <-e.q.Ready():
		case <-e.reconf:
			return // run reads the config again
		case <-e.stop:
			return
		}
	}
}

// sleep waits d, moving records offered meanwhile to the spool, or less
// when the config changes; false once stopped.
func (e *Exporter) sleep(d time.Duration, sp *spool.Spool) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return true
		case <-e.reconf:
			return true
		case <-e.q.Ready():
			if sp != nil {
				e.spill(sp)
			}
		case <-e.stop:
			return false
		}
	}
}

// openSpool opens the spool at the first enabled config; nil when it
// cannot be (status says why): the exporter then keeps records in
// memory only.
func (e *Exporter) openSpool(cfg config.OTLP) *spool.Spool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.spool != nil || e.st.SpoolError != "" {
		return e.spool
	}
	sp, err := spool.Open(e.dir, int64(cfg.SpoolBytes))
	if err != nil {
		e.st.SpoolError = err.Error()
		e.log.Error("otlp export: no spool on disk; records wait in memory only", "err", err)
		return nil
	}
	e.spool = sp
	return sp
}

// spill moves the queue to the end of the spool.
func (e *Exporter) spill(sp *spool.Spool) {
	if err := e.q.Spill(sp); err != nil {
		e.fail(err)
	}
}

// sendNext sends the oldest batch, the spool's first; false when
// nothing waits.
func (e *Exporter) sendNext(c client, sp *spool.Spool) (bool, error) {
	recs, done, err := e.q.Next(sp, batchMax)
	if err != nil || len(recs) == 0 {
		return false, err
	}
	err = e.export(c, recs)
	if err != nil && !errors.Is(err, errRejected) {
		return false, err
	}
	if derr := done(); derr != nil {
		return false, derr
	}
	if err == nil {
		e.sent(len(recs))
	}
	return true, nil
}

// export sends recs as one request; errRejected when the collector
// refused it as malformed (counted: sending it again would not help).
func (e *Exporter) export(c client, recs []activity.Record) error {
	if len(recs) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(e.base, sendTimeout)
	defer cancel()
	err := c.export(ctx, Logs(recs, e.src, e.mask, time.Now()))
	if errors.Is(err, errRejected) {
		e.mu.Lock()
		e.st.Rejected += uint64(len(recs))
		e.mu.Unlock()
		e.fail(err)
	}
	return err
}

func (e *Exporter) sent(n int) {
	e.mu.Lock()
	e.st.Sent += uint64(n)
	e.mu.Unlock()
}

func (e *Exporter) setConnected(ok bool) {
	e.mu.Lock()
	e.st.Connected = ok
	e.mu.Unlock()
}

func (e *Exporter) fail(err error) {
	e.mu.Lock()
	e.st.LastError, e.st.LastErrAt = err.Error(), time.Now()
	e.mu.Unlock()
	e.log.Debug("otlp export", "err", err)
}

// errRejected marks an export the collector refused for what it holds.
var errRejected = errors.New("the collector rejected the records")

func rejected(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errRejected}, args...)...)
}
