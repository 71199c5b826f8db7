package daemon

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/approval"
	"github.com/flowd-dev/flowd/internal/attackfeed"
	"github.com/flowd-dev/flowd/internal/attackprint"
	"github.com/flowd-dev/flowd/internal/auditkey"
	"github.com/flowd-dev/flowd/internal/boltfile"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/connguard"
	"github.com/flowd-dev/flowd/internal/dashboard"
	"github.com/flowd-dev/flowd/internal/events"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/metrics"
	"github.com/flowd-dev/flowd/internal/otlpexport"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/quarantine"
	"github.com/flowd-dev/flowd/internal/selfguard"
	"github.com/flowd-dev/flowd/internal/service"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/syslogexport"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// ErrRunning means another flowd already serves the socket.
var ErrRunning = errors.New("flowd is already running on this socket")

// Options configure a daemon.
type Options struct {
	Config *config.Config
	// ConfigFile is where Config was read: the agent may not change it
	// (selfguard). "": the default place.
	ConfigFile string
	Socket     string
	DataDir    string
	Log        *slog.Logger
	// Listener, when set, is a socket already listening (handed over by
	// systemd socket activation); flowd then does not create one.
	Listener *net.UnixListener
	// OnReady, if set, is called with the daemon once the socket accepts
	// connections, so the caller can reach it while it runs (Reload on
	// SIGHUP).
	OnReady func(*Daemon)
	// System makes this the machine's flowd (flowd run --system): the
	// members of its socket's group may connect too, each user's sessions
	// are kept apart, and each user sees only their own records.
	System bool
	// StartedBy says what started this flowd (service.StartedBy), and
	// ServiceState asks the machine's service manager about flowd's
	// service (nil: not asked), for the status.
	StartedBy    string
	ServiceState func() service.Status
}

// current is the settings decisions read now.
func (d *Daemon) current() *judge.Settings { return d.judge.Settings() }

// Reload applies a new config to every decision from now on. Flow state
// is kept; limits of the flow section apply to sessions started later.
// A config that lowers protection is held back (a *HeldError), whether
// or not an approval passphrase is set: the settings in force stay until
// the user applies it (flowd config apply).
func (d *Daemon) Reload(c *config.Config) error {
	s, err := judge.NewSettings(c)
	if err != nil {
		return err
	}
	if changes := config.Weakened(d.current().Cfg, c); len(changes) > 0 {
		return d.hold(c, changes, "reload")
	}
	d.applyConfig(s)
	d.log.Info("config reloaded")
	return nil
}

// Daemon is a running flowd.
type Daemon struct {
	judge   *judge.Judge  // decides every call and result
	hub     *upstream.Hub // the shims connected
	flows   *flow.Tracker
	socket  string
	dataDir string
	log     *slog.Logger
	store   *activity.Store
	// quarantine keeps blocked results; pins keeps approved tool
	// definitions.
	quarantine *quarantine.Store
	pins       *pins.Store
	damaged    []boltfile.Damage
	// audit is the audit chain check run at start; auditKey signs and
	// verifies (nil when it could not be loaded).
	audit    *flowdclient.AuditCheck
	auditKey ed25519.PrivateKey
	// approvals checks the passphrase that releasing and approving need.
	approvals    *approval.Gate
	started      time.Time
	heldSessions heldState

	// system: shared by the members of the socket's group (Options.System);
	// uid: the account flowd runs as, which like root sees every user's
	// records.
	system bool
	uid    int
	// cfgFile is where the config was read; svc says how flowd runs.
	cfgFile string
	svc     serviceCache

	mu        sync.Mutex
	hooksSeen map[string]time.Time // agent → last hook event
	// hooksBy is uid → that user's last hook event: a system flowd's
	// first-passphrase window is each user's own (around).
	hooksBy map[int]time.Time
	// agentsSeen: uid → when this flowd first saw an agent of theirs (sawAgent).
	agentsSeen map[int]time.Time
	wg         sync.WaitGroup   // one per shim connection
	releasing  atomic.Bool      // a hand-back of memory to the OS is scheduled
	conns      *connguard.Guard // unidentified connections; nil outside Run
	held       *heldConfig      // a config that waits for the passphrase
	// events hands committed records to the live event streams, which
	// end when stopping is closed.
	events   *events.Hub
	export   *syslogexport.Exporter
	otlp     *otlpexport.Exporter
	feeds    *attackfeed.Syncer
	stopping chan struct{}
	// ui is the dashboard, nil when it is off.
	ui *dashboard.Server
	// metrics counts decisions for GET /metrics.
	metrics *metrics.Metrics
}

