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
	"github.com/flowd-dev/flowd/internal/version"
)

// Status is what flowd status shows of the exporter.
type Status struct {
	Enabled    bool      `json:"enabled"`
	Address    string    `json:"address,omitempty"`
	Transport  string    `json:"transport,omitempty"`
	Format     string    `json:"format,omitempty"`
	Connected  bool      `json:"connected"`
	Queued     int       `json:"queued"`
	QueueLimit int       `json:"queue_limit,omitempty"`
	Sent       uint64    `json:"sent"`
	Dropped    uint64    `json:"dropped"`
	LastError  string    `json:"last_error,omitempty"`
	LastErrAt  time.Time `json:"last_error_at,omitzero"`
}

// Backoff bounds between attempts to reach a receiver that is away.
var (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 30 * time.Second
)

// batchMax is how many queued records one write carries at most.
const batchMax = 256

// maxDatagram is the largest UDP payload sent; a record that would not
// fit goes without its details.
const maxDatagram = 65000

// writeTimeout bounds one write: a receiver that stops reading is
// treated as away, and retried.
const writeTimeout = 10 * time.Second

// Exporter sends each record offered to it to the configured receiver,
// in order, from a bounded queue: Offer never waits.
type Exporter struct {
	src Source
	log *slog.Logger

	mu    sync.Mutex
	cfg   config.Syslog
	tls   *tls.Config
	gen   uint64            // bumped by Configure: the connection is redialled
	queue []activity.Record // oldest first, from head
	head  int               // index of the oldest in queue
	seq   uint64            // how many records were ever queued
	st    Status            // counters and state
	wake  chan struct{}     // a record was queued, or the config changed
	// reconf: the config changed, a backoff ends early.
	reconf chan struct{}
	stop   chan struct{}
	done   chan struct{}
	conn   *conn // the current connection, closed by Close to end a write
}

// New starts an exporter with cfg (off when cfg.Enabled is false);
// Close stops it.
func New(cfg config.Syslog, log *slog.Logger) (*Exporter, error) {
	host, _ := os.Hostname()
	e := &Exporter{src: Source{Host: host, PID: os.Getpid()}, log: log,
		wake: make(chan struct{}, 1), reconf: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if err := e.Configure(cfg); err != nil {
		return nil, err
	}
	go e.run()
	return e, nil
}

// Configure applies cfg from the next record on; what is queued stays
// queued for the new receiver. Turning export off empties the queue.
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
	if !cfg.Enabled {
		e.queue, e.head = nil, 0
	}
	for e.queued() > max(cfg.QueueLimit, 0) {
		e.dropOldest()
	}
	if e.conn != nil {
		e.conn.Close()
		e.conn = nil
	}
	e.signal()
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
// full. It is the activity store's Committed hook: it never waits on
// the network.
func (e *Exporter) Offer(r activity.Record) {
	e.mu.Lock()
	if !e.cfg.Enabled {
		e.mu.Unlock()
		return
	}
	if e.queued() >= e.cfg.QueueLimit {
		e.dropOldest()
	}
	if e.head > 0 && len(e.queue) == cap(e.queue) {
		// Reuse the space the sent records left rather than grow.
		n := copy(e.queue, e.queue[e.head:])
		clear(e.queue[n:])
		e.queue, e.head = e.queue[:n], 0
	}
	e.queue = append(e.queue, r)
	e.seq++
	e.mu.Unlock()
	e.signal()
}

func (e *Exporter) queued() int { return len(e.queue) - e.head }

func (e *Exporter) dropOldest() {
	e.queue[e.head] = activity.Record{}
	e.head++
	e.st.Dropped++
}

func (e *Exporter) signal() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Status is the exporter's state now.
func (e *Exporter) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.st
	s.Queued = e.queued()
	// A connection made for an older config is being replaced.
	s.Connected = e.cfg.Enabled && e.conn != nil && e.conn.gen == e.gen && !e.conn.dead()
	return s
}

