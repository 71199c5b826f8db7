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
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/secrets"
	"github.com/flowd-dev/flowd/internal/version"
)

// batchMax is how many records one export carries at most.
const batchMax = 512

// Exporter sends each record offered to it to the configured collector,
// in order, as OTLP logs; the queue, spool, retries and drain are
// internal/exporter's.
type Exporter struct {
	*exporter.Exporter
	src  Resource
	mask Masker

	mu         sync.Mutex
	cfg        config.OTLP
	configured bool
}

// New starts an exporter with cfg (off when cfg.Enabled is false) whose
// spool lives in dir; Close stops it.
func New(cfg config.OTLP, dir string, log *slog.Logger) (*Exporter, error) {
	host, _ := os.Hostname()
	e := &Exporter{Exporter: exporter.New("otlp", dir, batchMax, log),
		src: Resource{Host: host, PID: os.Getpid(), Version: version.Version}, mask: maskSecrets}
	if err := e.Configure(cfg); err != nil {
		e.Close()
		return nil, err
	}
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
			e.Fail(err)
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.configured && equal(cfg, e.cfg) {
		return nil
	}
	cfg.Headers = maps.Clone(cfg.Headers)
	e.cfg, e.configured = cfg, true
	e.Exporter.Configure(exporter.Config{Enabled: cfg.Enabled, Endpoint: cfg.Endpoint, Protocol: cfg.Protocol,
		QueueLimit: cfg.QueueLimit, SpoolBytes: int64(cfg.SpoolBytes), DrainTimeout: cfg.DrainTimeout.Duration,
		Dial: func(context.Context) (exporter.Link, error) {
			c, err := newClient(cfg)
			if err != nil {
				return nil, err
			}
			return &link{c: c, src: e.src, mask: e.mask}, nil
		}})
	return nil
}

// link sends batches as OTLP logs requests on one client.
type link struct {
	c    client
	src  Resource
	mask Masker
	up   atomic.Bool // the collector answered
}

func (l *link) Send(ctx context.Context, recs []activity.Record) (int, error) {
	err := l.c.export(ctx, Logs(recs, l.src, l.mask, time.Now()))
	if err != nil && !errors.Is(err, exporter.ErrRejected) {
		return 0, err
	}
	l.up.Store(true)
	return len(recs), err
}

func (l *link) Up() bool { return l.up.Load() }

func (l *link) Close() { l.c.close() }

// rejected is an error for records the collector refused for what they
// hold: they are counted, and not sent again.
func rejected(format string, args ...any) error {
	return fmt.Errorf("the collector %w the records: "+format, append([]any{exporter.ErrRejected}, args...)...)
}