// Run serves until ctx is cancelled, then stops gracefully: shims get the
// verdicts already being decided, the activity log is flushed. ready, if
// not nil, is closed once the socket accepts connections.
func Run(ctx context.Context, o Options, ready chan<- struct{}) error {
	ensureDir := localsock.EnsureSocketDir
	if o.System {
		ensureDir = localsock.EnsureSystemSocketDir
	}
	if err := ensureDir(o.Socket); err != nil {
		return err
	}
	if err := paths.CheckSocketPath(o.Socket); err != nil {
		return err
	}
	unlock, err := localsock.Lock(o.Socket)
	if errors.Is(err, localsock.ErrLocked) {
		return ErrRunning
	}
	if err != nil {
		return err
	}
	defer unlock()
	st, err := openStores(o)
	if err != nil {
		return err
	}
	d, err := newDaemon(o, st)
	if err != nil {
		st.close()
		return err
	}
	d.restoreHeld(!st.fresh)
	// Written before flowd serves: a flowd killed at once leaves a list
	// that says what it took over, not none.
	heldWritten := d.writeHeld(nil)
	l, err := listen(o)
	if err != nil {
		st.close()
		return err
	}
	l.Logf = func(f string, a ...any) { d.log.Warn(fmt.Sprintf(f, a...)) }
	d.conns = d.guard()
	srv := &http.Server{Handler: d.served(d.handler()), ConnContext: withPeer, ConnState: d.conns.ConnState,
		ReadHeaderTimeout: 5 * time.Second, IdleTimeout: apiIdleTimeout}
	srv.RegisterOnShutdown(func() { close(d.stopping) }) // event streams never end on their own
	stopUI := d.startUI()                                // before serving: the socket hands out its URL
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	go func() {
		if err := injection.Prepare(); err != nil {
			d.log.Error("prompt injection rules", "err", err) // the first scan says it again, loudly
		}
	}()
	// Building the rule sets (gitleaks' TOML, the injection rules) leaves
	// megabytes of garbage; hand it back now rather than when the
	// scavenger gets to it, so an idle flowd is small.
	debug.FreeOSMemory()
	d.log.Info("flowd ready", "socket", o.Socket, "data_dir", o.DataDir, "pid", os.Getpid())
	if o.OnReady != nil {
		o.OnReady(d)
	}
	if ready != nil {
		close(ready)
	}

	sweepDone := make(chan struct{})
	go d.sweep(ctx, sweepDone)
	stopHeld, heldDone := make(chan struct{}), make(chan struct{})
	go d.keepHeld(heldWritten, stopHeld, heldDone)
	if o.Listener == nil { // a service manager's socket is its to keep
		go d.keepSocket(ctx, srv, o, ensureDir)
	}
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	d.log.Info("flowd stopping")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	srv.Shutdown(shutdownCtx)
	cancel()
	stopUI()
	d.hub.Stop()
	d.wg.Wait()
	d.judge.Close()
	<-sweepDone
	// The sessions still live outlive this flowd's memory of them, with
	// the results being recorded as it stopped.
	d.flows.WaitUntil(time.Now().Add(5 * time.Second))
	close(stopHeld)
	<-heldDone
	d.summarise(time.Now(), true)
	if cerr := st.close(); cerr != nil && err == nil {
		err = cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// apiIdleTimeout closes a keep-alive connection idle this long between
// requests; shims hold their own connections, which this does not touch.
const apiIdleTimeout = time.Minute

// guard bounds the connections not yet identified (fresh, idle between
// requests, upgraded shims before their hello) to a quarter of the
// descriptors flowd may open, at most maxWaiting: past it the longest
// waiting is closed, so idle connections cannot starve new shims.
func (d *Daemon) guard() *connguard.Guard {
	n := maxWaiting
	limit, err := raiseOpenFiles()
	if err != nil {
		d.log.Warn("could not raise the open file limit", "limit", limit, "err", err)
	}
	if limit > 0 {
		n = min(n, max(16, int(limit/4)))
	}
	var evicted atomic.Uint64
	return connguard.New(n, func(net.Conn) {
		// Once, then every thousandth: a flood must not flood the log.
		if k := evicted.Add(1); k%1000 == 1 {
			d.log.Warn("closed idle connections: too many connections waiting to be served", "limit", n, "closed", k)
		}
	})
}

// maxWaiting bounds the unidentified connections where descriptors are
// plentiful.
const maxWaiting = 1024

// releaseAfter is the message size past which flowd hands the memory its
// judgement took back to the OS soon after, instead of when the runtime's
// scavenger gets to it, minutes later.
const releaseAfter = 4 << 20

// releaseMemory schedules that hand-back, once for a burst of large
// messages: by then the message is garbage.
func (d *Daemon) releaseMemory() {
	if d.releasing.CompareAndSwap(false, true) {
		time.AfterFunc(2*time.Second, func() {
			debug.FreeOSMemory()
			d.releasing.Store(false)
		})
	}
}

// listen opens the socket: the one systemd passed, or a new one; private
// to the user, or shared with the socket's group in a system flowd.
func listen(o Options) (*localsock.Listener, error) {
	switch {
	case o.Listener != nil:
		return localsock.FromListener(o.Listener, o.System)
	case o.System:
		return localsock.ListenShared(o.Socket)
	}
	return localsock.Listen(o.Socket)
}

// peerKey is the request context key of the connection's peer, connKey
// of the connection.
type (
	peerKey struct{}
	connKey struct{}
)

// withPeer puts the connection, and its peer as the listener admitted it,
// into the context of each request on it.
func withPeer(ctx context.Context, c net.Conn) context.Context {
	ctx = context.WithValue(ctx, connKey{}, c)
	if lc, ok := c.(*localsock.Conn); ok {
		ctx = context.WithValue(ctx, peerKey{}, lc.Peer)
	}
	return ctx
}

// served tells the connection guard when a request has arrived whole: at
// once for one without a body, at the end of its body otherwise. Until
// then the guard may close the connection to keep its bound, so requests
// whose body never ends cannot hold every connection flowd keeps.
func (d *Daemon) served(h http.Handler) http.Handler {
	h = stallBounds(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			d.conns.Served(c)
		} else {
			r.Body = &bodyEnd{ReadCloser: r.Body, end: func() { d.conns.Served(c) }}
		}
		h.ServeHTTP(w, r)
	})
}

