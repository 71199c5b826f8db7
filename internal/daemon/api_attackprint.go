package daemon

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/flowd-dev/flowd/internal/attackfeed"
	"github.com/flowd-dev/flowd/internal/attackprint"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// serveAttackPrints lists the prints of known attacks. They hold hashes,
// never an attack's text, so any user of a system flowd may read them.
func (d *Daemon) serveAttackPrints(w http.ResponseWriter, r *http.Request) {
	if _, ok := d.viewer(w, r); ok {
		writeJSON(w, d.judge.Attacks.All())
	}
}

// serveImportPrints adds the prints of a feed signed by a key the config
// in force trusts. Prints only make flowd stricter, and only a trusted
// signer's count, so importing asks for no passphrase; in a system flowd,
// whose prints all its users share, only root may import.
func (d *Daemon) serveImportPrints(w http.ResponseWriter, r *http.Request) {
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
	if !v.all {
		http.Error(w, "this flowd is the machine's, and its attack prints are shared by all its users: only root may import a feed (sudo flowd fingerprints import ...)",
			http.StatusForbidden)
		return
	}
	var req flowdclient.FeedImport
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 2*attackprint.MaxFeedBytes)).Decode(&req); err != nil {
		http.Error(w, "want {\"feed\": <the feed file, base64>}: "+err.Error(), http.StatusBadRequest)
		return
	}
	cfg := d.judge.Settings().Cfg.Injection.KnownAttacks
	if !cfg.Enabled {
		http.Error(w, "injection.known_attacks.enabled is false: flowd keeps no attack prints", http.StatusConflict)
		return
	}
	var trusted []ed25519.PublicKey
	for _, k := range cfg.TrustedKeys {
		// Validate checked every key when the config was loaded.
		if pk, err := attackprint.ParsePublicKey(k); err == nil {
			trusted = append(trusted, pk)
		}
	}
	prints, skipped, err := attackprint.ReadFeed(bytes.NewReader(req.Feed), trusted)
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, attackprint.ErrUntrusted) {
			code = http.StatusForbidden
		}
		http.Error(w, err.Error(), code)
		return
	}
	added, err := d.judge.Attacks.Add(prints...)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	d.log.Info("imported an attack feed", "prints", len(prints), "new", added, "skipped", skipped)
	writeJSON(w, flowdclient.FeedImported{Prints: len(prints), Added: added, Skipped: skipped, Total: d.judge.Attacks.Len()})
}

// configureFeeds pulls c's attack feeds from now on; none while known
// attacks are off. Validate checked every key when c was loaded.
func (d *Daemon) configureFeeds(c *config.Config) {
	ka := c.Injection.KnownAttacks
	fc := attackfeed.Config{Interval: ka.FeedInterval.Duration, Timeout: ka.FeedTimeout.Duration, MaxBytes: int64(ka.FeedMaxBytes)}
	if ka.Enabled {
		for _, f := range ka.Feeds {
			if k, err := attackprint.ParsePublicKey(f.Key); err == nil {
				fc.Sources = append(fc.Sources, attackfeed.Source{URL: f.URL, Key: k, CAFile: f.CAFile})
			}
		}
	}
	d.feeds.Configure(fc)
}
