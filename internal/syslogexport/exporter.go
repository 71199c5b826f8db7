package syslogexport

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/exportqueue"
	"github.com/flowd-dev/flowd/internal/spool"
	"github.com/flowd-dev/flowd/internal/version"
)

// Status is what flowd status shows of the exporter.
type Status struct {
	Enabled    bool   `json:"enabled"`
	Address    string `json:"address,omitempty"`
	Transport  string `json:"transport,omitempty"`
	Format     string `json:"format,omitempty"`
	Connected  bool   `json:"connected"`
	Queued     int    `json:"queued"`
	QueueLimit int    `json:"queue_limit,omitempty"`
	// Spool is what waits on disk for the receiver.
	Spool      spool.Stats `json:"spool"`
	SpoolError string      `json:"spool_error,omitempty"`
	Sent       uint64      `json:"sent"`
	// Dropped: records lost to a full memory queue (the spool's own
	// drops are in Spool.Dropped).
	Dropped   uint64    `json:"dropped"`
	LastError string    `json:"last_error,omitempty"`
	LastErrAt time.Time `json:"last_error_at,omitzero"`
}

// Backoff bounds between attempts to reach a receiver that is away.
var (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 30 * time.Second
)

// batchMax is how many records one write carries at most.
const batchMax = 256

// maxDatagram is the largest UDP payload sent; a record that would not
// fit goes without its details.
const maxDatagram = 65000

// writeTimeout bounds one write: a receiver that stops reading is
// treated as away, and retried.
const writeTimeout = 10 * time.Second

// Exporter sends each record offered to it to the configured receiver,
// in order. Offer never waits: records queue in memory, and go to the
// spool on disk while the receiver is away or slow.
type Exporter struct {
	src Source
	dir string // the spool's directory
	log *slog.Logger
	q   *exportqueue.Queue

	mu    sync.Mutex
	cfg   config.Syslog
	tls   *tls.Config
	gen   uint64       // bumped by Configure: the connection is redialled
	st    Status       // counters and state
	spool *spool.Spool // opened by run at the first enabled config
	// reconf: the config changed, a backoff ends early.
	reconf chan struct{}
	stop   chan struct{}
	done   chan struct{}
	conn   *conn // the current connection, closed when the drain time is up to end a write
}

