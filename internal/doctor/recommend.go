package doctor

import (
	"fmt"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/clientconfig"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/unprotected"
	"github.com/flowd-dev/flowd/internal/untrusted"
)

// Running is what a running flowd knows of itself, for Recommend.
type Running struct {
	Status        flowdclient.Status
	Config        *config.Config
	ConfigPath    string
	PassphraseSet bool
	Unprotected   []unprotected.Shim
	// Clients are the user's MCP client configs (UserClients).
	Clients []ClientFile
}

// Recommend judges a running flowd: its coverage, stores and settings.
// It is pure; the daemon gathers r.
func Recommend(r Running) []flowdclient.Recommendation {
	out := []flowdclient.Recommendation{}
	add := func(id, severity, msg, fix string) {
		// Messages name servers and quote what shims reported.
		out = append(out, flowdclient.Recommendation{ID: id, Severity: severity, Message: untrusted.Text(msg), Fix: untrusted.Text(fix)})
	}
	st, cfg := r.Status, r.Config
	for _, u := range r.Unprotected {
		add("shim_unprotected", "error", fmt.Sprintf("shim %q (pid %d) passes messages unchecked since %s: %s",
			u.Server, u.PID, u.Since.Local().Format(time.Stamp), u.Reason), "restart the MCP client that runs "+u.Server)
	}
	for _, c := range r.Clients {
		if c.Steers != "" {
			add("servers_steered", "warning", SteersMessage(c), "remove it from the file, or do not run the agent in this project")
		}
		if len(c.Unwrapped) > 0 {
			add("servers_unwrapped", "warning", fmt.Sprintf("%s (%s): servers not wrapped, flowd cannot see them: %s",
				c.Client, c.Path, strings.Join(c.Unwrapped, ", ")), clientconfig.WrapCommand(clientconfig.Client(c.Client), c.Path))
		}
	}
	if a := st.Activity; a.WriteError != "" {
		add("activity_write_failing", "error", fmt.Sprintf("the activity log cannot write since %s (%d records lost): %s",
			a.FailingSince.Local().Format(time.DateTime), a.Failed, a.WriteError), "free space on the disk of "+st.DataDir)
	} else if a.Dropped > 0 || a.Failed > 0 {
		add("activity_records_lost", "warning", fmt.Sprintf("%d activity records were dropped and %d lost to failed writes since flowd started",
			a.Dropped, a.Failed), "check free space on the disk of "+st.DataDir)
	}
	for _, d := range st.DamagedStores {
		add("store_damaged", "warning", fmt.Sprintf("%s was damaged when flowd started (%s): moved aside to %s", d.What, d.Reason, d.MovedTo),
			"rm "+d.MovedTo+" once you no longer need it")
	}
	if h := st.HeldLost; h != nil {
		add("held_sessions_lost", "warning", fmt.Sprintf("flowd cannot tell which sessions read data before it started (%s): until %s every session is judged as carrying internal data when it sends out",
			h.Why, h.Until.Local().Format(time.DateTime)), "it ends by itself; if flowd was not restarted by you, find out what stopped it")
	}
	if h := st.ConfigHeld; h != nil {
		add("config_held", "warning", "a config that lowers protection is held back: "+strings.Join(h.Changes, "; "), applyHeld(r.PassphraseSet))
	}
	if st.PinsUntrusted != nil {
		add("pins_untrusted", "warning", "tool pins were lost with a damaged file: every server's tools are held until you approve them",
			"flowd pins list, then flowd pins approve SERVER")
	}
	if st.SecurityCoverage != "full" {
		add("hooks_missing", "warning", "proxy-only: flowd sees MCP servers behind shims, not the agent's own tools (Read, Bash, WebFetch)",
			"hook install --agent claude-code --scope user")
	}
	if len(st.Shims) == 0 {
		add("no_shims", "info", "no shim is connected: no MCP server's traffic passes flowd right now", "shim wrap")
	}
	if !r.PassphraseSet {
		add("passphrase_unset", "warning", "no approval passphrase: reading and releasing quarantined results and approving tool changes are refused until one is set (flowd sets the first one only before any agent has run through it; after that, flowd passphrase set says how to open the way)",
			"flowd passphrase set")
	} else if st.PassphraseBy != "" {
		add("passphrase_set_by", "info", fmt.Sprintf("the approval passphrase was set %s by %s: if that was not you, a program running as you (an agent) may hold it",
			st.PassphraseSince.Local().Format(time.DateTime), st.PassphraseBy),
			"if it was not you: quit your agents, stop flowd, remove approval.json and agent-seen from its data dir, start flowd, then flowd passphrase set")
	}
	if cfg == nil {
		return out
	}
	where := r.ConfigPath
	if where == "" {
		where = "flowd's config file"
	}
	if cfg.Shim.FailMode == "open" {
		add("fail_mode_open", "info", "shim.fail_mode is open: while flowd is unreachable, shims pass messages unchecked (and record that they do)",
			`[shim] fail_mode = "closed" in `+where)
	}
	if cfg.Classify.DefaultUnknown == "internal" {
		add("unknown_is_internal", "warning", "classify.default_unknown is internal: data may leave through a server flowd does not recognise",
			`[classify] default_unknown = "unknown" in `+where)
	}
	if !cfg.Injection.Enabled {
		add("injection_scan_off", "warning", "injection.enabled is false: tool output is not screened for prompt injection",
			"[injection] enabled = true in "+where)
	}
	return out
}
