package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/approval"
	"github.com/flowd-dev/flowd/internal/explain"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/quarantine"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

func (d *Daemon) serveRecord(w http.ResponseWriter, r *http.Request) {
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
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
	case !ok || !v.sees(rec.Session): // another user's record is not there for this one
		http.Error(w, "no activity record "+r.PathValue("id")+" (it may have been pruned)", http.StatusNotFound)
	default:
		// With what flowd explain says of it, for the dashboard.
		rec = rec.Shown()
		var why strings.Builder
		explain.Write(&why, rec)
		writeJSON(w, struct {
			activity.Record
			Explanation string `json:"explanation"`
		}{rec, why.String()})
	}
}

// serveQuarantine lists the quarantined items as metadata: never what
// they say, which only serveQuarantineView gives.
func (d *Daemon) serveQuarantine(w http.ResponseWriter, r *http.Request) {
	if !metadataOnly(w, r) {
		return
	}
	v, ok := d.viewer(w, r)
	if !ok {
		return
	}
	items, err := d.quarantine.List(0)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	seen := []quarantine.Item{}
	for _, it := range items {
		if v.sees(it.Session) {
			seen = append(seen, it.Shown().Metadata())
		}
	}
	writeJSON(w, seen)
}

// serveQuarantined answers one item's metadata.
func (d *Daemon) serveQuarantined(w http.ResponseWriter, r *http.Request) {
	if !metadataOnly(w, r) {
		return
	}
	if it, ok := d.quarantined(w, r); ok {
		writeJSON(w, it.Shown().Metadata())
	}
}

// serveQuarantineView answers one item with what it says (its content and
// the detections' excerpts, which quote it) to a request that carries the
// asker's approval passphrase. The text was withheld because it may
// attack whatever reads it: a process that reads it on the user's
// behalf can hand it to the model as surely as a release would, so it
// takes what a release takes, and a wrong guess counts against the same
// lockout.
func (d *Daemon) serveQuarantineView(w http.ResponseWriter, r *http.Request) {
	it, ok := d.quarantined(w, r)
	if !ok {
		return
	}
	var req flowdclient.Release
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req); err != nil {
		http.Error(w, `want {"passphrase": "..."}`, http.StatusBadRequest)
		return
	}
	if !d.approved(w, r, req.Passphrase, "read quarantined "+it.ID) {
		return
	}
	d.log.Warn("quarantined content shown to the user", "id", it.ID, "server", it.Server, "tool", it.Tool)
	writeJSON(w, it.Shown())
}

// metadataOnly refuses the confirm_view parameter that once added the
// quarantined text to a GET, saying what does it now; it reports whether
// the request may go on.
func metadataOnly(w http.ResponseWriter, r *http.Request) bool {
	if !r.URL.Query().Has("confirm_view") {
		return true
	}
	http.Error(w, `reading quarantined text needs your approval passphrase: POST /api/v1/quarantine/{id}/view with {"passphrase": "..."} `+
		"(flowd quarantine show ID asks for it at the terminal); without confirm_view this answers the metadata", http.StatusForbidden)
	return false
}

// quarantined is the item the request names, if its viewer may see it;
// else the request is answered.
func (d *Daemon) quarantined(w http.ResponseWriter, r *http.Request) (quarantine.Item, bool) {
	v, ok := d.viewer(w, r)
	if !ok {
		return quarantine.Item{}, false
	}
	it, err := d.quarantine.Get(r.PathValue("id"))
	if err == nil && !v.sees(it.Session) {
		// Another user's item: as if it were not there.
		err = fmt.Errorf("%w: %s (flowd quarantine list shows the items it keeps)", quarantine.ErrNotFound, r.PathValue("id"))
	}
	if err != nil {
		quarantineError(w, err)
		return quarantine.Item{}, false
	}
	return it, true
}

// serveRelease releases quarantined content for a request that carries
// the asking user's approval passphrase. The hook's human_only rule keeps
// an agent's shell from even trying.
func (d *Daemon) serveRelease(w http.ResponseWriter, r *http.Request) {
	if _, ok := d.quarantined(w, r); !ok {
		return
	}
	var req flowdclient.Release
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req); err != nil {
		http.Error(w, `want {"passphrase": "..."}`, http.StatusBadRequest)
		return
	}
	if !d.approved(w, r, req.Passphrase, "release quarantined "+r.PathValue("id")) {
		return
	}
	it, err := d.quarantine.Release(r.PathValue("id"))
	if err != nil {
		quarantineError(w, err)
		return
	}
	d.log.Warn("quarantined content released by the user", "id", it.ID, "server", it.Server, "tool", it.Tool)
	writeJSON(w, it.Shown().Metadata())
}

func quarantineError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, quarantine.ErrNotFound) {
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}

func (d *Daemon) servePins(w http.ResponseWriter, r *http.Request) {
	if d.pinsAdmin(w, r) {
		servers := d.pins.List()
		for i := range servers {
			servers[i] = servers[i].Shown()
		}
		writeJSON(w, servers)
	}
}

// pinsAdmin answers 403 and returns false unless the request may see and
// approve tool pins. In a system flowd the pins are one set for all its
// users (a server is pinned by its name and command, whoever runs it), so
// only root and flowd's own account may read them (a command may hold
// another user's paths) or approve them (for everyone).
func (d *Daemon) pinsAdmin(w http.ResponseWriter, r *http.Request) bool {
	v, ok := d.viewer(w, r)
	if ok && !v.all {
		http.Error(w, "this flowd is the machine's, and its tool pins are shared by all its users: only root may list or approve them (sudo flowd pins ...)",
			http.StatusForbidden)
		return false
	}
	return ok
}