// Close stops sending; what is still queued is lost (there is no spool).
func (e *Exporter) Close() {
	e.mu.Lock()
	select {
	case <-e.stop:
		e.mu.Unlock()
		return
	default:
	}
	close(e.stop)
	if e.conn != nil {
		e.conn.Close()
	}
	e.mu.Unlock()
	<-e.done
}

// run sends what is queued, oldest first, redialling with backoff. A
// batch leaves the queue only once written whole, so a receiver that
// went away gets it again on the next connection.
func (e *Exporter) run() {
	defer close(e.done)
	var (
		c       *conn
		backoff = minBackoff
		buf     []byte
	)
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for {
		batch, first, gen, cfg, tc := e.next(batchMax)
		if batch == nil {
			return
		}
		if c != nil && (c.gen != gen || c.dead()) {
			c.Close()
			c = nil
			e.setConnected(nil)
		}
		if c == nil {
			var err error
			if c, err = dial(cfg, tc, gen); err != nil {
				c = nil
				e.fail(err)
				if !e.sleep(backoff) {
					return
				}
				backoff = min(2*backoff, maxBackoff)
				continue
			}
			if !e.setConnected(c) {
				c.Close()
				return
			}
			backoff = minBackoff
		}
		n, err := e.send(c, cfg, batch, &buf)
		if n > 0 {
			e.sent(first, n)
		}
		if err != nil {
			c.Close()
			c = nil
			e.setConnected(nil)
			e.fail(err)
		}
	}
}

// next waits for queued records and returns up to n of the oldest, the
// queue sequence of the first, and the config to send them with; nil
// once stopped.
func (e *Exporter) next(n int) ([]activity.Record, uint64, uint64, config.Syslog, *tls.Config) {
	for {
		e.mu.Lock()
		if q := e.queued(); q > 0 && e.cfg.Enabled {
			batch := append([]activity.Record(nil), e.queue[e.head:e.head+min(q, n)]...)
			first, gen, cfg, tc := e.headSeq(), e.gen, e.cfg, e.tls
			e.mu.Unlock()
			return batch, first, gen, cfg, tc
		}
		e.mu.Unlock()
		select {
		case <-e.wake:
		case <-e.stop:
			return nil, 0, 0, config.Syslog{}, nil
		}
	}
}

// headSeq is the queue sequence of the oldest queued record.
func (e *Exporter) headSeq() uint64 { return e.seq - uint64(e.queued()) }

// sent takes the n records from sequence first on, just written, off
// the queue: those of them still queued (a full queue may have dropped
// some meanwhile, a config turned off all).
func (e *Exporter) sent(first uint64, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	end, h := first+uint64(n), e.headSeq()
	k := 0
	if end > h {
		k = min(int(end-h), e.queued())
	}
	clear(e.queue[e.head : e.head+k])
	e.head += k
	e.st.Sent += uint64(n)
	if e.queued() == 0 {
		e.queue, e.head = e.queue[:0], 0
	}
}

func (e *Exporter) fail(err error) {
	e.mu.Lock()
	e.st.LastError, e.st.LastErrAt = err.Error(), time.Now()
	e.mu.Unlock()
	e.log.Debug("syslog export", "err", err)
}

// setConnected records c as the connection Close ends; false when the
// exporter is stopping.
func (e *Exporter) setConnected(c *conn) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.conn = c
	select {
	case <-e.stop:
		return false
	default:
		return true
	}
}

// sleep waits d, or less when the config changes; false once stopped.
func (e *Exporter) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.reconf:
	case <-e.stop:
		return false
	}
	return true
}

// send writes batch on c, each record framed for the transport, and
// says how many were written whole.
func (e *Exporter) send(c *conn, cfg config.Syslog, batch []activity.Record, buf *[]byte) (int, error) {
	if err := c.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
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
