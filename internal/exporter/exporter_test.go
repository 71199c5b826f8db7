package exporter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
)

func TestMain(m *testing.M) {
	// The scripted receiver fails on purpose: retry soon.
	MinBackoff, MaxBackoff = time.Millisecond, 10*time.Millisecond
	os.Exit(m.Run())
}

// receiver is a scripted link: each send takes the records the script
// says, from the first, and fails after them, or takes them all. The
// exporters' own tests run the real transports; this one is the loop's
// bookkeeping.
type receiver struct {
	mu     sync.Mutex
	script []int // send i takes script[i] records and fails; past the script, all
	reject bool  // every send is refused as malformed
	sends  int
	got    []uint64
	at     []time.Time // when each record arrived
	more   chan struct{}
}

func newReceiver(script ...int) *receiver {
	return &receiver{script: script, more: make(chan struct{}, 1)}
}

func (r *receiver) Send(_ context.Context, recs []activity.Record) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() {
		select {
		case r.more <- struct{}{}:
		default:
		}
	}()
	i := r.sends
	r.sends++
	if r.reject {
		return 0, fmt.Errorf("the test receiver %w them", ErrRejected)
	}
	n, err := len(recs), error(nil)
	if i < len(r.script) {
		n, err = min(r.script[i], len(recs)), errors.New("the test receiver stopped")
	}
	for _, rec := range recs[:n] {
		r.got, r.at = append(r.got, rec.ID), append(r.at, time.Now())
	}
	return n, err
}

func (r *receiver) Up() bool { return true }
func (r *receiver) Close()   {}

// waitFor waits until the receiver has n records; false when it has more.
func (r *receiver) waitFor(t *testing.T, n int) []uint64 {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		r.mu.Lock()
		got := append([]uint64(nil), r.got...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("the receiver has %v, want %d records", got, n)
		}
	}
}

func start(t *testing.T, r *receiver, batch int) *Exporter {
	t.Helper()
	e := New("test", t.TempDir(), batch, slog.New(slog.DiscardHandler))
	t.Cleanup(e.Close)
	e.Configure(Config{Enabled: true, Endpoint: "scripted", QueueLimit: 1000, SpoolBytes: 1 << 20, DrainTimeout: time.Second,
		Dial: func(context.Context) (Link, error) { return r, nil }})
	return e
}

func ids(from, to uint64) []uint64 {
	var out []uint64
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// A receiver that takes part of a batch and fails gets the rest next,
// not again what it has: from the memory queue (the first send) and
// from the spool (the queue goes there after a failure).
func TestPartOfABatchIsNotSentAgain(t *testing.T) {
	r := newReceiver(1, 1, 0, 2)
	e := start(t, r, 4)
	for i := uint64(1); i <= 20; i++ {
		e.Offer(activity.Record{ID: i})
	}
	assert.Equal(t, ids(1, 20), r.waitFor(t, 20), "each record once, in order")
	require.Eventually(t, func() bool { return e.Status().Sent == 20 }, 30*time.Second, time.Millisecond, "the counters")
	st := e.Status()
	assert.Equal(t, uint64(4), st.SendErrors)
	assert.Equal(t, uint64(20), st.Offered)
	assert.Positive(t, st.Spilled, "after a failure the queue went to the spool")
	assert.Zero(t, st.Queued+st.Spool.Records)
	assert.Contains(t, st.LastError, "the test receiver stopped")
}

// A batch the receiver refuses as malformed is counted and not sent
// again.
func TestRejectedIsCountedNotResent(t *testing.T) {
	r := newReceiver()
	r.reject = true
	e := start(t, r, 4)
	for i := uint64(1); i <= 3; i++ {
		e.Offer(activity.Record{ID: i})
	}
	require.Eventually(t, func() bool { return e.Status().Rejected == 3 }, 30*time.Second, time.Millisecond, "rejected")
	st := e.Status()
	assert.Zero(t, st.Sent)
	assert.Zero(t, st.SendErrors, "a refusal is not the receiver being away")
	assert.Zero(t, st.Queued+st.Spool.Records)
	assert.Contains(t, st.LastError, "rejected")
}

// A lone new record waits lingerMax for others to share its send.
func TestLingerForAPartialBatch(t *testing.T) {
	r := newReceiver()
	e := start(t, r, 3)
	offered := time.Now()
	e.Offer(activity.Record{ID: 1, Time: time.Now()})
	r.waitFor(t, 1)
	r.mu.Lock()
	waited := r.at[0].Sub(offered)
	r.mu.Unlock()
	assert.GreaterOrEqual(t, waited, lingerMax, "a lone record went at once")
}

// stuck is a receiver that takes a send and does not answer until
// released.
type stuck struct{ in, release chan struct{} }

func (s stuck) Send(ctx context.Context, _ []activity.Record) (int, error) {
	select {
	case s.in <- struct{}{}:
	default:
	}
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return 0, errors.New("the test receiver did not answer")
}
func (stuck) Up() bool { return true }
func (stuck) Close()   {}

// lines hands each line written to it to a channel.
type lines chan string

func (l lines) Write(p []byte) (int, error) {
	select {
	case l <- string(p):
	default:
	}
	return len(p), nil
}

// Behind a send that does not return, a full queue drops its oldest
// records: Offer returns at once, and the loss is counted and logged.
func TestStuckSendDropsOldestCountedAndLogged(t *testing.T) {
	s := stuck{in: make(chan struct{}, 1), release: make(chan struct{})}
	logs := make(lines, 64)
	e := New("test", t.TempDir(), 4, slog.New(slog.NewTextHandler(logs, nil)))
	t.Cleanup(e.Close)
	e.Configure(Config{Enabled: true, Endpoint: "stuck", QueueLimit: 8, SpoolBytes: 1 << 20, DrainTimeout: time.Millisecond,
		Dial: func(context.Context) (Link, error) { return s, nil }})
	for i := uint64(1); i <= 4; i++ { // a full batch: sent without lingering
		e.Offer(activity.Record{ID: i})
	}
	select {
	case <-s.in:
	case <-time.After(30 * time.Second):
		t.Fatal("the exporter never sent")
	}
	for i := uint64(5); i <= 104; i++ {
		e.Offer(activity.Record{ID: i})
	}
	st := e.Status()
	assert.Equal(t, uint64(104), st.Offered)
	assert.Equal(t, 8, st.Queued, "the queue keeps to its limit")
	assert.Equal(t, uint64(96), st.Dropped, "the oldest went, the batch in flight too")

	close(s.release)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l := <-logs:
			if strings.Contains(l, "dropped") {
				assert.Contains(t, l, "dropped=96")
				return
			}
		case <-deadline:
			t.Fatalf("the drops were not logged: %+v", e.Status())
		}
	}
}
