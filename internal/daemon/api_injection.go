package daemon

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/flowd-dev/flowd/internal/localapi"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/quarantine"
)

func (d *Daemon) serveRecord(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "activity ID must be a number", http.StatusBadRequest)
		return
	}
	if err := d.store.Flush(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	rec, ok, err := d.store.Get(id)
	switch {
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	case !ok:
		http.Error(w, "no activity record "+r.PathValue("id")+" (it may have been pruned)", http.StatusNotFound)
	default:
		writeJSON(w, rec)
	}
}

func (d *Daemon) serveQuarantine(w http.ResponseWriter, r *http.Request) {
	items, err := d.quarantine.List(0)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if items == nil {
		items = []quarantine.Item{}
	}
	writeJSON(w, items)
}

func (d *Daemon) serveQuarantined(w http.ResponseWriter, r *http.Request) {
	it, err := d.quarantine.Get(r.PathValue("id"))
	if err != nil {
		quarantineError(w, err)
		return
	}
	writeJSON(w, it)
}

// serveRelease releases quarantined content. The CLI asks the user at the
// terminal first; an agent's shell is kept from running it by the hook's
// human_only rule.
func (d *Daemon) serveRelease(w http.ResponseWriter, r *http.Request) {
	it, err := d.quarantine.Release(r.PathValue("id"))
	if err != nil {
		quarantineError(w, err)
		return
	}
	d.log.Warn("quarantined content released by the user", "id", it.ID, "server", it.Server, "tool", it.Tool)
	writeJSON(w, it)
}

func quarantineError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, quarantine.ErrNotFound) {
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}

func (d *Daemon) servePins(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, d.pins.List())
}

func (d *Daemon) serveApprove(w http.ResponseWriter, r *http.Request) {
	var a localapi.Approval
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&a); err != nil || a.Server == "" {
		http.Error(w, `want {"server": NAME, "tool": TOOL (optional)}`, http.StatusBadRequest)
		return
	}
	tools, err := d.pins.Approve(a.Server, a.Tool)
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, pins.ErrNotFound) {
			code = http.StatusNotFound
		}
		http.Error(w, err.Error(), code)
		return
	}
	d.log.Warn("tool changes approved by the user", "server", a.Server, "tools", tools)
	writeJSON(w, localapi.Approved{Tools: tools})
}
