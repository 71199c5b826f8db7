package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Weakened lists the changes from old to new that lower protection, each
// as "key: old → new (why)"; none when new protects at least as well. A
// config reload that weakens is held back for the user's approval
// passphrase: a process running as the user (the agent) can edit the
// file and send flowd a SIGHUP.
//
// It errs towards listing: a change whose effect depends on what flowd
// reads from servers (a classification removed, a tool override added
// for anything but "deny") counts as weakening.
func Weakened(old, new *Config) []string {
	var w weakenings
	w.rank("shim.fail_mode", old.Shim.FailMode, new.Shim.FailMode, []string{FailOpen, FailClosed},
		"messages pass when flowd is unreachable")
	// A call's arguments past the limit are not inspected (the
	// self-protection rule reads only what is inspected); a shorter
	// verdict timeout under fail_mode open gives flowd up sooner, and a
	// shim passes calls to an internal server unjudged meanwhile.
	w.less("shim.max_inspect_bytes", old.Shim.MaxInspectBytes, new.Shim.MaxInspectBytes, "less of each message inspected")
	if new.Shim.FailMode == FailOpen {
		w.shorter("shim.verdict_timeout", old.Shim.VerdictTimeout, new.Shim.VerdictTimeout, "flowd given up sooner, and messages passed unjudged")
	}
	// What flowd did is evidence: less of it kept, or logged, hides an
	// agent's tracks.
	w.rank("daemon.log_level", old.Daemon.LogLevel, new.Daemon.LogLevel, []string{"error", "warn", "info", "debug"}, "less is logged")
	w.shorter("activity.max_age", old.Activity.MaxAge, new.Activity.MaxAge, "activity records deleted sooner")
	w.less("activity.max_records", old.Activity.MaxRecords, new.Activity.MaxRecords, "fewer activity records kept")
	w.less("activity.max_notable_records", old.Activity.MaxNotable, new.Activity.MaxNotable, "fewer notable activity records kept")
	w.longer("activity.flush_interval", old.Activity.FlushInterval, new.Activity.FlushInterval, "records written later, and lost if flowd is killed meanwhile")

	// Records sent off the machine are evidence the agent cannot reach:
	// stopping them, sending them elsewhere or trusting another CA for
	// them lets it act unseen.
	x, y := old.Export.Syslog, new.Export.Syslog
	w.turnedOff("export.syslog.enabled", x.Enabled, y.Enabled, "records no longer leave the machine")
	if x.Enabled && y.Enabled {
		if x.Address != y.Address {
			w.add("export.syslog.address", fmt.Sprintf("%q → %q", x.Address, y.Address), "records go to another receiver")
		}
		w.rank("export.syslog.transport", x.Transport, y.Transport, []string{SyslogUDP, SyslogTCP, SyslogTLS}, "records may be lost or read on the way")
		if x.Transport == SyslogTLS && x.CAFile != y.CAFile {
			w.add("export.syslog.ca_file", fmt.Sprintf("%q → %q", x.CAFile, y.CAFile), "another receiver may be trusted")
		}
		// A receiver that asks for a client certificate refuses records
		// without the one it knows: records then never arrive.
		if x.CertFile != y.CertFile || x.KeyFile != y.KeyFile {
			w.add("export.syslog.cert_file", fmt.Sprintf("%q → %q", x.CertFile, y.CertFile), "the receiver may refuse every record")
		}
		if x.Format != y.Format {
			w.add("export.syslog.format", fmt.Sprintf("%q → %q", x.Format, y.Format), "the receiver may not read the records")
		}
		w.less("export.syslog.queue_limit", x.QueueLimit, y.QueueLimit, "fewer records kept while the receiver is slow")
		w.less("export.syslog.spool_bytes", x.SpoolBytes, y.SpoolBytes, "fewer records kept while the receiver is away")
		w.rest("export.syslog.", x, y)
	}
	o, n := old.Export.OTLP, new.Export.OTLP
	w.turnedOff("export.otlp.enabled", o.Enabled, n.Enabled, "records no longer leave the machine")
	if o.Enabled && n.Enabled {
		if o.Endpoint != n.Endpoint {
			w.add("export.otlp.endpoint", fmt.Sprintf("%q → %q", o.Endpoint, n.Endpoint), "records go to another collector")
		}
		if o.CAFile != n.CAFile {
			w.add("export.otlp.ca_file", fmt.Sprintf("%q → %q", o.CAFile, n.CAFile), "another collector may be trusted")
		}
		// The collector knows its clients by a header or a certificate,
		// and speaks one protocol: change either and it refuses every
		// record (found by a red team, RT7-9).
		if o.Protocol != n.Protocol {
			w.add("export.otlp.protocol", fmt.Sprintf("%q → %q", o.Protocol, n.Protocol), "the collector may refuse every record")
		}
		if !maps.Equal(o.Headers, n.Headers) {
			w.add("export.otlp.headers", "changed", "the collector may refuse every record")
		}
		if o.CertFile != n.CertFile || o.KeyFile != n.KeyFile {
			w.add("export.otlp.cert_file", fmt.Sprintf("%q → %q", o.CertFile, n.CertFile), "the collector may refuse every record")
		}
		w.less("export.otlp.queue_limit", o.QueueLimit, n.QueueLimit, "fewer records kept while the collector is slow")
		w.less("export.otlp.spool_bytes", o.SpoolBytes, n.SpoolBytes, "fewer records kept while the collector is away")
		w.rest("export.otlp.", o, n)
	}

	p, q := old.Policy, new.Policy
	for _, k := range []struct {
		key      string
		old, new string
	}{
		{"policy.default_action", p.DefaultAction, q.DefaultAction},
		{"policy.internal_to_external", p.InternalToExternal, q.InternalToExternal},
		{"policy.internal_to_unknown", p.InternalToUnknown, q.InternalToUnknown},
		{"policy.sensitive_data_external", p.SensitiveDataExternal, q.SensitiveDataExternal},
		{"policy.ask_fallback", p.AskFallback, q.AskFallback},
		{"policy.codex_ask_fallback", p.CodexAskFallback, q.CodexAskFallback},
		{"policy.private_addresses", p.PrivateAddresses, q.PrivateAddresses},
		{"policy.risky_commands", p.RiskyCommands, q.RiskyCommands},
		{"policy.read_then_send", p.ReadThenSend, q.ReadThenSend},
	} {
		w.rank(k.key, k.old, k.new, actions, "a weaker action")
	}
	w.turnedOff("policy.ask_with_elicitation", p.AskWithElicitation, q.AskWithElicitation, "ask becomes ask_fallback without hooks")
	w.turnedOff("policy.require_justification", p.RequireJustification, q.RequireJustification, "data leaves without a stated reason")
	for _, h := range p.SuspiciousEndpoints {
		if !slices.Contains(q.SuspiciousEndpoints, h) {
			w.add("policy.suspicious_endpoints", fmt.Sprintf("%q removed", h), "calls to it are no longer denied")
		}
	}
	for _, tool := range union(p.ToolOverrides, q.ToolOverrides) {
		key := formatKey([]string{"policy", "tool_overrides", tool})
		a, had := p.ToolOverrides[tool]
		b, has := q.ToolOverrides[tool]
		switch {
		case !had && has && b != ActionDeny:
			w.add(key, "added as "+strconv.Quote(b), "it wins over every other rule")
		case had && !has && a != ActionAllow:
			w.add(key, fmt.Sprintf("%q removed", a), "the other rules may be weaker")
		case had && has:
			w.rank(key, a, b, actions, "a weaker action")
		}
	}

	c, d := old.Classify, new.Classify
	w.class("classify.default_unknown", c.DefaultUnknown, d.DefaultUnknown, true)
	for _, m := range []struct {
		path     string
		old, new map[string]string
	}{{"servers", c.Servers, d.Servers}, {"tools", c.Tools, d.Tools}} {
		for _, name := range union(m.old, m.new) {
			key := formatKey([]string{"classify", m.path, name})
			a, had := m.old[name]
			b, has := m.new[name]
			switch {
			case had && !has:
				w.add(key, fmt.Sprintf("%q removed", a), "flowd's own reading may trust it more")
			default:
				w.class(key, a, b, had)
			}
		}
	}

	f, g := old.Flow, new.Flow
	w.less("flow.max_origins", f.MaxOrigins, g.MaxOrigins, "fewer results remembered")
	w.less("flow.max_response_hash_bytes", f.MaxResponseHashBytes, g.MaxResponseHashBytes, "less of each result remembered")
	if g.MinMatchLength > f.MinMatchLength {
		w.add("flow.min_match_length", fmt.Sprintf("%d → %d", f.MinMatchLength, g.MinMatchLength), "shorter copies go unnoticed")
	}
	w.shorter("flow.session_idle_timeout", f.SessionIdleTimeout, g.SessionIdleTimeout, "sessions forgotten sooner")
	w.less("flow.max_memory_bytes", f.MaxMemoryBytes, g.MaxMemoryBytes, "results forgotten sooner")

	i, j := old.Injection, new.Injection
	w.turnedOff("injection.enabled", i.Enabled, j.Enabled, "tool output is no longer scanned")
	w.turnedOff("injection.known_attacks.enabled", i.KnownAttacks.Enabled, j.KnownAttacks.Enabled, "attacks caught before are not known again")
	for _, k := range j.KnownAttacks.TrustedKeys {
		if !slices.Contains(i.KnownAttacks.TrustedKeys, k) {
			// A trusted signer's prints can block results: one the agent
			// adds could block whatever it likes the user not to see.
			w.add("injection.known_attacks.trusted_keys", fmt.Sprintf("%q added", k), "its feeds can flag and block results")
		}
	}
	for _, f := range j.KnownAttacks.Feeds {
		if !slices.ContainsFunc(i.KnownAttacks.Feeds, func(e Feed) bool { return e.URL == f.URL && e.Key == f.Key }) {
			w.add("injection.known_attacks.feed", fmt.Sprintf("%s signed by %q added", f.URL, f.Key), "its feeds can flag and block results")
		}
	}
	// A feed brings the attacks other machines caught: dropping it, or
	// its signer, or pulling it seldom keeps them unknown here.
	for _, k := range i.KnownAttacks.TrustedKeys {
		if !slices.Contains(j.KnownAttacks.TrustedKeys, k) {
			w.add("injection.known_attacks.trusted_keys", fmt.Sprintf("%q removed", k), "its feeds' attacks are no longer known")
		}
	}
	for _, f := range i.KnownAttacks.Feeds {
		if !slices.ContainsFunc(j.KnownAttacks.Feeds, func(e Feed) bool { return e.URL == f.URL && e.Key == f.Key }) {
			w.add("injection.known_attacks.feed", fmt.Sprintf("%s removed", f.URL), "the attacks it brings are no longer known")
		}
	}
	for _, f := range i.KnownAttacks.Feeds {
		k := slices.IndexFunc(j.KnownAttacks.Feeds, func(e Feed) bool { return e.URL == f.URL && e.Key == f.Key })
		if k >= 0 && !reflect.DeepEqual(f, j.KnownAttacks.Feeds[k]) {
			// Another CA for it: the company's server is no longer the
			// one trusted, and its prints may never arrive (RT8-10).
			w.add("injection.known_attacks.feed", fmt.Sprintf("%s changed", f.URL), "the attacks it brings may no longer arrive")
		}
	}
	if len(i.KnownAttacks.Feeds) > 0 {
		w.longer("injection.known_attacks.feed_interval", i.KnownAttacks.FeedInterval, j.KnownAttacks.FeedInterval, "new attacks known later")
		w.shorter("injection.known_attacks.feed_timeout", i.KnownAttacks.FeedTimeout, j.KnownAttacks.FeedTimeout, "a pull given up sooner, its attacks unknown")
		w.less("injection.known_attacks.feed_max_bytes", i.KnownAttacks.FeedMaxBytes, j.KnownAttacks.FeedMaxBytes, "a feed refused sooner, its attacks unknown")
	}
	w.less("injection.max_field_bytes", i.MaxFieldBytes, j.MaxFieldBytes, "less of each field scanned")
	w.less("injection.max_message_bytes", i.MaxMessageBytes, j.MaxMessageBytes, "less of each message scanned")
	w.shorter("injection.time_budget", i.TimeBudget, j.TimeBudget, "less of each message scanned")
	w.rank("injection.taint_action", i.TaintAction, j.TaintAction, []string{TaintRaise, TaintDeny}, "a tainted session is trusted more")
	w.rank("injection.on_incomplete", i.OnIncomplete, j.OnIncomplete, []string{IncompletePass, IncompleteUntrusted, IncompleteFlag},
		"content not scanned whole is trusted more")
	if !i.TrustOnFirstUse && j.TrustOnFirstUse {
		w.add("injection.trust_on_first_use", "false → true", "new servers' tools are trusted unseen")
	}
	for _, v := range j.Waivers {
		if !slices.Contains(i.Waivers, v) {
			w.add("injection.waiver", fmt.Sprintf("%s/%s rule %s added", v.Server, v.Tool, v.Rule), "a rule is silenced")
		}
	}
	for _, t := range []struct {
		key      string
		old, new float64
	}{
		{"injection.thresholds.flag", i.Thresholds.Flag, j.Thresholds.Flag},
		{"injection.thresholds.redact", i.Thresholds.Redact, j.Thresholds.Redact},
		{"injection.thresholds.block", i.Thresholds.Block, j.Thresholds.Block},
	} {
		if t.new > t.old {
			w.add(t.key, fmt.Sprintf("%v → %v", t.old, t.new), "higher scores pass")
		}
	}
	return w
}

