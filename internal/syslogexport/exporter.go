package syslogexport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/version"
)

// batchMax is how many records one write carries at most.
const batchMax = 256

// maxDatagram is the largest UDP payload sent; a record that would not
// fit goes without its details, and is cut if it still does not.
const maxDatagram = 65000

// Exporter sends each record offered to it to the configured receiver,
// in order; the queue, spool, retries and drain are internal/exporter's.
type Exporter struct {
	*exporter.Exporter
	src Source

	mu         sync.Mutex
	cfg        config.Syslog
	configured bool
}

// New starts an exporter with cfg (off when cfg.Enabled is false) whose
// spool lives in dir; Close stops it.
func New(cfg config.Syslog, dir string, log *slog.Logger) (*Exporter, error) {
	host, _ := os.Hostname()
	e := &Exporter{Exporter: exporter.New("syslog", dir, batchMax, log), src: Source{Host: host, PID: os.Getpid()}}
	if err := e.Configure(cfg); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Configure applies cfg from the next record on; what waits stays for
// the new receiver. Its TLS files are read here, so that a bad one is
// an error now.
func (e *Exporter) Configure(cfg config.Syslog) error {
	var tc *tls.Config
	if cfg.Enabled && cfg.Transport == config.SyslogTLS {
		var err error
		if tc, err = tlsConfig(cfg); err != nil {
			e.Fail(err)
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.configured && cfg == e.cfg {
		return nil
	}
	e.cfg, e.configured = cfg, true
	e.Exporter.Configure(exporter.Config{Enabled: cfg.Enabled, Endpoint: cfg.Address, Protocol: cfg.Transport, Format: cfg.Format,
		QueueLimit: cfg.QueueLimit, SpoolBytes: int64(cfg.SpoolBytes), DrainTimeout: cfg.DrainTimeout.Duration,
		Dial: func(ctx context.Context) (exporter.Link, error) { return dial(ctx, cfg, tc, e.src) }})
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

// conn is a connection to the receiver, the exporter's link. A
// stream's reader notices the receiver closing it (a receiver sends
// nothing), so records made while it is away are not written into a
// socket already dead.
type conn struct {
	net.Conn
	cfg    config.Syslog
	src    Source
	buf    []byte
	closed chan struct{} // closed when the receiver ends the stream
}

func (c *conn) Up() bool {
	select {
	case <-c.closed:
		return false
	default:
		return true
	}
}

func (c *conn) Close() { c.Conn.Close() }

const dialTimeout = 10 * time.Second

func dial(ctx context.Context, cfg config.Syslog, tc *tls.Config, src Source) (*conn, error) {
	d := net.Dialer{Timeout: dialTimeout}
	var (
		nc  net.Conn
		err error
	)
	switch cfg.Transport {
	case config.SyslogUDP:
		nc, err = d.DialContext(ctx, "udp", cfg.Address)
	case config.SyslogTLS:
		nc, err = (&tls.Dialer{NetDialer: &d, Config: tc}).DialContext(ctx, "tcp", cfg.Address)
	case config.SyslogTCP:
		nc, err = d.DialContext(ctx, "tcp", cfg.Address)
	default:
		err = fmt.Errorf("transport %q: want tcp, tls or udp", cfg.Transport)
	}
	if err != nil {
		return nil, fmt.Errorf("connect to syslog receiver %s over %s: %w", cfg.Address, cfg.Transport, err)
	}
	c := &conn{Conn: nc, cfg: cfg, src: src, closed: make(chan struct{})}
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

// errGone is a send on a stream the receiver had closed: written, it
// would be lost.
var errGone = errors.New("the receiver closed the connection")

// Send writes recs, each framed for the transport, and says how many
// were written whole. Over TCP and TLS that is all or none, in one
// write; over UDP, a datagram each, those before a failed one.
func (c *conn) Send(ctx context.Context, recs []activity.Record) (int, error) {
	if !c.Up() {
		return 0, fmt.Errorf("send to %s: %w", c.cfg.Address, errGone)
	}
	deadline, _ := ctx.Deadline()
	if err := c.SetWriteDeadline(deadline); err != nil {
		return 0, err
	}
	// The drain time up, a write in flight ends.
	stop := context.AfterFunc(ctx, func() { c.SetWriteDeadline(time.Unix(1, 0)) })
	defer stop()
	if c.cfg.Transport == config.SyslogUDP {
		return c.sendDatagrams(recs)
	}
	// One write for the batch: octet counting (RFC 6587 3.4.1) frames
	// each message with its length and a space.
	out := c.buf[:0]
	var msg []byte
	for i := range recs {
		msg = c.format(msg[:0], &recs[i], true)
		out = strconv.AppendInt(out, int64(len(msg)), 10)
		out = append(out, ' ')
		out = append(out, msg...)
	}
	c.buf = out
	if _, err := c.Write(out); err != nil {
		return 0, fmt.Errorf("send to %s: %w", c.cfg.Address, err)
	}
	return len(recs), nil
}

// sendDatagrams writes a datagram each. A receiver that is away shows
// as "connection refused" on the write after the one it refused, so
// that one is counted as not sent either.
func (c *conn) sendDatagrams(recs []activity.Record) (int, error) {
	for i := range recs {
		msg := c.format(c.buf[:0], &recs[i], true)
		if len(msg) > maxDatagram {
			msg = c.format(msg[:0], &recs[i], false)
		}
		if len(msg) > maxDatagram {
			// Still too big (a huge reason): cut, rather than have the
			// write fail each time and hold up every record after it.
			msg = cut(msg, maxDatagram)
		}
		c.buf = msg
		if _, err := c.Write(msg); err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) && i > 0 {
				i--
			}
			return i, fmt.Errorf("send to %s: %w", c.cfg.Address, err)
		}
	}
	return len(recs), nil
}

// cut shortens msg to at most n bytes, at a character's start.
func cut(msg []byte, n int) []byte {
	for n > 0 && !utf8.RuneStart(msg[n]) {
		n--
	}
	return msg[:n]
}

func (c *conn) format(dst []byte, r *activity.Record, details bool) []byte {
	if c.cfg.Format == config.SyslogCEF {
		return CEF(dst, r, c.src, version.Version)
	}
	return RFC5424(dst, r, c.src, details)
}