// stallBounds gives each write of h's answers writeStall to finish.
func stallBounds(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		rc.SetWriteDeadline(time.Now().Add(writeStall))
		h.ServeHTTP(stallBounded{ResponseWriter: w, rc: rc}, r)
	})
}

// writeStall bounds how long one write of an answer may wait for its
// client to read. Found by a red team (RT5-6): a client that asks for an
// export and never reads held its handler blocked in a write for good,
// and a thousand such connections, served and so never evicted, made
// the connection guard close every new one (hooks and shims read that as
// a flowd not answering). An answer that keeps moving, however long (an
// export, an event stream), is never cut.
var writeStall = 30 * time.Second

// stallBounded gives each write of an answer writeStall from its start.
type stallBounded struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func (w stallBounded) Write(p []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(writeStall))
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.NewResponseController reach the server's writer, to
// flush an event stream or hijack a shim's connection.
func (w stallBounded) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyEnd calls end once its body has been read to the end.
type bodyEnd struct {
	io.ReadCloser
	end  func()
	done bool
}

func (b *bodyEnd) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.end()
	}
	return n, err
}

// errNoPeer: a system flowd decides everything by who asks.
var errNoPeer = errors.New("flowd cannot tell who is asking: a system flowd serves only connections to its socket")

// peer is who sent a request; ok is false outside a connection to the
// socket (a handler called directly).
func peer(ctx context.Context) (localsock.Cred, bool) {
	c, ok := ctx.Value(peerKey{}).(localsock.Cred)
	return c, ok
}

// sessionKey is the flow session a shim or hook event joins: the one its
// hints name, and in a system flowd that user's own session of that name,
// so no user can join (or read back through flow matches) another's.
func (d *Daemon) sessionKey(ctx context.Context, h sessionid.Hints) (string, error) {
	if !d.system {
		return h.ID(), nil
	}
	p, ok := peer(ctx)
	if !ok {
		return "", errNoPeer
	}
	return sessionid.Scoped(p.UID, h.ID()), nil
}

