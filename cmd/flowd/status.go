package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flowd-dev/flowd/internal/attackfeed"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/managed"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/service"
	"github.com/flowd-dev/flowd/internal/unprotected"
	"github.com/flowd-dev/flowd/internal/version"
)

func cmdStatus(args []string) error {
	fl := newFlags("flowd status")
	socket := clientSocket(fl)
	asJSON := fl.Bool("json", false, "print JSON")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	st, err := flowdclient.NewClient(socket.Path(), 2*time.Second).Status()
	if answered(err) {
		// It runs, and will not talk to this user: not "not running".
		return fmt.Errorf("flowd on %s: %w", socket.Path(), err)
	}
	if err != nil {
		st = flowdclient.Status{Running: false, Socket: socket.Path(), Shims: []flowdclient.Shim{}, Sessions: []string{}}
	}
	// What a shim's config and the agent wrote is shown inert, even by a
	// flowd older than this CLI.
	st = st.Shown()
	if st.Service == nil {
		st.Service = &flowdclient.Service{}
	}
	if st.Service.Manager == "" && st.Service.Problem == "" {
		// Not running, or a flowd that did not ask: asked from here.
		st.Service.Status = serviceStatus()
	}
	// Seen from this side of the socket: what the running flowd cannot know.
	unprot, unprotErr := unprotected.List(unprotected.Dir())
	others := otherFlowds(socket.Path())
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			flowdclient.Status
			Unprotected []unprotected.Shim `json:"unprotected_shims"`
			OtherFlowds []string           `json:"other_flowds"`
		}{st, nonNil(unprot), nonNil(others)})
		return statusExit(st)
	}
	for _, o := range others {
		fmt.Printf("WARNING: another flowd of yours answers on %s: your shims and hooks may be split between them (flowd doctor)\n", o)
	}
	if unprotErr != nil {
		fmt.Printf("WARNING: cannot tell which shims pass messages unchecked: %v\n", unprotErr)
	}
	for _, u := range unprot {
		fmt.Printf("WARNING: shim %q (pid %d) passes messages unchecked since %s: %s\n", u.Server, u.PID, u.Since.Local().Format(time.Stamp), u.Reason)
	}
	if !st.Running && socket.Path() == paths.SystemSocket {
		fmt.Printf("the machine's flowd is not running (socket %s): %v\nShims and hooks do not start it in its place; start it: sudo systemctl start flowd.socket flowd.service\nservice  %s\n",
			socket.Path(), err, describe(st.Service.Status))
	} else if !st.Running {
		fmt.Printf("flowd is not running (socket %s): %v\nA shim starts it on demand; to run it yourself: flowd run\nservice  %s\n", socket.Path(), err, describe(st.Service.Status))
	} else {
		fmt.Printf("flowd %s running, pid %d, up %s\nsocket   %s\ndata dir %s\nservice  %s\n", st.Version, st.PID,
			(time.Duration(st.UptimeSec) * time.Second).String(), st.Socket, st.DataDir, describe(st.Service.Status))
		if st.Service.StartedBy != "" {
			fmt.Printf("started  %s\n", startedLine(st.Service.StartedBy))
		}
		if c := st.Config; c != nil {
			fmt.Printf("config   %s (%s flowd): %s\n", c.File, c.Mode, settingsLine(c.Settings))
		}
		fmt.Printf("coverage %s\n", coverage(st))
		printStores(os.Stdout, st)
		fmt.Printf("sessions %d", len(st.Sessions))
		if len(st.Sessions) > 0 {
			fmt.Printf(": %s", strings.Join(st.Sessions, ", "))
		}
		fmt.Println()
		fmt.Println()
		if len(st.Shims) == 0 {
			fmt.Println("no shims connected")
		} else {
			tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SHIM\tSERVER\tSESSION\tPID\tMESSAGES\tGRANTED\tCOMMAND")
			for _, s := range st.Shims {
				granted := strings.Join(s.Granted, ",")
				if granted == "" {
					granted = "-"
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%s\t%s\n", s.ID, s.Server, s.Session, s.PID, s.Messages, granted, strings.Join(s.Command, " "))
			}
			tw.Flush()
		}
	}
	return statusExit(st)
}

