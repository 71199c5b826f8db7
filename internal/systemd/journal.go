package systemd

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
)

// LogHandler returns a handler that writes text log lines to w. When w is
// the stream systemd connected to the journal, the lines carry no time
// (the journal stamps each) and start with the syslog priority of their
// level (<3> error, <4> warning, <6> info, <7> debug), so `journalctl -p`
// filters them.
func LogHandler(w *os.File, opts *slog.HandlerOptions) slog.Handler {
	if !toJournal(os.Getenv("JOURNAL_STREAM"), w) {
		return slog.NewTextHandler(w, opts)
	}
	return newJournalHandler(w, opts)
}

// journalHandler formats each record with a TextHandler into a buffer, puts
// the priority before it and writes the line at once, so lines from
// concurrent goroutines never interleave.
type journalHandler struct {
	out   *journalOut
	inner slog.Handler // writes into out.buf
}

type journalOut struct {
	mu  sync.Mutex
	buf bytes.Buffer
	w   io.Writer
}

func newJournalHandler(w io.Writer, opts *slog.HandlerOptions) *journalHandler {
	o := slog.HandlerOptions{}
	if opts != nil {
		o = *opts
	}
	replace := o.ReplaceAttr
	o.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		if replace != nil {
			return replace(groups, a)
		}
		return a
	}
	out := &journalOut{w: w}
	return &journalHandler{out: out, inner: slog.NewTextHandler(&out.buf, &o)}
}

func (h *journalHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *journalHandler) Handle(ctx context.Context, r slog.Record) error {
	h.out.mu.Lock()
	defer h.out.mu.Unlock()
	h.out.buf.Reset()
	h.out.buf.WriteString(priority(r.Level))
	if err := h.inner.Handle(ctx, r); err != nil {
		return err
	}
	_, err := h.out.w.Write(h.out.buf.Bytes())
	return err
}

func (h *journalHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &journalHandler{out: h.out, inner: h.inner.WithAttrs(as)}
}

func (h *journalHandler) WithGroup(name string) slog.Handler {
	return &journalHandler{out: h.out, inner: h.inner.WithGroup(name)}
}

// priority is the sd-daemon prefix for a level: levels between slog's
// named ones take the priority of the named level below them.
func priority(l slog.Level) string {
	switch {
	case l >= slog.LevelError:
		return "<3>"
	case l >= slog.LevelWarn:
		return "<4>"
	case l >= slog.LevelInfo:
		return "<6>"
	}
	return "<7>"
}

// toJournal reports whether f is the stream that JOURNAL_STREAM
// ("device:inode") names: systemd sets the variable for the service's
// stdout and stderr, and a user who redirects stderr to a file gets
// plain lines.
func toJournal(env string, f *os.File) bool {
	devS, inoS, found := strings.Cut(env, ":")
	if !found {
		return false
	}
	dev, err1 := strconv.ParseUint(devS, 10, 64)
	ino, err2 := strconv.ParseUint(inoS, 10, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	d, n, ok := devIno(f)
	return ok && d == dev && n == ino
}