// stores are the files flowd keeps in its data directory, each held open
// (and locked) while it runs.
type stores struct {
	activity   *activity.Store
	quarantine *quarantine.Store
	pins       *pins.Store
	attacks    *attackprint.Store
	feeds      *attackfeed.Syncer // pulls the configured attack feeds into attacks
	damaged    []boltfile.Damage  // found at open, moved aside
	audit      *flowdclient.AuditCheck
	auditKey   ed25519.PrivateKey // nil when it could not be loaded
	events     *events.Hub        // hears each activity record once it is on disk
	// fresh: the data dir held no activity log and no config in force
	// before this start: flowd's first start, whose config file is the
	// user's setup, not an edit to compare with the defaults.
	fresh bool
	// export sends each record on disk to a syslog receiver (off until
	// newDaemon configures it with the config in force).
	export *syslogexport.Exporter
	// otlp sends each record on disk to an OpenTelemetry Collector,
	// spooling in the data dir while it is away (off until configured).
	otlp *otlpexport.Exporter
}

func openStores(o Options) (stores, error) {
	var st stores
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return st, fmt.Errorf("create data dir %s: %w", o.DataDir, err)
	}
	var err error
	st.fresh = paths.NeverRan(o.DataDir)
	st.events = events.NewHub(maxStreams)
	if st.export, err = syslogexport.New(config.Syslog{}, filepath.Join(o.DataDir, "spool", "syslog"), o.Log); err != nil {
		return st, err
	}
	if st.otlp, err = otlpexport.New(config.OTLP{}, filepath.Join(o.DataDir, "spool", "otlp"), o.Log); err != nil {
		return st, err
	}
	st.audit = &flowdclient.AuditCheck{}
	// Without its key flowd still runs (it is the firewall), chains
	// records, and says in status that nothing is signed and why.
	if st.auditKey, err = auditkey.LoadOrCreate(o.DataDir); err != nil {
		o.Log.Error("the activity log's checkpoints cannot be signed; records are chained but unsigned, and retention is off", "err", err)
		st.audit.Error = err.Error()
	}
	st.activity, err = activity.Open(filepath.Join(o.DataDir, paths.ActivityStore), activity.Options{
		Key:           st.auditKey,
		Committed:     st.committed,
		MaxAge:        o.Config.Activity.MaxAge.Duration,
		MaxRecords:    o.Config.Activity.MaxRecords,
		MaxNotable:    o.Config.Activity.MaxNotable,
		FlushInterval: o.Config.Activity.FlushInterval.Duration,
		Recover:       true,
		Log:           o.Log,
	})
	if err != nil {
		return st, err
	}
	st.noteDamage(o.Log, st.activity.Damage(), "its records are lost")
	st.checkAudit(o.Log)
	if st.quarantine, err = quarantine.Open(filepath.Join(o.DataDir, paths.QuarantineStore), quarantine.Options{Recover: true}); err != nil {
		st.close()
		return st, err
	}
	st.noteDamage(o.Log, st.quarantine.Damage(), "its items and releases are lost: content released before is quarantined again")
	if st.pins, err = pins.Open(filepath.Join(o.DataDir, paths.PinsStore), pins.Options{Recover: true}); err != nil {
		st.close()
		return st, err
	}
	st.noteDamage(o.Log, st.pins.Damage(), "its pins are lost: no server is trusted on first use any more, each one's tools are held until approved (flowd pins approve SERVER)")
	if st.attacks, err = attackprint.Open(filepath.Join(o.DataDir, "attacks.db"), attackprint.Options{Recover: true}); err != nil {
		st.close()
		return st, err
	}
	st.noteDamage(o.Log, st.attacks.Damage(), "its attack prints are lost: attacks caught before are known again only when caught again or a feed is imported again")
	st.feeds = attackfeed.New(attackfeed.Options{Dir: filepath.Join(o.DataDir, "feeds"), Add: st.attacks.Add, Log: o.Log})
	return st, nil
}

// committed hands a record on disk to the live streams and the exporter,
// neither of which waits.
func (st *stores) committed(r activity.Record) {
	st.events.Publish(r)
	st.export.Offer(r)
	st.otlp.Offer(r)
}

// checkAudit verifies the activity log's tail, from its last checkpoint
// on (cheap: at most a checkpoint interval of records), for status.
func (st *stores) checkAudit(log *slog.Logger) {
	if st.auditKey == nil {
		return
	}
	rep, err := st.activity.Verify(st.auditKey.Public().(ed25519.PublicKey), activity.VerifyOptions{Tail: true})
	switch {
	case err != nil:
		st.audit.Error = err.Error()
		log.Error("cannot check the activity log's audit chain", "err", err)
	case !rep.OK():
		p := rep.FirstBad()
		log.Error("the activity log's audit chain does not verify: it was tampered with; flowd audit verify says more",
			"first_bad", p.ID, "chain_seq", p.Seq, "problem", p.Detail)
	}
	st.audit.Report, st.audit.Verified = &rep, err == nil && rep.OK()
}