func (d *Daemon) serveApprove(w http.ResponseWriter, r *http.Request) {
	if !d.pinsAdmin(w, r) {
		return
	}
	var a flowdclient.Approval
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&a); err != nil || a.Server == "" {
		http.Error(w, `want {"server": NAME, "tool": TOOL (optional), "passphrase": "..."}`, http.StatusBadRequest)
		return
	}
	if !d.approved(w, r, a.Passphrase, "approve tools of "+a.Server) {
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
	writeJSON(w, flowdclient.Approved{Tools: tools, Told: d.hub.ToolsChanged(a.Server)})
}

// approved checks the asker's approval passphrase, or answers why not and
// returns false. Every refusal is logged: a wrong guess may be an agent
// trying to approve its own way out.
func (d *Daemon) approved(w http.ResponseWriter, r *http.Request, pass, what string) bool {
	p, ok := peer(r.Context())
	if !ok {
		http.Error(w, errNoPeer.Error(), http.StatusForbidden)
		return false
	}
	err := d.approvals.Check(p.UID, pass)
	if err == nil {
		return true
	}
	d.log.Warn("approval refused", "what", what, "uid", p.UID, "err", err)
	approvalError(w, err)
	return false
}

// approvalError answers a refusal of the approval gate: 429 while guesses
// are locked out, 403 for a wrong, missing or too weak passphrase.
func approvalError(w http.ResponseWriter, err error) {
	var locked *approval.LockedError
	var live *approval.AgentLiveError
	var seen *approval.AgentSeenError
	switch {
	case errors.As(err, &locked):
		http.Error(w, err.Error(), http.StatusTooManyRequests)
	case errors.As(err, &live), errors.As(err, &seen):
		http.Error(w, err.Error(), http.StatusConflict)
	case errors.Is(err, approval.ErrWrong), errors.Is(err, approval.ErrNotSet), errors.Is(err, approval.ErrWeak):
		http.Error(w, err.Error(), http.StatusForbidden)
	default:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// servePassphrase sets or changes the asker's approval passphrase.
func (d *Daemon) servePassphrase(w http.ResponseWriter, r *http.Request) {
	p, ok := peer(r.Context())
	if !ok {
		http.Error(w, errNoPeer.Error(), http.StatusForbidden)
		return
	}
	var req flowdclient.PassphraseChange
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req); err != nil {
		http.Error(w, `want {"old": "...", "new": "..."}`, http.StatusBadRequest)
		return
	}
	by := askedBy(p)
	wasSet, _, _ := d.approvals.Status(p.UID)
	if err := d.approvals.Set(p.UID, req.Old, req.New, by, func() approval.Around { return d.around(p.UID) }); err != nil {
		d.firstSetReset(err, p.UID)
		d.log.Warn("approval passphrase not changed", "uid", p.UID, "by", by, "err", err)
		approvalError(w, err)
		return
	}
	what := "approval passphrase set"
	if wasSet {
		what = "approval passphrase changed"
	}
	d.log.Warn(what, "uid", p.UID, "by", by)
	rec := activity.Record{Type: activity.TypePassphraseSet, RiskLevel: "high", Reason: what + " by " + by + ": if it was not you, an agent may hold it; see flowd doctor",
		Details: judge.MustJSON(map[string]any{"uid": p.UID, "by": by, "changed": wasSet})}
	if d.system {
		rec.Session = sessionid.Scoped(p.UID, "") // shown to that user
	}
	d.judge.Record(rec)
	writeJSON(w, struct{}{})
}

// askedBy names the process that asked, for the user to recognise.
func askedBy(p localsock.Cred) string {
	if p.PID <= 0 {
		return "a process of uid " + strconv.Itoa(p.UID)
	}
	if l := sessionid.Lineage(p.PID); l != "" {
		return l
	}
	return "pid " + strconv.Itoa(p.PID)
}

// around is what flowd sees of uid's agents now: their connected MCP
// servers, their last tool call, and when their agents first acted
// through flowd (sawAgent). The last call is read from the activity log
// too, not only from what this flowd saw: an agent that kills flowd and
// starts another must not find it knowing of no agent.
// In a system flowd only uid's own count (by their sessions, and by the
// peer uid of their hooks): another user's live agent must not keep this
// user from setting theirs, and is not this user's agent to hold back.
// A user's flowd has one user: every agent counts.
func (d *Daemon) around(uid int) approval.Around {
	mine := viewer{all: !d.system, uid: uid}
	now := time.Now()
	a := approval.Around{Now: now, Shims: len(d.hub.Shims(mine.sees)), FirstAgent: d.firstAgent(uid, now)}
	d.mu.Lock()
	for u, last := range d.hooksBy {
		if (mine.all || u == uid) && last.After(a.LastAgent) {
			a.LastAgent = last
		}
	}
	d.mu.Unlock()
	for _, t := range []string{activity.TypeHookEvaluation, activity.TypeToolCall, activity.TypeMessage} {
		f := activity.Filter{Type: t, Limit: 1}
		if !mine.all {
			f.Owner = &uid
		}
		recs, err := d.store.Query(f)
		if err != nil {
			a.LastAgent = a.Now // unknown: as if an agent had just called
			break
		}
		if len(recs) > 0 && recs[0].Time.After(a.LastAgent) {
			a.LastAgent = recs[0].Time
		}
	}
	return a
}

// passphraseFile is where uid's approval passphrase verifier lives: beside
// flowd's stores, which a system flowd keeps out of its users' reach.
func (d *Daemon) passphraseFile(uid int) string {
	if !d.system {
		return filepath.Join(d.dataDir, "approval.json")
	}
	return filepath.Join(d.dataDir, "approval-"+strconv.Itoa(uid)+".json")
}
