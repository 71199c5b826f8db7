package daemon

import (
	"net/http"

	"github.com/flowd-dev/flowd/internal/doctor"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/unprotected"
)

// serveDiagnostics lists what the asking user should act on, each with
// the command or config line that fixes it (doctor.Recommend).
func (d *Daemon) serveDiagnostics(w http.ResponseWriter, r *http.Request) {
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
	run := doctor.Running{Status: d.status(v), Config: d.current().Cfg}
	if p, ok := peer(r.Context()); ok {
		run.PassphraseSet, _, _ = d.approvals.Status(p.UID)
	} else {
		run.PassphraseSet, _, _ = d.approvals.Status(d.uid)
	}
	if !d.system {
		// A user's shims record themselves beside the user's socket; a
		// system flowd's users keep theirs, which it does not read.
		run.Unprotected, _ = unprotected.List(unprotected.Dir())
		// Its user's client configs are its own to read; a system
		// flowd's users' are not.
		run.Clients = doctor.UserClients()
	}
	writeJSON(w, struct {
		Recommendations []flowdclient.Recommendation `json:"recommendations"`
	}{doctor.Recommend(run)})
}