// noteDamage logs a store found damaged and moved aside, and keeps it
// for status and doctor.
func (st *stores) noteDamage(log *slog.Logger, d *boltfile.Damage, lost string) {
	if d == nil {
		return
	}
	log.Error(d.What+" was damaged: moved aside, flowd starts with a fresh one; "+lost,
		"path", d.Path, "moved_to", d.MovedTo, "reason", d.Reason)
	st.damaged = append(st.damaged, *d)
}

// close closes the stores that are open; the activity log's final flush
// error wins.
func (st stores) close() error {
	var errs []error
	if st.activity != nil {
		errs = append(errs, st.activity.Close())
	}
	if st.export != nil { // after the activity log's last records were offered
		st.export.Close()
	}
	if st.otlp != nil { // sends what waits for up to its drain timeout, then spools the rest
		st.otlp.Close()
	}
	if st.quarantine != nil {
		errs = append(errs, st.quarantine.Close())
	}
	if st.pins != nil {
		errs = append(errs, st.pins.Close())
	}
	if st.feeds != nil { // before the store it adds to
		st.feeds.Close()
	}
	if st.attacks != nil {
		errs = append(errs, st.attacks.Close())
	}
	return errors.Join(errs...)
}

// newDaemon builds the decision machinery from the config.
func newDaemon(o Options, st stores) (*Daemon, error) {
	d := &Daemon{audit: st.audit, auditKey: st.auditKey, socket: o.Socket, dataDir: o.DataDir, log: o.Log, store: st.activity,
		quarantine: st.quarantine, pins: st.pins, damaged: st.damaged, started: time.Now(), hooksSeen: make(map[string]time.Time), hooksBy: make(map[int]time.Time),
		agentsSeen: map[int]time.Time{}, system: o.System, uid: os.Getuid(), events: st.events, export: st.export, otlp: st.otlp, stopping: make(chan struct{})}
	d.feeds = st.feeds
	d.approvals = &approval.Gate{File: d.passphraseFile}
	// The user's verifier is read now, once: a file deleted or swapped
	// while flowd runs must not count, and before the first approval
	// asked about it it would have.
	if set, since, err := d.approvals.Status(d.uid); err != nil {
		o.Log.Error("approval passphrase unreadable: releasing and approving are refused until it is set again", "err", err)
	} else if set {
		o.Log.Info("approval passphrase set", "since", since)
	}
	// The config file may have been edited to lower protection while
	// flowd was stopped: then the config last in force stays.
	cfg, held := d.startConfig(o.Config, st.fresh)
	d.configureExport(cfg)
	d.configureFeeds(cfg)
	j, err := judge.New(cfg, judge.Stores{Activity: st.activity, Quarantine: st.quarantine, Pins: st.pins, Attacks: st.attacks}, o.Log)
	if err != nil {
		return nil, err
	}
	cfgFile := o.ConfigFile
	if cfgFile == "" {
		cfgFile = paths.ConfigFile()
	}
	j.Self = selfguard.Current(cfgFile, o.DataDir, o.Socket)
	d.cfgFile, d.svc = cfgFile, serviceCache{startedBy: o.StartedBy, ask: o.ServiceState}
	d.judge, d.hub, d.flows = j, upstream.NewHub(j), j.Flows
	d.metrics = metrics.New(metrics.Sources{Activity: d.store.Stats,
		Shims:    func() int { return len(d.hub.Shims(viewer{all: true}.sees)) },
		Sessions: func() int { return len(shimSessions(d.hub.Shims(viewer{all: true}.sees))) },
		Exports:  func() []exporter.Status { return []exporter.Status{d.export.Status(), d.otlp.Status()} }})
	j.OnRecord = d.metrics.Observe
	d.saveInForce(cfg)
	if held != nil {
		d.hold(o.Config, held, "start")
	}
	return d, nil
}

// sweep summarises idle sessions until ctx ends.
func (d *Daemon) sweep(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			d.summarise(now, false)
		}
	}
}

// summarise writes a flow_summary record for each session that ended
// (idle, or all of them when flowd stops).
func (d *Daemon) summarise(now time.Time, all bool) {
	for _, s := range d.flows.Expire(now, all) {
		d.judge.Record(activity.Record{Type: "flow_summary", Session: s.Session, Details: judge.MustJSON(s)})
	}
}