// New starts an exporter with cfg (off when cfg.Enabled is false) whose
// spool lives in dir; Close stops it.
func New(cfg config.Syslog, dir string, log *slog.Logger) (*Exporter, error) {
	host, _ := os.Hostname()
	e := &Exporter{src: Source{Host: host, PID: os.Getpid()}, dir: dir, log: log, q: exportqueue.New(0),
		reconf: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if err := e.Configure(cfg); err != nil {
		return nil, err
	}
	go e.run()
	return e, nil
}

// Configure applies cfg from the next record on; what waits stays for
// the new receiver.
func (e *Exporter) Configure(cfg config.Syslog) error {
	var tc *tls.Config
	if cfg.Enabled && cfg.Transport == config.SyslogTLS {
		var err error
		if tc, err = tlsConfig(cfg); err != nil {
			e.fail(err)
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if cfg == e.cfg && e.gen > 0 {
		return nil
	}
	e.cfg, e.tls = cfg, tc
	e.gen++
	e.st.Enabled, e.st.Address, e.st.Transport, e.st.Format = cfg.Enabled, cfg.Address, cfg.Transport, cfg.Format
	e.st.QueueLimit = cfg.QueueLimit
	e.q.SetLimit(cfg.QueueLimit)
	if e.conn != nil {
		e.conn.Close()
		e.conn = nil
	}
	select {
	case e.reconf <- struct{}{}:
	default:
	}
	return nil
}

func tlsConfig(cfg config.Syslog) (*tls.Config, error) {
	host, _, err := net.SplitHostPort(cfg.Address)
	if err != nil {
		return nil, fmt.Errorf("export.syslog.address %q: %w", cfg.Address, err)
	}
	tc := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if cfg.CAFile != "" {
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("export.syslog.ca_file: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("export.syslog.ca_file %s: no PEM certificate in it", cfg.CAFile)
		}
	}
	if cfg.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("export.syslog.cert_file and key_file: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// Offer queues r, dropping the oldest queued record when the queue is
// full (the exporter moves the queue to the spool long before, unless
// the disk fails). It is the activity store's Committed hook: it never
// waits on the network.
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
	// A connection made for an older config is being replaced.
	s.Connected = e.cfg.Enabled && e.conn != nil && e.conn.gen == e.gen && !e.conn.dead()
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
	// A write in flight when the time is up ends with its connection.
	t := time.AfterFunc(drain, func() {
		e.mu.Lock()
		if e.conn != nil {
			e.conn.Close()
		}
		e.mu.Unlock()
	})
	<-e.done
	t.Stop()
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
// batch leaves the queue or spool only once written whole, so a receiver
// that went away gets it again on the next connection.
func (e *Exporter) run() {
	defer close(e.done)
	var (
		c        *conn
		backoff  = minBackoff
		buf      []byte
		drainEnd time.Time // once stopping: when what is left goes to the spool
	)
	defer func() {
		if c != nil {
			c.Close()
		}
		e.mu.Lock()
		sp := e.spool
		e.mu.Unlock()
		if sp != nil {
			e.spill(sp)
			if err := sp.Close(); err != nil {
				e.log.Error("syslog export: closing the spool", "err", err)
			}
		}
	}()
	for {
		e.mu.Lock()
		cfg, gen, tc := e.cfg, e.gen, e.tls
		e.mu.Unlock()
		stopping := e.stopping()
		if stopping && drainEnd.IsZero() {
			drainEnd = time.Now().Add(cfg.DrainTimeout.Duration)
		}
		if !cfg.Enabled {
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
		// A queue past half full goes to the spool: a receiver slower
		// than flowd loses nothing either.
		if sp != nil && e.q.Len() > cfg.QueueLimit/2 {
			e.spill(sp)
		}
		batch, done, err := e.q.Next(sp, batchMax)
		if err != nil {
			e.fail(err)
			if stopping || !e.sleep(backoff, nil) {
				return
			}
			backoff = min(2*backoff, maxBackoff)
			continue
		}
		if len(batch) == 0 {
			if stopping || !e.wait() {
				return
			}
			continue
		}
		if stopping && !time.Now().Before(drainEnd) {
			return // the rest waits in the spool
		}
		if c != nil && (c.gen != gen || c.dead()) {
			c.Close()
			c = nil
			e.setConnected(nil)
		}
		if c == nil {
			if c, err = dial(cfg, tc, gen); err != nil {
				c = nil
				e.fail(err)
				if sp != nil {
					e.spill(sp)
				}
				if stopping || !e.sleep(backoff, sp) {
					return
				}
				backoff = min(2*backoff, maxBackoff)
				continue
			}
			e.setConnected(c)
			backoff = minBackoff
		}
		deadline := time.Now().Add(writeTimeout)
		if stopping {
			deadline = drainEnd
		}
		n, err := e.send(c, cfg, batch, &buf, deadline)
		if n == len(batch) {
			if derr := done(); derr != nil {
				e.fail(derr)
			}
			e.sent(n)
		}
		if err != nil {
			c.Close()
			c = nil
			e.setConnected(nil)
			e.fail(err)
			if sp != nil {
				e.spill(sp)
			}
			if stopping {
				return
			}
		}
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

// sleep waits d, moving records offered meanwhile to sp (nil: none), or
// less when the config changes; false once stopped.
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
func (e *Exporter) openSpool(cfg config.Syslog) *spool.Spool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.spool != nil || e.st.SpoolError != "" {
		return e.spool
	}
	sp, err := spool.Open(e.dir, int64(cfg.SpoolBytes))
	if err != nil {
		e.st.SpoolError = err.Error()
		e.log.Error("syslog export: no spool on disk; records wait in memory only", "err", err)
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

func (e *Exporter) sent(n int) {
	e.mu.Lock()
	e.st.Sent += uint64(n)
	e.mu.Unlock()
}

func (e *Exporter) fail(err error) {
	e.mu.Lock()
	e.st.LastError, e.st.LastErrAt = err.Error(), time.Now()
	e.mu.Unlock()
	e.log.Debug("syslog export", "err", err)
}

// setConnected records c as the connection Close ends when the drain
// time is up.
func (e *Exporter) setConnected(c *conn) {
	e.mu.Lock()
	e.conn = c
	e.mu.Unlock()
}

// send writes batch on c, each record framed for the transport, and
// says how many were written whole.
func (e *Exporter) send(c *conn, cfg config.Syslog, batch []activity.Record, buf *[]byte, deadline time.Time) (int, error) {
	if err := c.SetWriteDeadline(deadline); err != nil {
		return 0, err
	}
	if cfg.Transport == config.SyslogUDP {
		for i := range batch {
			msg := e.format((*buf)[:0], &batch[i], cfg, true)
			if len(msg) > maxDatagram {
				msg = e.format(msg[:0], &batch[i], cfg, false)
			}
			*buf = msg
			if _, err := c.Write(msg); err != nil {
				return i, fmt.Errorf("send to %s: %w", cfg.Address, err)
			}
		}
		return len(batch), nil
	}
	// One write for the batch: octet counting (RFC 6587 3.4.1) frames
	// each message with its length and a space.
	out := (*buf)[:0]
	var msg []byte
	for i := range batch {
		msg = e.format(msg[:0], &batch[i], cfg, true)
		out = strconv.AppendInt(out, int64(len(msg)), 10)
		out = append(out, ' ')
		out = append(out, msg...)
	}
	*buf = out
	if _, err := c.Write(out); err != nil {
		return 0, fmt.Errorf("send to %s: %w", cfg.Address, err)
	}
	return len(batch), nil
}

func (e *Exporter) format(dst []byte, r *activity.Record, cfg config.Syslog, details bool) []byte {
	if cfg.Format == config.SyslogCEF {
		return CEF(dst, r, e.src, version.Version)
	}
	return RFC5424(dst, r, e.src, details)
}

// conn is a connection to the receiver. A stream's reader notices the
// receiver closing it (a receiver sends nothing), so records made while
// it is away are not written into a socket already dead.
type conn struct {
	net.Conn
	gen    uint64
	closed chan struct{} // closed when the receiver ends the stream
}

func (c *conn) dead() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

const dialTimeout = 10 * time.Second

func dial(cfg config.Syslog, tc *tls.Config, gen uint64) (*conn, error) {
	d := net.Dialer{Timeout: dialTimeout}
	var (
		nc  net.Conn
		err error
	)
	switch cfg.Transport {
	case config.SyslogUDP:
		nc, err = d.Dial("udp", cfg.Address)
	case config.SyslogTLS:
		nc, err = (&tls.Dialer{NetDialer: &d, Config: tc}).Dial("tcp", cfg.Address)
	case config.SyslogTCP:
		nc, err = d.Dial("tcp", cfg.Address)
	default:
		err = fmt.Errorf("transport %q: want tcp, tls or udp", cfg.Transport)
	}
	if err != nil {
		return nil, fmt.Errorf("connect to syslog receiver %s over %s: %w", cfg.Address, cfg.Transport, err)
	}
	c := &conn{Conn: nc, gen: gen, closed: make(chan struct{})}
	if cfg.Transport != config.SyslogUDP {
		go c.watch()
	}
	return c, nil
}

// watch reads until the stream ends; anything the receiver sends is
// ignored.
func (c *conn) watch() {
	defer close(c.closed)
	b := make([]byte, 512)
	for {
		if _, err := c.Read(b); err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return
			}
		}
	}
}