// startedLine says what started the running flowd and what follows
// from it.
func startedLine(by string) string {
	switch by {
	case service.ByOnDemand:
		return by + ": a shim or flowd start started it; it runs until flowd stop or logout (flowd install makes it a service)"
	case service.ByHand:
		return by + " (flowd run): it stops with its terminal"
	}
	return "by " + by + ", which restarts it if it fails"
}

// settingsLine is the key settings in force, key=value, in key order.
func settingsLine(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	for i, k := range keys {
		keys[i] = k + "=" + m[k]
	}
	return strings.Join(keys, " ") + " (all of it: flowd config show --effective)"
}

// coverage says what flowd sees: only the MCP servers behind shims, or the
// agent's own tools too, through hooks that reported recently.
func coverage(st flowdclient.Status) string {
	if len(st.HooksActive) == 0 {
		return st.SecurityCoverage + ": MCP servers behind shims only; the agent's own tools (Read, Bash, WebFetch) are not seen until its hooks report (hook install --agent claude-code|gemini-cli|cursor)"
	}
	agents := slices.Sorted(maps.Keys(st.HooksActive))
	for i, a := range agents {
		agents[i] = fmt.Sprintf("%s (last event %s)", a, st.HooksActive[a].Local().Format(time.Stamp))
	}
	return st.SecurityCoverage + ": MCP servers behind shims, and the own tools of " + strings.Join(agents, ", ")
}

func statusExit(st flowdclient.Status) error {
	if !st.Running {
		return exitError(1)
	}
	return nil
}

// otherFlowds lists the sockets besides this one where a flowd of this
// user answers.
func otherFlowds(socket string) []string {
	return slices.DeleteFunc(localsock.UserFlowds(), func(s string) bool { return s == socket })
}

// nonNil makes an empty list print as [] in JSON, not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func cmdConfig(args []string) error {
	if len(args) > 0 && args[0] == "apply" {
		return configApply(args[1:], os.Stdout, openTTY)
	}
	fl := newFlags("flowd config")
	effective := fl.Bool("effective", false, "with show: print every value in force and where it came from")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: flowd config default      print the default config\n"+
			"       flowd config check [FILE]   check a config file, reporting every problem and every key that weakens the machine's managed policy (%[2]s) (default FILE: %[1]s)\n"+
			"       flowd config show --effective [FILE]\n"+
			"                                   print every value FILE and the managed policy put in force, each with its source: default, user file or managed file\n"+
			"       flowd config apply          apply the config held back because it lowers protection (asks your approval passphrase)\n", paths.ConfigFile(), managed.Path())
	}
	pos, err := parseArgs(fl, args)
	if err != nil {
		return err
	}
	file := paths.ConfigFile()
	if len(pos) == 2 {
		file = pos[1]
	}
	switch {
	case len(pos) == 1 && pos[0] == "default":
		os.Stdout.Write(config.DefaultTOML())
		return nil
	case len(pos) >= 1 && len(pos) <= 2 && pos[0] == "check":
		if _, err := managed.Load(file, true); err != nil {
			return err
		}
		fmt.Printf("%s: ok\n", file)
		return nil
	case len(pos) >= 1 && len(pos) <= 2 && pos[0] == "show":
		if !*effective {
			return usageError(fl, "flowd config show prints the config in force: say --effective")
		}
		// The user's file need not exist: the defaults are then in force.
		e, err := managed.Load(file, len(pos) == 2)
		if err != nil {
			return err
		}
		_, err = e.WriteTo(os.Stdout)
		return err
	}
	return usageError(fl, "unknown or incomplete subcommand %q", strings.Join(pos, " "))
}

func cmdVersion() error {
	fmt.Println("flowd", version.Version)
	return nil
}

