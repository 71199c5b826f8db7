package daemon

import (
	"encoding/json"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/service"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/version"
)

func (d *Daemon) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+shimproto.Path, d.serveShim)
	mux.HandleFunc("GET /api/v1/status", d.serveStatus)
	mux.HandleFunc("GET /api/v1/activity", d.serveActivity)
	mux.HandleFunc("GET /api/v1/activity/export", d.serveExport)
	mux.HandleFunc("GET /api/v1/events", d.serveEvents)
	mux.HandleFunc("GET /api/v1/diagnostics", d.serveDiagnostics)
	mux.HandleFunc("GET /api/v1/sessions/{id}/graph", d.serveGraph)
	mux.HandleFunc("POST "+hookproto.Path, d.serveHook)
	mux.HandleFunc("GET /api/v1/activity/{id}", d.serveRecord)
	mux.HandleFunc("GET /api/v1/audit/verify", d.serveAuditVerify)
	mux.HandleFunc("GET /api/v1/quarantine", d.serveQuarantine)
	mux.HandleFunc("GET /api/v1/quarantine/{id}", d.serveQuarantined)
	mux.HandleFunc("POST /api/v1/quarantine/{id}/view", d.serveQuarantineView)
	mux.HandleFunc("POST /api/v1/quarantine/{id}/release", d.serveRelease)
	mux.HandleFunc("GET /api/v1/pins", d.servePins)
	mux.HandleFunc("POST /api/v1/pins/approve", d.serveApprove)
	mux.HandleFunc("GET /api/v1/attack-prints", d.serveAttackPrints)
	mux.HandleFunc("POST /api/v1/attack-prints/import", d.serveImportPrints)
	mux.HandleFunc("POST /api/v1/passphrase", d.servePassphrase)
	mux.HandleFunc("GET /api/v1/config/held", d.serveHeld)
	mux.HandleFunc("POST /api/v1/config/apply", d.serveApplyConfig)
	mux.HandleFunc("POST /api/v1/ui/login", d.serveUILogin)
	mux.HandleFunc("GET /metrics", d.serveMetrics)
	return mux
}

// viewer is whose records a request may see: everyone's in a single
// user's flowd, and in a system flowd for root and flowd's own account;
// else only the asking user's own sessions.
type viewer struct {
	all bool
	uid int
}

func (v viewer) sees(sess string) bool {
	if v.all {
		return true
	}
	uid, ok := sessionid.Owner(sess)
	return ok && uid == v.uid
}

// viewer says who asks, or answers 403 and returns false.
func (d *Daemon) viewer(w http.ResponseWriter, r *http.Request) (viewer, bool) {
	if !d.system {
		return viewer{all: true}, true
	}
	p, ok := peer(r.Context())
	if !ok {
		http.Error(w, errNoPeer.Error(), http.StatusForbidden)
		return viewer{}, false
	}
	return viewer{all: p.UID == 0 || p.UID == d.uid, uid: p.UID}, true
}

// status is flowd's state as v may see it: only v's own shims and
// sessions, unless v sees all.
func (d *Daemon) status(v viewer) flowdclient.Status {
	st := flowdclient.Status{
		Running:   true,
		Version:   version.Version,
		PID:       os.Getpid(),
		Started:   d.started,
		UptimeSec: int64(time.Since(d.started).Seconds()),
		Socket:    d.socket,
		DataDir:   d.dataDir,
	}
	// Empty lists are [] in JSON, never null: scripts index them.
	st.Shims = nonNil(d.hub.Shims(v.sees))
	st.Sessions = nonNil(shimSessions(st.Shims))
	st.Activity = d.store.Stats()
	st.DamagedStores, st.PinsUntrusted = d.damaged, d.pins.Untrusted()
	st.HeldLost = d.heldLost()
	st.Audit = d.audit
	st.Export, st.OTLP = shownExport(d.export.Status()), shownExport(d.otlp.Status())
	st.Feeds = d.feeds.Status()
	st.SecurityCoverage, st.HooksActive = "proxy_only", map[string]time.Time{}
	d.mu.Lock()
	for agent, last := range d.hooksSeen {
		if time.Since(last) < hooksRecent {
			st.HooksActive[agent] = last
			st.SecurityCoverage = "full"
		}
	}
	d.mu.Unlock()
	return st
}

// shimSessions lists the sessions of shims, each once, in shims' order.
func shimSessions(shims []flowdclient.Shim) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range shims {
		if !seen[s.Session] {
			seen[s.Session] = true
			out = append(out, s.Session)
		}
	}
	return out
}

// nonNil makes an empty list encode as [], never null: scripts index it.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// serveMetrics serves the counters in Prometheus's text format, to
// anyone the socket or the dashboard's listener admits: they are counts
// by flowd's own labels, no session, server, tool or content.
func (d *Daemon) serveMetrics(w http.ResponseWriter, r *http.Request) {
	d.metrics.Handler().ServeHTTP(w, r)
}

// hooksRecent is how long after its last hook event an agent counts as
// covered by hooks: as long as an idle session lives.
const hooksRecent = 30 * time.Minute

func (d *Daemon) serveStatus(w http.ResponseWriter, r *http.Request) {
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
	st := d.status(v)
	if v.all {
		d.mu.Lock()
		if h := d.held; h != nil {
			st.ConfigHeld = &flowdclient.HeldConfig{Changes: h.changes, Digest: h.digest, Since: h.since}
		}
		d.mu.Unlock()
	}
	if p, ok := peer(r.Context()); ok {
		st.ApprovalPassphrase, st.PassphraseSince, st.PassphraseBy, _ = d.approvals.Who(p.UID)
	}
	st.Service = d.svc.get()
	mode := "user"
	if d.system {
		mode = "system"
	}
	st.Config = &flowdclient.ConfigInEffect{File: d.cfgFile, Mode: mode, Settings: d.current().Cfg.KeySettings()}
	writeJSON(w, st.Shown())
}

// serviceCache is how flowd runs, with its service's state asked of the
// service manager at most every serviceTTL: each asking runs systemctl
// or launchctl, and the dashboard and flowd mcp read the status often.
type serviceCache struct {
	startedBy string
	ask       func() service.Status

	mu    sync.Mutex
	state service.Status
	at    time.Time
}

const serviceTTL = 10 * time.Second

func (c *serviceCache) get() *flowdclient.Service {
	out := &flowdclient.Service{StartedBy: c.startedBy}
	if c.ask == nil {
		return out
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() || time.Since(c.at) > serviceTTL {
		c.state, c.at = c.ask(), time.Now()
	}
	out.Status = c.state
	return out
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// shownExport is x when the exporter is on, has sent, failed, or keeps
// records in its spool; nil for one never used.
func shownExport(x exporter.Status) *exporter.Status {
	if x.Enabled || x.Sent > 0 || x.LastError != "" || x.Spool.Records > 0 {
		return &x
	}
	return nil
}
