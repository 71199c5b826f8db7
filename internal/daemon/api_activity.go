package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/sessiongraph"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

// activityFilter reads the filter of an activity request: what v asked
// for, within what v may see.
func activityFilter(v viewer, q url.Values) (activity.Filter, error) {
	f := activity.Filter{Type: q.Get("type"), Session: q.Get("session"), Server: q.Get("server"), Tool: q.Get("tool"),
		RiskLevel: q.Get("risk_level"), FlowType: q.Get("flow_type")}
	if !v.all {
		f.Owner = &v.uid
		// A user names their session as their agent does; the ID flowd
		// shows them (Scoped) works too.
		if f.Session != "" && !v.sees(f.Session) {
			f.Session = sessionid.Scoped(v.uid, f.Session)
		}
	}
	var errs []error
	for key, dst := range map[string]*time.Time{"since": &f.Since, "until": &f.Until} {
		if s := q.Get(key); s != "" {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s must be a time like 2026-11-27T09:00:00Z, not %q", key, s))
			}
			*dst = t
		}
	}
	for key, dst := range map[string]*uint64{"before": &f.Before, "after": &f.After} {
		if s := q.Get(key); s != "" {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s must be an activity ID, not %q", key, s))
			}
			*dst = n
		}
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			errs = append(errs, errors.New("limit must be a non-negative integer"))
		}
		f.Limit = n
	}
	if err := errors.Join(errs...); err != nil {
		return f, err
	}
	return f.Check()
}

// activityRequest reads an activity request's filter from q, within what
// its asker may see, and flushes the log so that what was acknowledged
// before the request is in its answer. Having answered the request when
// it cannot, it returns false.
func (d *Daemon) activityRequest(w http.ResponseWriter, r *http.Request, q url.Values) (activity.Filter, bool) {
	v, ok := d.viewer(w, r)
	if !ok {
		return activity.Filter{}, false
	}
	f, err := activityFilter(v, q)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return f, false
	}
	if err := d.store.Flush(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return f, false
	}
	return f, true
}

// serveActivity answers a page of records, newest first. When the page
// is full, a Link header names the next one (rel="next"), as the APIs
// users know do: the cursor is the last ID, so a page stays cheap however
// deep it is.
func (d *Daemon) serveActivity(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, ok := d.activityRequest(w, r, q)
	if !ok {
		return
	}
	recs, err := d.store.Query(f)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	shown := make([]activity.Record, len(recs))
	for i, rec := range recs {
		shown[i] = rec.Shown()
	}
	limit := f.Limit
	if limit == 0 {
		limit = activity.DefaultLimit
	}
	if len(recs) == limit {
		q.Set("before", strconv.FormatUint(recs[len(recs)-1].ID, 10))
		w.Header().Set("Link", fmt.Sprintf(`</api/v1/activity?%s>; rel="next"`, q.Encode()))
	}
	writeJSON(w, shown)
}

// serveExport streams every matching record, oldest first, as JSON lines
// (format=jsonl, the default) or CSV (format=csv). Details, which hold
// the flow evidence, come with include_flows=true.
func (d *Daemon) serveExport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("limit") != "" {
		http.Error(w, "an export has no limit: narrow it with since, until, after or before", http.StatusBadRequest)
		return
	}
	format, flows := q.Get("format"), q.Get("include_flows") == "true"
	if _, _, err := activity.Exporter(io.Discard, format, flows); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f, ok := d.activityRequest(w, r, q)
	if !ok {
		return
	}
	if q.Get("format") == activity.CSV {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	} else {
		w.Header().Set("Content-Type", "application/x-ndjson")
	}
	// The status is sent with the first bytes: an error after them can
	// only cut the stream short, which a reader sees as a last line that
	// does not parse. It is written through a large buffer: the response
	// writer's own is 2 KiB,
	// so a record or two per chunk and per write to the socket, and the
	// syscalls, not the records, would set the pace.
	buf := bufio.NewWriterSize(w, exportBuffer)
	if err := errors.Join(d.store.ExportTo(buf, f, format, flows), buf.Flush()); err != nil {
		d.log.Warn("activity export cut short", "err", err)
	}
}

// exportBuffer is how much of an export is written to the socket at a
// time.
const exportBuffer = 64 << 10

// serveGraph draws one session (sessiongraph): its sources, destinations
// and the data that moved between them.
func (d *Daemon) serveGraph(w http.ResponseWriter, r *http.Request) {
	f, ok := d.activityRequest(w, r, url.Values{"session": {r.PathValue("id")}})
	if !ok {
		return
	}
	var recs []activity.Record
	if err := d.store.Export(f, func(r activity.Record) error { recs = append(recs, r.Shown()); return nil }); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if len(recs) == 0 {
		http.Error(w, "no records of session "+r.PathValue("id"), http.StatusNotFound)
		return
	}
	writeJSON(w, sessiongraph.Build(f.Session, recs))
}
