package daemon

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/events"
)

// Live event streams: each reader gets eventBuffer records of slack
// before it is dropped (it resumes with Last-Event-ID), a resume replays
// at most maxReplay records from the store, and a comment every
// keepAlive shows proxies and readers the stream is alive. At most
// maxStreams run at once, on the socket and the dashboard together:
// each holds its buffer and costs a send on every commit.
const (
	eventBuffer = 1024
	maxReplay   = 1000
	keepAlive   = 15 * time.Second
	maxStreams  = 32
)

// serveEvents is a server-sent event stream of what flowd records, as it
// is committed: an "activity" event for every record, and under the same
// ID "flow.alert", "quarantine" or "pins" for those that are one
// (events.Kinds). The activity filters apply (type, session, server,
// risk_level, …). A reader that reconnects with Last-Event-ID (or
// ?last_event_id=) first gets what it missed, from the store.
func (d *Daemon) serveEvents(w http.ResponseWriter, r *http.Request) {
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	f, err := activityFilter(v, q)
	var last uint64
	if s := r.Header.Get("Last-Event-ID") + q.Get("last_event_id"); err == nil && s != "" {
		if last, err = strconv.ParseUint(s, 10, 64); err != nil {
			err = fmt.Errorf("Last-Event-ID must be an activity ID, not %q", s)
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sub, err := d.events.Subscribe(eventBuffer)
	if err != nil {
		w.Header().Set("Retry-After", "5")
		http.Error(w, err.Error()+": close some dashboard tabs or other readers of /api/v1/events", http.StatusServiceUnavailable)
		return
	}
	defer d.events.Unsubscribe(sub)
	rc := http.NewResponseController(w)
	// A stream outlives any write deadline the server has.
	rc.SetWriteDeadline(time.Time{})

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// Subscribed first, then the replay: a record committed in between
	// comes both ways, and the live copy is skipped by its ID.
	if last > 0 {
		if err := d.store.Flush(); err == nil {
			f.After, f.Limit = last, maxReplay
			missed, err := d.store.Query(f)
			if err != nil {
				return
			}
			slices.Reverse(missed) // oldest first
			for _, rec := range missed {
				data, err := json.Marshal(rec.Shown())
				if err != nil {
					continue // a record the store encoded encodes; skip rather than end the stream
				}
				if writeEvents(w, rec, data) != nil {
					return
				}
				last = rec.ID
			}
		}
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-sub.Records:
			if !ok {
				if sub.Lagged() {
					fmt.Fprintf(w, "event: lagged\ndata: this stream fell %d records behind; reconnect with Last-Event-ID %d\n\n", eventBuffer, last)
					rc.Flush()
				}
				return
			}
			if ev.Record.ID <= last || !f.Matches(ev.Record) {
				continue
			}
			data, err := ev.JSON()
			if err != nil {
				continue
			}
			if writeEvents(w, ev.Record, data) != nil {
				return
			}
			last = ev.Record.ID
			// Flush once the burst is written, not per record.
			if len(sub.Records) > 0 {
				continue
			}
		case <-tick.C:
			fmt.Fprint(w, ": alive\n\n")
		case <-r.Context().Done():
			return
		case <-d.stopping:
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// writeEvents writes the events rec, encoded as data, makes.
func writeEvents(w http.ResponseWriter, rec activity.Record, data []byte) error {
	for _, kind := range events.Kinds(rec) {
		if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", rec.ID, kind, data); err != nil {
			return err
		}
	}
	return nil
}