type weakenings []string

// rest notes, for an exporter on before and after (a struct of config
// values), each setting under prefix that changed and was not noted
// already: a number or a time made smaller, anything else changed at all.
// A receiver knows its clients by address, protocol, headers and
// certificates, and a sender given less room or time loses records: a
// setting added later is covered before anyone lists it (red teams
// RT7-9, RT8-10 found one list after another incomplete).
func (w *weakenings) rest(prefix string, old, new any) {
	a, b := reflect.ValueOf(old), reflect.ValueOf(new)
	for k := range a.NumField() {
		key, _, _ := strings.Cut(a.Type().Field(k).Tag.Get("toml"), ",")
		if key == "" || key == "enabled" || slices.ContainsFunc(*w, func(s string) bool { return strings.HasPrefix(s, prefix+key+":") }) {
			continue
		}
		x, y := a.Field(k).Interface(), b.Field(k).Interface()
		switch x := x.(type) {
		case int:
			w.less(prefix+key, x, y.(int), "less room for records, and more lost")
		case Duration:
			w.shorter(prefix+key, x, y.(Duration), "less time to send records, and more lost")
		default:
			if !reflect.DeepEqual(x, y) {
				w.add(prefix+key, fmt.Sprintf("%v → %v", x, y), "records may go elsewhere, or be refused")
			}
		}
	}
}

