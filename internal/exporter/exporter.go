// Package exporter is what flowd's exporters (OTLP, syslog) share: the
// loop that takes activity records from a bounded queue in memory and a
// spool on disk (internal/exportqueue, internal/spool) and hands them,
// in order and in batches, to a Link, the part that differs (encoding
// and transport). It retries with backoff while the receiver is away,
// moves the queue to the spool meanwhile, and at a stop keeps sending
// for the drain time, then spools the rest for the next start. One
// Status says how each exporter stands.
package exporter

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/exportqueue"
	"github.com/flowd-dev/flowd/internal/spool"
)

// Status is what flowd status, doctor, the dashboard and /metrics show
// of an exporter.
type Status struct {
	// Name is the exporter: "otlp" or "syslog".
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	// Endpoint is where records go (a URL, or host:port), Protocol how
	// (http, grpc; tcp, tls, udp), Format as what, where there is a
	// choice (rfc5424, cef).
	Endpoint string `json:"endpoint,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	Format   string `json:"format,omitempty"`
	// Connected: the receiver is known to be there (a stream it has not
	// closed, or an export it answered).
	Connected  bool `json:"connected"`
	Queued     int  `json:"queued"`
	QueueLimit int  `json:"queue_limit,omitempty"`
	// Spool is what waits on disk for the receiver.
	Spool      spool.Stats `json:"spool"`
	SpoolError string      `json:"spool_error,omitempty"`
	// Offered: records handed to the exporter while it was on; Spilled:
	// those of them moved to the spool; Sent: those the receiver has.
	Offered uint64 `json:"offered"`
	Spilled uint64 `json:"spilled"`
	Sent    uint64 `json:"sent"`
	// Dropped: records lost to a full memory queue (the spool's own
	// drops are in Spool.Dropped); Rejected: records the receiver
	// refused as malformed, which a retry would not change.
	Dropped  uint64 `json:"dropped"`
	Rejected uint64 `json:"rejected"`
	// SendErrors counts failed connects and sends.
	SendErrors uint64    `json:"send_errors"`
	LastError  string    `json:"last_error,omitempty"`
	LastErrAt  time.Time `json:"last_error_at,omitzero"`
}

// Lost is every record dropped, from the memory queue or the spool.
func (s *Status) Lost() uint64 { return s.Dropped + s.Spool.Dropped }

// Link is one connection to a receiver, made by Config.Dial.
type Link interface {
	// Send delivers recs, in order, within ctx; n is how many of them,
	// from the first, the receiver has (on a transport without answers:
	// were written), taken off the queue even when err is not nil. An
	// err wrapping ErrRejected: the receiver refused all of them for
	// what they hold; they are counted, and not sent again.
	Send(ctx context.Context, recs []activity.Record) (n int, err error)
	// Up: the receiver is known to be there now.
	Up() bool
	Close()
}

// ErrRejected marks a batch the receiver refused for what it holds; a
// link words it ("the collector rejected the records: ...").
var ErrRejected = errors.New("rejected")

// Config is an exporter's config, as the loop needs it.
type Config struct {
	Enabled                    bool
	Endpoint, Protocol, Format string // for Status
	QueueLimit                 int
	SpoolBytes                 int64
	DrainTimeout               time.Duration
	// Dial connects to the receiver; ctx ends when a stopping
	// exporter's drain time is up.
	Dial func(ctx context.Context) (Link, error)
}

// Backoff bounds between attempts to reach a receiver that is away.
var (
	MinBackoff = 100 * time.Millisecond
	MaxBackoff = 30 * time.Second
)

// lingerMax is how long a record may wait for others to share its
// batch, as long as OpenTelemetry's batch processors wait by default.
// A send, not a record, is most of what export costs at a trickle: an
// OTLP/HTTP request wakes goroutines 5 times in net/http, besides the
// poller and the timer, each waking a thread of an otherwise idle
// flowd: about 16 context switches and 0.45 ms of CPU on a loaded
// machine, against tens of µs a record. At a fleet flowd's 20 records/s,
// 1 s rather than 0.1 s cut export's CPU per record 5 times
// (BenchmarkExportTrickle); what it costs is records held in memory up
// to 1 s, where a crash loses them (the activity log keeps them).
const lingerMax = time.Second

// spillEvery is how often a retrying exporter moves what waits in
// memory to the spool: what a crash while the receiver is away loses.
const spillEvery = 100 * time.Millisecond

// sendTimeout bounds one send: a receiver that stops reading is treated
// as away, and retried.
const sendTimeout = 10 * time.Second

// dropLogEvery is how often, at most, the log hears of records a full
// queue dropped (the counters and /metrics have each one).
const dropLogEvery = time.Minute

// Exporter sends each record offered to it to the configured receiver,
// in order. Offer never waits, nor wakes the exporter's goroutine for
// each record: records queue in memory, and go to the spool on disk
// when the receiver is away or slow.
type Exporter struct {
	name  string
	dir   string // the spool's directory
	batch int    // records a send carries at most
	log   *slog.Logger
	q     *exportqueue.Queue
	on    atomic.Bool // the config's Enabled, for Offer without the lock

	// The run goroutine's alone: drops the log was told of, and when.
	droppedLogged uint64
	dropLoggedAt  time.Time

	mu         sync.Mutex
	cfg        Config
	gen        uint64 // bumped by Configure: a new link
	st         Status // counters and state
	spool      *spool.Spool
	link       Link   // the current one, for Status
	linkGen    uint64 // the config it was made for
	reconf     chan struct{}
	stop, done chan struct{}
	// base is cancelled when a stopping exporter's drain time is up: it
	// ends the send in flight.
	base       context.Context
	cancelBase context.CancelFunc
}

// New starts an exporter, off until Configure, named name (for status
// and logs), whose spool lives in dir and whose sends carry at most
// batch records; Close stops it.
func New(name, dir string, batch int, log *slog.Logger) *Exporter {
	e := &Exporter{name: name, dir: dir, batch: batch, log: log, q: exportqueue.New(0),
		st:     Status{Name: name},
		reconf: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	e.base, e.cancelBase = context.WithCancel(context.Background())
	go e.run()
	return e
}

// Configure applies cfg from the next send on; what waits stays for the
// new receiver.
func (e *Exporter) Configure(cfg Config) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg = cfg
	e.gen++
	e.st.Enabled, e.st.Endpoint, e.st.Protocol, e.st.Format = cfg.Enabled, cfg.Endpoint, cfg.Protocol, cfg.Format
	e.st.QueueLimit = cfg.QueueLimit
	e.q.SetLimit(cfg.QueueLimit)
	e.q.WakeAt(e.fill(cfg.QueueLimit))
	e.on.Store(cfg.Enabled)
	select {
	case e.reconf <- struct{}{}:
	default:
	}
}

// Offer queues r, dropping the oldest queued record when the queue is
// full (the exporter moves the queue to the spool long before, unless
// the disk fails or a send is stuck); the drop is counted, and logged.
// It never waits, on the network or on the exporter: it takes only the
// queue's lock, which nothing holds across I/O, and wakes the exporter
// only for a record that finds the queue empty or fills a batch.
func (e *Exporter) Offer(r activity.Record) {
	if e.on.Load() {
		e.q.Push(r)
	}
}

// fill is the batch a send waits for: a full one, or half the queue's
// limit, past which the queue spills.
func (e *Exporter) fill(limit int) int { return min(e.batch, limit/2) }

// Status is the exporter's state now.
func (e *Exporter) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.st
	s.Queued, s.Dropped, s.Offered, s.Spilled = e.q.Len(), e.q.Dropped(), e.q.Offered(), e.q.Spilled()
	if e.spool != nil {
		s.Spool = e.spool.Stats()
	}
	// A link made for an older config is being replaced.
	s.Connected = e.cfg.Enabled && e.link != nil && e.linkGen == e.gen && e.link.Up()
	return s
}

// Fail notes err as the exporter's last error, for an error of its
// config found outside the loop.
func (e *Exporter) Fail(err error) {
	e.mu.Lock()
	e.st.LastError, e.st.LastErrAt = err.Error(), time.Now()
	e.mu.Unlock()
	e.log.Debug(e.name+" export", "err", err)
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
	drain := e.cfg.DrainTimeout
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
// are older), redialling with backoff while the receiver is away; the
// queue moves to the spool whenever a send fails and while it waits. A
// record leaves the queue or spool only once the link says the receiver
// has it, so a receiver that went away gets the rest on the next link.
func (e *Exporter) run() {
	defer close(e.done)
	var (
		l       Link
		lgen    uint64
		backoff = MinBackoff
	)
	drop := func() {
		if l != nil {
			l.Close()
			l = nil
			e.setLink(nil, 0)
		}
	}
	// backOff waits before the next try, the queue and what is offered
	// meanwhile going to sp (nil: staying in memory); false once stopped.
	backOff := func(sp *spool.Spool) bool {
		if sp != nil {
			e.spill(sp)
		}
		ok := e.sleep(backoff, sp, e.fill(e.config().QueueLimit))
		backoff = min(2*backoff, MaxBackoff)
		return ok
	}
	defer func() {
		drop()
		if sp := e.openedSpool(); sp != nil {
			e.spill(sp)
			if err := sp.Close(); err != nil {
				e.log.Error(e.name+" export: closing the spool", "err", err)
			}
		}
	}()
	for {
		e.mu.Lock()
		cfg, gen := e.cfg, e.gen
		e.mu.Unlock()
		e.logDrops()
		stopping := e.stopping()
		if !cfg.Enabled {
			drop()
			// What waited goes to the spool, for when export is on again.
			if sp := e.openedSpool(); sp != nil {
				e.spill(sp)
			}
			if stopping || !e.wait() {
				return
			}
			continue
		}
		if e.base.Err() != nil {
			return // the drain time is up: the rest waits in the spool
		}
		sp := e.openSpool(cfg)
		// A queue past half full goes to the spool: a receiver slower
		// than flowd loses nothing either.
		if sp != nil && e.q.Len() > cfg.QueueLimit/2 {
			e.spill(sp)
		}
		recs, done, err := e.q.Next(sp, e.batch)
		if err != nil {
			e.Fail(err)
			if !backOff(nil) {
				return
			}
			continue
		}
		if len(recs) == 0 {
			if stopping || !e.wait() {
				return
			}
			continue
		}
		if l != nil && lgen != gen {
			drop()
		}
		if l == nil {
			if l, err = cfg.Dial(e.base); err != nil {
				l = nil
				e.failSend(err)
				if !backOff(sp) {
					return
				}
				continue
			}
			lgen = gen
			e.setLink(l, gen)
		}
		if !stopping && e.linger(recs, cfg.QueueLimit, gen) {
			continue // a fuller batch
		}
		n, err := e.send(l, recs)
		rejected := errors.Is(err, ErrRejected)
		if rejected {
			n = len(recs)
		}
		if n > 0 {
			if derr := done(n); derr != nil {
				e.Fail(derr)
			}
			e.count(n, rejected)
		}
		switch {
		case rejected:
			e.Fail(err)
		case err != nil:
			e.failSend(err)
			drop()
			if !backOff(sp) {
				return
			}
		default:
			backoff = MinBackoff
		}
	}
}

// send sends recs on l, within the send timeout and the drain time.
func (e *Exporter) send(l Link, recs []activity.Record) (int, error) {
	ctx, cancel := context.WithTimeout(e.base, sendTimeout)
	defer cancel()
	n, err := l.Send(ctx, recs)
	return min(max(n, 0), len(recs)), err
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

// linger holds back a batch smaller than a full one (or than half the
// queue's limit, past which the queue spills) until its oldest record
// was made lingerMax ago, the queue fills it, or config gen changes;
// true when it waited. A steady trickle of records then goes in a few
// sends rather than one each, which costs flowd and the receiver CPU a
// verdict competes for.
func (e *Exporter) linger(recs []activity.Record, limit int, gen uint64) bool {
	fill := e.fill(limit)
	if len(recs) >= fill {
		return false
	}
	now := time.Now()
	// A clock set back does not hold a record longer than lingerMax.
	wait := min(recs[0].Time.Add(lingerMax).Sub(now), lingerMax)
	if wait <= 0 {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for e.q.Len() < fill {
		select {
		case <-t.C:
			return true
		case <-e.q.Ready():
		case <-e.reconf:
			e.mu.Lock()
			changed := e.gen != gen
			e.mu.Unlock()
			if changed {
				return true // run reads the config again
			}
		case <-e.stop:
			return true
		}
	}
	return true
}

// sleep waits d, or less when the config changes; false once stopped.
// Meanwhile it moves the records offered to sp (nil: none) every
// spillEvery, and at once when they fill a batch: a crash loses at most
// that much, and a trickle of records does not wake it for each.
func (e *Exporter) sleep(d time.Duration, sp *spool.Spool, fill int) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	var tick <-chan time.Time
	if sp != nil {
		k := time.NewTicker(spillEvery)
		defer k.Stop()
		tick = k.C
	}
	for {
		select {
		case <-t.C:
			return true
		case <-e.reconf:
			return true
		case <-tick:
			e.spill(sp)
		case <-e.q.Ready():
			if sp != nil && e.q.Len() >= fill {
				e.spill(sp)
			}
		case <-e.stop:
			return false
		}
	}
}

func (e *Exporter) config() Config {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cfg
}

// logDrops tells the log of records a full queue dropped since it last
// did, at most every dropLogEvery.
func (e *Exporter) logDrops() {
	d := e.q.Dropped()
	if d == e.droppedLogged || time.Since(e.dropLoggedAt) < dropLogEvery {
		return
	}
	e.log.Warn(e.name+" export: the queue in memory was full, its oldest records were dropped (the activity log still has them)",
		"dropped", d-e.droppedLogged, "dropped_total", d, "queue_limit", e.config().QueueLimit)
	e.droppedLogged, e.dropLoggedAt = d, time.Now()
}

// openSpool opens the spool at the first enabled config; nil when it
// cannot be (status says why): the exporter then keeps records in
// memory only.
func (e *Exporter) openSpool(cfg Config) *spool.Spool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.spool != nil || e.st.SpoolError != "" {
		return e.spool
	}
	sp, err := spool.Open(e.dir, cfg.SpoolBytes)
	if err != nil {
		e.st.SpoolError = err.Error()
		e.log.Error(e.name+" export: no spool on disk; records wait in memory only", "err", err)
		return nil
	}
	e.spool = sp
	return sp
}

func (e *Exporter) openedSpool() *spool.Spool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.spool
}

// spill moves the queue to the end of the spool.
func (e *Exporter) spill(sp *spool.Spool) {
	if err := e.q.Spill(sp); err != nil {
		e.Fail(err)
	}
}

// count notes n records the receiver has, or refused.
func (e *Exporter) count(n int, rejected bool) {
	e.mu.Lock()
	if rejected {
		e.st.Rejected += uint64(n)
	} else {
		e.st.Sent += uint64(n)
	}
	e.mu.Unlock()
}

func (e *Exporter) failSend(err error) {
	e.mu.Lock()
	e.st.SendErrors++
	e.mu.Unlock()
	e.Fail(err)
}

// setLink notes l as the current link, made for config gen.
func (e *Exporter) setLink(l Link, gen uint64) {
	e.mu.Lock()
	e.link, e.linkGen = l, gen
	e.mu.Unlock()
}