// printStores prints the activity log's counters and what went wrong with
// flowd's stores: failing writes, records lost, damaged files.
func printStores(out io.Writer, st flowdclient.Status) {
	a := st.Activity
	fmt.Fprintf(out, "activity %d written, %d pending, %d dropped, %d failed", a.Written, a.Pending, a.Dropped, a.Failed)
	if a.Unreadable > 0 {
		fmt.Fprintf(out, ", %d unreadable", a.Unreadable)
	}
	fmt.Fprintln(out)
	if a.Retention.Total() > 0 {
		fmt.Fprintf(out, "activity retention pruned %s%s\n", a.Retention, earlyNote(a.Retention))
	}
	if a.WriteError != "" {
		fmt.Fprintf(out, "activity writes FAILING since %s: %s\n", a.FailingSince.Local().Format(time.DateTime), a.WriteError)
	}
	for _, d := range st.DamagedStores {
		fmt.Fprintf(out, "DAMAGED  %s was damaged (%s): moved aside to %s at start, a fresh one in use\n", d.What, d.Reason, d.MovedTo)
	}
	if st.ApprovalPassphrase && st.PassphraseBy != "" {
		fmt.Fprintf(out, "approval passphrase set %s by %s (not you? see flowd doctor)\n", st.PassphraseSince.Local().Format(time.DateTime), st.PassphraseBy)
	} else if !st.ApprovalPassphrase {
		fmt.Fprintln(out, "approval passphrase NOT SET: reading and releasing quarantined results and approving are refused; run flowd passphrase set in a terminal (flowd sets a first one only before any agent has run through it, and says how otherwise)")
	}
	if h := st.HeldLost; h != nil {
		fmt.Fprintf(out, "sessions ALL LOST until %s: every session's sends out are judged as carrying internal data (%s)\n",
			h.Until.Local().Format(time.DateTime), h.Why)
	}
	if h := st.ConfigHeld; h != nil {
		how := "read and apply it with flowd config apply"
		if !st.ApprovalPassphrase {
			how = "no approval passphrase is set: set one with flowd passphrase set, then read and apply it with flowd config apply"
		}
		fmt.Fprintf(out, "config   HELD BACK since %s: it lowers protection (%d changes); the config in force is the one before; %s\n",
			h.Since.Local().Format(time.DateTime), len(h.Changes), how)
	}
	if l := auditLine(st.Audit); l != "" {
		fmt.Fprintln(out, l)
	}
	for _, x := range []*exporter.Status{st.Export, st.OTLP} {
		if l := exportLine(x); l != "" {
			fmt.Fprintln(out, l)
		}
	}
	for _, f := range st.Feeds {
		fmt.Fprintln(out, feedLine(f))
	}
	if u := st.PinsUntrusted; u != nil {
		fmt.Fprintf(out, "pins     lost with a damaged file on %s: no server is trusted on first use; approve each with flowd pins approve SERVER\n",
			u.Since.Local().Format(time.DateTime))
	}
}

// feedLine is an attack feed's state: the last good feed taken, and why
// the last pull failed.
func feedLine(f attackfeed.Status) string {
	l := "feed     " + f.URL + ": "
	if f.Taken.IsZero() {
		l += "nothing taken yet"
	} else {
		l += fmt.Sprintf("%d prints, sequence %d of %s, taken %s", f.Prints, f.Seq, f.Created.Local().Format(time.DateTime), f.Taken.Local().Format(time.DateTime))
	}
	if f.Error != "" {
		l += fmt.Sprintf("; LAST PULL REFUSED (%d since start, the last good feed stays): %s", f.Refused, f.Error)
	}
	return l
}

// exportLine is an exporter's state: where to, whether it is
// connected, what waits in memory and on disk, what was sent, dropped
// and rejected, the last error.
func exportLine(x *exporter.Status) string {
	if x == nil {
		return ""
	}
	state := "connected"
	switch {
	case !x.Enabled:
		state = "off"
	case !x.Connected:
		state = "NOT CONNECTED"
	}
	format := ""
	if x.Format != "" {
		format = " (" + x.Format + ")"
	}
	l := fmt.Sprintf("export   %s %s %s%s: %s, %d queued of %d, %d spooled (%s of %s), %d sent, %d dropped",
		x.Name, x.Protocol, x.Endpoint, format, state, x.Queued, x.QueueLimit, x.Spool.Records, sizeText(x.Spool.Bytes), sizeText(x.Spool.Limit),
		x.Sent, x.Lost())
	if x.Rejected > 0 {
		l += fmt.Sprintf(", %d rejected as malformed", x.Rejected)
	}
	if x.SpoolError != "" {
		l += "; NO SPOOL: " + x.SpoolError
	}
	if x.LastError != "" {
		l += fmt.Sprintf("; last error %s: %s", x.LastErrAt.Local().Format(time.DateTime), x.LastError)
	}
	return l
}

// sizeText is n bytes in KiB or MiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
