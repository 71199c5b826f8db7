package daemon

import (
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/heldfile"
)

// The data dir's heldfile.Name lists the sessions whose flow state the
// running flowd holds (flow.Held). That state lives in memory and ends
// with flowd; the next flowd reads the list and forgets those sessions on
// purpose (flow.Tracker.Restore) rather than start them blank, which
// would let an agent that got flowd killed and started again send what
// it had read as if it had read nothing.

// heldState is what restoreHeld found, for status and for what keepHeld
// writes: why every session that starts until the tracker's LostUntil
// starts lost.
type heldState struct {
	mu  sync.Mutex
	why string
}

// restoreHeld hands the tracker the sessions the previous flowd held.
// ranBefore: a flowd has run on this data dir before.
func (d *Daemon) restoreHeld(ranBefore bool) {
	p := filepath.Join(d.dataDir, heldfile.Name)
	f, err := heldfile.Read(p)
	plan := heldfile.Decide(f, err, ranBefore, time.Now(), d.flows.IdleTimeout())
	d.flows.Restore(plan.Sessions)
	if len(plan.Sessions) > 0 {
		d.log.Warn("took over the sessions a previous flowd tracked: what they read was lost with it, so what they send "+
			"to a destination that is not internal is judged as carrying internal data until they are idle for flow.session_idle_timeout",
			"sessions", len(plan.Sessions))
	}
	if !plan.LostUntil.IsZero() {
		d.flows.LoseUntil(plan.LostUntil)
		d.heldSessions.mu.Lock()
		d.heldSessions.why = plan.Why
		d.heldSessions.mu.Unlock()
		d.log.Error("flowd cannot tell which sessions read data before it started, so every session that starts until "+
			plan.LostUntil.Local().Format(time.DateTime)+" is judged as carrying internal data when it sends to a destination that is not internal",
			"file", p, "why", plan.Why)
	}
}

// heldLost is status's account of restoreHeld's finding while it lasts.
func (d *Daemon) heldLost() *flowdclient.HeldLost {
	until := d.flows.LostUntil()
	if !until.After(time.Now()) {
		return nil
	}
	d.heldSessions.mu.Lock()
	defer d.heldSessions.mu.Unlock()
	return &flowdclient.HeldLost{Until: until, Why: d.heldSessions.why}
}

// writeHeld writes the held sessions' list if it changed since last (or
// last is nil), and returns what it wrote.
func (d *Daemon) writeHeld(last []byte) []byte {
	hs := d.flows.Held()
	sort.Slice(hs, func(i, j int) bool { return hs[i].Session < hs[j].Session })
	d.heldSessions.mu.Lock()
	why := d.heldSessions.why
	d.heldSessions.mu.Unlock()
	b := heldfile.Encode(heldfile.File{Sessions: hs, AllLostUntil: d.flows.LostUntil(), Why: why}, time.Now(), d.flows.IdleTimeout())
	if last != nil && string(b) == string(last) {
		return last
	}
	if err := atomicfile.Write(filepath.Join(d.dataDir, heldfile.Name), b, 0o600); err != nil {
		d.log.Error("could not save the sessions flowd tracks; if flowd ends now, the next one judges every session as carrying internal data for flow.session_idle_timeout",
			"err", err)
		return last
	}
	return b
}

// keepHeld writes the list whenever the held sessions change, and once
// more, whatever it last wrote, when stop is closed (the file may have
// been replaced meanwhile), then closes done. last is what was written
// before it started.
func (d *Daemon) keepHeld(last []byte, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case <-stop:
			d.writeHeld(nil)
			return
		case <-d.flows.HeldChanged():
			last = d.writeHeld(last)
		}
	}
}
