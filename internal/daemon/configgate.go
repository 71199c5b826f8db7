package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/paths"
)

// A config that lowers protection (config.Weakened) does not take effect
// without the user's approval passphrase, set or not: the agent runs
// as the user, can edit the config file and send flowd a SIGHUP or
// restart it. The config in force is kept in the data dir, so that a
// restart compares the file with it rather than taking the file as it is.

// HeldError is a config held back because it lowers protection.
type HeldError struct{ Changes []string }

func (e *HeldError) Error() string {
	return fmt.Sprintf("it lowers protection (%s); the settings in force stay until you approve it: "+
		"set an approval passphrase once with `flowd passphrase set` if you have none, then run `flowd config apply`",
		strings.Join(e.Changes, "; "))
}

// heldConfig is a config waiting for the passphrase.
type heldConfig struct {
	cfg     *config.Config
	changes []string
	digest  string // names it, so that what is applied is what was shown
	since   time.Time
}

// hold keeps c aside, says so in the log and the activity log.
func (d *Daemon) hold(c *config.Config, changes []string, when string) *HeldError {
	b, _ := toml.Marshal(c)
	sum := sha256.Sum256(b)
	h := &heldConfig{cfg: c, changes: changes, digest: hex.EncodeToString(sum[:8]), since: time.Now()}
	d.mu.Lock()
	d.held = h
	d.mu.Unlock()
	err := &HeldError{Changes: changes}
	d.log.Error("config held back at "+when+": "+err.Error(), "changes", changes, "digest", h.digest)
	reason := "a config that lowers protection waits for the approval passphrase (flowd config apply)"
	if set, _, serr := d.approvals.Status(d.uid); serr == nil && !set {
		reason = "a config that lowers protection waits for you: no approval passphrase is set, so set one (flowd passphrase set), then run flowd config apply"
	}
	d.judge.Record(activity.Record{Type: activity.TypeConfigHeld, Decision: "deny", RiskLevel: "high",
		Reason:  reason,
		Details: judge.MustJSON(map[string]any{"changes": changes, "digest": h.digest, "at": when})})
	return err
}

// applyConfig puts c in force and remembers it as such.
func (d *Daemon) applyConfig(s *judge.Settings) {
	d.hub.Reload(s)
	d.configureExport(s.Cfg)
	d.configureFeeds(s.Cfg)
	d.mu.Lock()
	d.held = nil
	d.mu.Unlock()
	d.saveInForce(s.Cfg)
}

// configureExport points the exporter at c's receiver. Files it cannot
// read leave export failing, which status shows: flowd still judges.
func (d *Daemon) configureExport(c *config.Config) {
	if err := d.export.Configure(c.Export.Syslog); err != nil {
		d.log.Error("syslog export cannot start; records are not exported until the config is fixed", "err", err)
	}
	if err := d.otlp.Configure(c.Export.OTLP); err != nil {
		d.log.Error("OTLP export cannot start; records are not exported until the config is fixed", "err", err)
	}
}

// saveInForce writes c as the config in force. A failure is logged: the
// next start then compares the file with an older config, or with the
// defaults, which holds more, not less.
func (d *Daemon) saveInForce(c *config.Config) {
	b, err := toml.Marshal(c)
	if err == nil {
		err = atomicfile.Write(filepath.Join(d.dataDir, paths.ConfigInForce), b, 0o600)
	}
	if err != nil {
		d.log.Error("could not record the config in force", "err", err)
	}
}

// startConfig is the config flowd starts with: o's, unless it lowers
// protection from the one last in force, which then stays in force and
// o's is held. At the first start (fresh: nothing in the data dir) the
// file is the user's setup and is taken as it is; once the data dir
// exists, a missing record compares the file with the defaults.
func (d *Daemon) startConfig(c *config.Config, fresh bool) (*config.Config, []string) {
	if fresh {
		if changes := config.Weakened(config.Default(), c); len(changes) > 0 {
			d.log.Info("first start: the config file is in force as it is, and later changes that lower protection wait for you", "below_defaults", changes)
		}
		return c, nil
	}
	base, err := config.InForce(filepath.Join(d.dataDir, paths.ConfigInForce))
	if err != nil {
		d.log.Error("the config last in force is unreadable: the config file is compared with the defaults", "err", err)
	}
	if changes := config.Weakened(base, c); len(changes) > 0 {
		return base, changes
	}
	return c, nil
}

// serveHeld shows the config held back, if any.
func (d *Daemon) serveHeld(w http.ResponseWriter, r *http.Request) {
	if !d.configAdmin(w, r) {
		return
	}
	d.mu.Lock()
	h := d.held
	d.mu.Unlock()
	if h == nil {
		http.Error(w, "no config is held back: the config in force is the file's", http.StatusNotFound)
		return
	}
	writeJSON(w, flowdclient.HeldConfig{Changes: h.changes, Digest: h.digest, Since: h.since})
}

// serveApplyConfig applies the held config, with the passphrase.
func (d *Daemon) serveApplyConfig(w http.ResponseWriter, r *http.Request) {
	if !d.configAdmin(w, r) {
		return
	}
	var req flowdclient.ApplyConfig
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req); err != nil || req.Digest == "" {
		http.Error(w, `want {"digest": "...", "passphrase": "..."}`, http.StatusBadRequest)
		return
	}
	d.mu.Lock()
	h := d.held
	d.mu.Unlock()
	if h == nil {
		http.Error(w, "no config is held back", http.StatusNotFound)
		return
	}
	if h.digest != req.Digest {
		http.Error(w, "the held config changed since it was shown (another reload): look again with flowd config apply", http.StatusConflict)
		return
	}
	if !d.approved(w, r, req.Passphrase, "apply a config that lowers protection") {
		return
	}
	s, err := judge.NewSettings(h.cfg)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	d.mu.Lock()
	same := d.held == h
	d.mu.Unlock()
	if !same {
		http.Error(w, "the held config changed while the passphrase was checked: look again with flowd config apply", http.StatusConflict)
		return
	}
	d.applyConfig(s)
	d.log.Warn("config that lowers protection applied by the user", "changes", h.changes, "digest", h.digest)
	d.judge.Record(activity.Record{Type: activity.TypeConfigApplied, Decision: "allow",
		Reason:  "the user approved a config that lowers protection",
		Details: judge.MustJSON(map[string]any{"changes": h.changes, "digest": h.digest})})
	writeJSON(w, flowdclient.HeldConfig{Changes: h.changes, Digest: h.digest, Since: h.since})
}

// configAdmin admits who may see and apply a held config: the user a
// per-user flowd runs as; root or flowd's own account for the machine's.
func (d *Daemon) configAdmin(w http.ResponseWriter, r *http.Request) bool {
	v, ok := d.viewer(w, r)
	if ok && !v.all {
		http.Error(w, "this flowd is the machine's: only root may apply its config (sudo flowd config apply)", http.StatusForbidden)
		return false
	}
	return ok
}
