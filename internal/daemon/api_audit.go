package daemon

import (
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
	"strconv"

	"github.com/flowd-dev/flowd/internal/activity"
)

// serveAuditVerify checks the whole activity log's audit chain (from=ID:
// from that record on) against flowd's audit key, or against key (a
// public key, base64url) when the asker pins one of their own. It reads
// every record, so in a system flowd only root and flowd's account may
// ask.
func (d *Daemon) serveAuditVerify(w http.ResponseWriter, r *http.Request) {
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
	if !v.all {
		http.Error(w, "only root verifies the audit log of a system flowd", http.StatusForbidden)
		return
	}
	q := r.URL.Query()
	var o activity.VerifyOptions
	if s := q.Get("from"); s != "" {
		id, err := strconv.ParseUint(s, 10, 64)
		if err != nil || id == 0 {
			http.Error(w, "from must be an activity ID (1 or more), not "+strconv.Quote(s), http.StatusBadRequest)
			return
		}
		o.From = id
	}
	var pub ed25519.PublicKey
	switch k := q.Get("key"); {
	case k != "":
		b, err := base64.RawURLEncoding.DecodeString(k)
		if err != nil || len(b) != ed25519.PublicKeySize {
			http.Error(w, "key must be an Ed25519 public key, base64url without padding", http.StatusBadRequest)
			return
		}
		pub = b
	case d.auditKey != nil:
		pub = d.auditKey.Public().(ed25519.PublicKey)
	default:
		http.Error(w, "flowd has no audit key to verify with ("+d.audit.Error+"); pass the public key to check against", http.StatusConflict)
		return
	}
	rep, err := d.store.Verify(pub, o)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, rep)
}
