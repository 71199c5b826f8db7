package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/flow"
)

// heldFile, in the data dir, lists the sessions whose flow state the
// running flowd holds (flow.Held). That state lives in memory and ends
// with flowd; the next flowd reads the list and forgets those sessions on
// purpose (flow.Tracker.Restore) rather than start them blank, which
// would let an agent that got flowd killed and started again send what
// it had read as if it had read nothing.
const heldFile = "held-sessions.json"

// maxHeldFile bounds what restoreHeld reads.
const maxHeldFile = 16 << 20

// restoreHeld hands the tracker the sessions the previous flowd held.
func (d *Daemon) restoreHeld() {
	p := filepath.Join(d.dataDir, heldFile)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil && !fi.Mode().IsRegular() {
		// A FIFO would hold flowd here, before it serves, for good.
		err = fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	var f *os.File
	if err == nil {
		f, err = os.Open(p)
	}
	var hs []flow.Held
	if err == nil {
		// Bounded: session ids are the agents' to choose, and flowd reads
		// this before it serves.
		err = json.NewDecoder(io.LimitReader(f, maxHeldFile)).Decode(&hs)
		f.Close()
	}
	if err != nil {
		d.log.Error("the sessions the previous flowd tracked are unknown, so what they send out is judged as if they had read nothing",
			"file", p, "err", err)
		return
	}
	d.flows.Restore(hs)
	if len(hs) > 0 {
		d.log.Warn("took over the sessions a previous flowd tracked: what they read was lost with it, so what they send "+
			"to a destination that is not internal is judged as carrying internal data until they are idle for flow.session_idle_timeout",
			"sessions", len(hs))
	}
}

// keepHeld writes heldFile whenever the held sessions change, and once
// more, whatever it last wrote, when stop is closed (the file may have
// been replaced meanwhile), then closes done.
func (d *Daemon) keepHeld(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	p := filepath.Join(d.dataDir, heldFile)
	var last []byte
	write := func() {
		hs := d.flows.Held()
		sort.Slice(hs, func(i, j int) bool { return hs[i].Session < hs[j].Session })
		b, err := json.Marshal(hs)
		if err != nil || string(b) == string(last) {
			return
		}
		if err := atomicfile.Write(p, b, 0o600); err != nil {
			d.log.Error("could not save the sessions flowd tracks; if flowd ends now, the next one judges them as if they had read nothing",
				"err", err)
			return
		}
		last = b
	}
	write()
	for {
		select {
		case <-stop:
			last = nil
			write()
			return
		case <-d.flows.HeldChanged():
			write()
		}
	}
}