func (w *weakenings) add(key, change, why string) {
	*w = append(*w, fmt.Sprintf("%s: %s (%s)", key, change, why))
}

// rank notes a value that moves down order, weakest first. A value not
// in order (not validated) counts as the weakest.
func (w *weakenings) rank(key, old, new string, order []string, why string) {
	if slices.Index(order, new) < slices.Index(order, old) {
		w.add(key, fmt.Sprintf("%q → %q", old, new), why)
	}
}

func (w *weakenings) turnedOff(key string, old, new bool, why string) {
	if old && !new {
		w.add(key, fmt.Sprintf("%v → %v", old, new), why)
	}
}

func (w *weakenings) less(key string, old, new int, why string) {
	if new < old {
		w.add(key, fmt.Sprintf("%d → %d", old, new), why)
	}
}

func (w *weakenings) shorter(key string, old, new Duration, why string) {
	if new.Duration < old.Duration {
		w.add(key, fmt.Sprintf("%s → %s", old.Duration, new.Duration), why)
	}
}

func (w *weakenings) longer(key string, old, new Duration, why string) {
	if new.Duration > old.Duration {
		w.add(key, fmt.Sprintf("%s → %s", old.Duration, new.Duration), why)
	}
}

// class notes a classification that trusts more. A server or tool
// classed internal is trusted as a destination; one classed external
// is not protected as a source. had says whether there was an old class.
func (w *weakenings) class(key, old, new string, had bool) {
	if new == old || new != ClassInternal && new != ClassExternal {
		return
	}
	why := "data sent to it is trusted to stay inside"
	if new == ClassExternal {
		why = "data read from it is no longer protected"
	}
	change := "set to " + strconv.Quote(new)
	if had {
		change = fmt.Sprintf("%q → %q", old, new)
	}
	w.add(key, change, why)
}

// union is the sorted keys of a and b.
func union(a, b map[string]string) []string {
	keys := append(sortedKeys(a), sortedKeys(b)...)
	slices.Sort(keys)
	return slices.Compact(keys)
}

// InForce reads the config flowd last put in force (paths.ConfigInForce
// in its data dir): the defaults when there is none or it cannot be
// read, so that deleting or damaging it compares an edited file with the
// defaults rather than letting it through.
func InForce(path string) (*Config, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	c, err := Load(path)
	if err != nil {
		return Default(), err
	}
	return c, nil
}
