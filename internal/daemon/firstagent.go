package daemon

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/approval"
	"github.com/flowd-dev/flowd/internal/atomicfile"
)

// sawAgent notes, for good, that an agent of the asker's acted through
// flowd (a hook call, an MCP server connected): from then on the API
// sets no first approval passphrase for that user, however quiet it is
// (approval.AgentSeenError). A program an agent left behind could be the
// one asking, and nothing on the socket tells it from the user. The note
// is a file beside the verifier, written once; this flowd also keeps it
// in memory, so a file that cannot be written, or is removed, does not
// open the way while it runs.
func (d *Daemon) sawAgent(ctx context.Context) {
	uid := d.uid
	if p, ok := peer(ctx); ok {
		uid = p.UID
	} else if d.system {
		return
	}
	now := time.Now()
	d.mu.Lock()
	_, known := d.agentsSeen[uid]
	if !known {
		d.agentsSeen[uid] = now
	}
	d.mu.Unlock()
	if known {
		return
	}
	path := d.agentSeenFile(uid)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return // noted before, or unreadable, which firstAgent reads as noted
	}
	if err := atomicfile.Write(path, []byte(now.UTC().Format(time.RFC3339)+"\n"), 0o600); err != nil {
		d.log.Warn("cannot note that an agent ran: a first approval passphrase stays refused only while this flowd runs", "path", path, "err", err)
	}
}

// firstAgent is when an agent of uid's first acted through flowd, as the
// note says, or this flowd saw; zero: never. A note that cannot be read
// counts as an agent seen now: the way stays shut when flowd cannot tell.
func (d *Daemon) firstAgent(uid int, now time.Time) time.Time {
	d.mu.Lock()
	seen := d.agentsSeen[uid]
	d.mu.Unlock()
	b, err := os.ReadFile(d.agentSeenFile(uid))
	if errors.Is(err, fs.ErrNotExist) {
		return seen
	}
	if err != nil {
		return now
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(b)))
	if err != nil {
		return now
	}
	return t
}

// agentSeenFile is where the note that uid's agents ran is kept: beside
// the verifier, which a system flowd keeps out of its users' reach.
func (d *Daemon) agentSeenFile(uid int) string {
	if !d.system {
		return filepath.Join(d.dataDir, "agent-seen")
	}
	return filepath.Join(d.dataDir, "agent-seen-"+strconv.Itoa(uid))
}

// firstSetReset says how the user opens the way for a first passphrase
// again once an agent has run: with their agents quit and flowd stopped,
// they remove the note, which only they (or, for a system flowd, root)
// can do at a terminal.
func (d *Daemon) firstSetReset(err error, uid int) {
	var seen *approval.AgentSeenError
	if !errors.As(err, &seen) {
		return
	}
	if d.system {
		seen.Reset = "quit your agents, then as root remove " + d.agentSeenFile(uid) + " and restart flowd (sudo systemctl restart flowd), " +
			"and run `flowd passphrase set` in a terminal before you start an agent again"
		return
	}
	seen.Reset = "quit your agents, stop flowd (flowd stop), remove " + d.agentSeenFile(uid) + ", start it (flowd start) " +
		"and run `flowd passphrase set` in a terminal before you start an agent again"
}
