package config

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWeakened(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
		want   []string // a part of each weakening listed, in order; none: not weaker
	}{
		{"unchanged", func(*Config) {}, nil},
		{"fail open", func(c *Config) { c.Shim.FailMode = FailOpen }, nil}, // the default already
		{"fail closed", func(c *Config) { c.Shim.FailMode = FailClosed }, nil},
		{"secrets allowed", func(c *Config) { c.Policy.SensitiveDataExternal = ActionAllow }, []string{`policy.sensitive_data_external: "deny" → "allow"`}},
		{"internal data warned", func(c *Config) { c.Policy.InternalToExternal = ActionWarn }, []string{`policy.internal_to_external: "ask" → "warn"`}},
		{"internal data denied", func(c *Config) { c.Policy.InternalToExternal = ActionDeny }, nil},
		{"unknown allowed", func(c *Config) { c.Policy.InternalToUnknown = ActionAllow }, []string{"policy.internal_to_unknown"}},
		{"default warn", func(c *Config) { c.Policy.DefaultAction = ActionWarn }, nil},
		{"private addresses warned", func(c *Config) { c.Policy.PrivateAddresses = ActionWarn }, []string{`policy.private_addresses: "deny" → "warn"`}},
		{"risky commands allowed", func(c *Config) { c.Policy.RiskyCommands = ActionAllow }, []string{"policy.risky_commands"}},
		{"read then send allowed", func(c *Config) { c.Policy.ReadThenSend = ActionAllow }, []string{"policy.read_then_send"}},
		{"ask falls back to warn", func(c *Config) { c.Policy.AskFallback = ActionDeny }, nil},
		{"codex asks warned", func(c *Config) { c.Policy.CodexAskFallback = ActionWarn }, []string{`policy.codex_ask_fallback: "deny" → "warn"`}},
		{"no elicitation", func(c *Config) { c.Policy.AskWithElicitation = false }, []string{"policy.ask_with_elicitation"}},
		{"endpoint removed", func(c *Config) { c.Policy.SuspiciousEndpoints = c.Policy.SuspiciousEndpoints[1:] }, []string{`"webhook.site" removed`}},
		{"endpoint added", func(c *Config) { c.Policy.SuspiciousEndpoints = append(c.Policy.SuspiciousEndpoints, "evil.example") }, nil},
		{"override allow", func(c *Config) { c.Policy.ToolOverrides = map[string]string{"slack/post": "allow"} }, []string{`policy.tool_overrides."slack/post": added as "allow"`}},
		{"override deny", func(c *Config) { c.Policy.ToolOverrides = map[string]string{"slack/post": "deny"} }, nil},
		{"server internal", func(c *Config) { c.Classify.Servers = map[string]string{"mailer": "internal"} }, []string{`classify.servers.mailer: set to "internal"`}},
		{"server hybrid", func(c *Config) { c.Classify.Servers = map[string]string{"mailer": "hybrid"} }, nil},
		{"tool external", func(c *Config) { c.Classify.Tools = map[string]string{"db/query": "external"} }, []string{`classify.tools."db/query"`}},
		{"unknown internal", func(c *Config) { c.Classify.DefaultUnknown = ClassInternal }, []string{`classify.default_unknown: "unknown" → "internal"`}},
		{"fewer origins", func(c *Config) { c.Flow.MaxOrigins = 10 }, []string{"flow.max_origins: 10000 → 10"}},
		{"less inspected", func(c *Config) { c.Shim.MaxInspectBytes = 64 }, []string{"shim.max_inspect_bytes"}},
		{"more inspected", func(c *Config) { c.Shim.MaxInspectBytes *= 2 }, nil},
		{"verdict timeout shorter, open", func(c *Config) { c.Shim.VerdictTimeout.Duration = time.Millisecond }, []string{"shim.verdict_timeout"}},
		{"verdict timeout shorter, closed", func(c *Config) {
			c.Shim.FailMode, c.Shim.VerdictTimeout.Duration = FailClosed, time.Millisecond
		}, nil},
		{"more origins", func(c *Config) { c.Flow.MaxOrigins = 20000 }, nil},
		{"longer matches only", func(c *Config) { c.Flow.MinMatchLength = 200 }, []string{"flow.min_match_length: 20 → 200"}},
		{"scanning off", func(c *Config) { c.Injection.Enabled = false }, []string{"injection.enabled: true → false"}},
		{"known attacks off", func(c *Config) { c.Injection.KnownAttacks.Enabled = false }, []string{"injection.known_attacks.enabled: true → false"}},
		{"a feed signer trusted", func(c *Config) {
			c.Injection.KnownAttacks.TrustedKeys = []string{"ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}
		}, []string{"injection.known_attacks.trusted_keys"}},
		{"a feed added", func(c *Config) {
			c.Injection.KnownAttacks.Feeds = []Feed{{URL: "https://x.example/f", Key: "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}}
		}, []string{"injection.known_attacks.feed"}},
		{"shorter scan", func(c *Config) { c.Injection.TimeBudget = Duration{time.Millisecond} }, []string{"injection.time_budget: 100ms → 1ms"}},
		{"taint denies", func(c *Config) { c.Injection.TaintAction = TaintDeny }, nil},
		{"incomplete passes", func(c *Config) { c.Injection.OnIncomplete = IncompletePass }, []string{"injection.on_incomplete"}},
		{"no pinning", func(c *Config) { c.Injection.TrustOnFirstUse = false }, nil},
		{"waiver", func(c *Config) { c.Injection.Waivers = []Waiver{{Server: "web", Rule: "ignore-previous"}} }, []string{"injection.waiver: web/ rule ignore-previous added"}},
		{"block later", func(c *Config) { c.Injection.Thresholds.Block = 0.99 }, []string{"injection.thresholds.block: 0.85 → 0.99"}},
		{"quieter log", func(c *Config) { c.Daemon.LogLevel = "error" }, []string{`daemon.log_level: "info" → "error"`}},
		{"louder log", func(c *Config) { c.Daemon.LogLevel = "debug" }, nil},
		{"fewer records", func(c *Config) { c.Activity.MaxRecords = 10 }, []string{"activity.max_records: 100000 → 10"}},
		{"fewer notable records", func(c *Config) { c.Activity.MaxNotable = 10 }, []string{"activity.max_notable_records: 100000 → 10"}},
		{"records kept shorter", func(c *Config) { c.Activity.MaxAge = Duration{time.Hour} }, []string{"activity.max_age: 168h0m0s → 1h0m0s"}},
		{"several", func(c *Config) {
			c.Shim.FailMode = FailOpen
			c.Injection.Enabled = false
			c.Policy.SensitiveDataExternal = ActionWarn
		}, []string{"policy.sensitive_data_external", "injection.enabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, new := Default(), Default()
			tt.change(new)
			got := Weakened(old, new)
			assert.Len(t, got, len(tt.want), "%q", got)
			for i := range min(len(got), len(tt.want)) {
				assert.Contains(t, got[i], tt.want[i])
			}
		})
	}
}

// What was strict and is relaxed back to the default weakens too; the
// comparison is between the two configs, not with the defaults.
func TestWeakenedFromStricter(t *testing.T) {
	old, new := Default(), Default()
	old.Shim.FailMode = FailClosed
	old.Injection.TrustOnFirstUse = false
	old.Policy.ToolOverrides = map[string]string{"shell": "deny", "echo": "allow"}
	old.Classify.Servers = map[string]string{"mailer": "external"}
	got := strings.Join(Weakened(old, new), "\n")
	for _, want := range []string{`shim.fail_mode: "closed" → "open"`, "injection.trust_on_first_use: false → true",
		`policy.tool_overrides.shell: "deny" removed`, `classify.servers.mailer: "external" removed`} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "echo", "an allow override removed is stricter")
	// Back again: closing, pinning and the deny override tighten; the
	// allow override and the external class trust more.
	back := Weakened(new, old)
	assert.Len(t, back, 2, "%q", back)
	assert.Contains(t, strings.Join(back, "\n"), `policy.tool_overrides.echo: added as "allow"`)
	assert.Contains(t, strings.Join(back, "\n"), `classify.servers.mailer: set to "external"`)
}

// Export that is on is evidence leaving the machine: cutting it, or
// sending it elsewhere or less safely, waits for the passphrase; turning
// it on or making it safer does not.
func TestWeakenedExport(t *testing.T) {
	on := func(c *Config) {
		c.Export.Syslog.Enabled, c.Export.Syslog.Address = true, "siem.example:6514"
		c.Export.Syslog.Transport, c.Export.Syslog.CAFile = SyslogTLS, "/etc/flowd/siem-ca.pem"
		c.Export.OTLP.Enabled, c.Export.OTLP.Endpoint = true, "https://otel.example:4318"
	}
	tests := []struct {
		name   string
		change func(c *Config)
		want   []string
	}{
		{"unchanged", func(*Config) {}, nil},
		{"off", func(c *Config) { c.Export.Syslog.Enabled = false }, []string{"export.syslog.enabled: true → false"}},
		{"elsewhere", func(c *Config) { c.Export.Syslog.Address = "evil.example:514" }, []string{`export.syslog.address: "siem.example:6514" → "evil.example:514"`}},
		{"plain tcp", func(c *Config) { c.Export.Syslog.Transport = SyslogTCP }, []string{`export.syslog.transport: "tls" → "tcp"`}},
		{"another CA", func(c *Config) { c.Export.Syslog.CAFile = "/tmp/mine.pem" }, []string{"export.syslog.ca_file"}},
		{"smaller queue", func(c *Config) { c.Export.Syslog.QueueLimit = 10 }, []string{"export.syslog.queue_limit: 100000 → 10"}},
		{"cef", func(c *Config) { c.Export.Syslog.Format = SyslogCEF }, []string{`export.syslog.format: "rfc5424" → "cef"`}},
		{"another client certificate", func(c *Config) { c.Export.Syslog.CertFile, c.Export.Syslog.KeyFile = "/tmp/c.pem", "/tmp/k.pem" }, []string{"export.syslog.cert_file", "export.syslog.key_file"}},
		{"bigger queue", func(c *Config) { c.Export.Syslog.QueueLimit = 1_000_000 }, nil},
		{"otlp off", func(c *Config) { c.Export.OTLP.Enabled = false }, []string{"export.otlp.enabled: true → false"}},
		{"otlp plaintext", func(c *Config) { c.Export.OTLP.Endpoint = "http://otel.example:4318" }, []string{"export.otlp.endpoint"}},
		{"otlp smaller spool", func(c *Config) { c.Export.OTLP.SpoolBytes = 1 << 20 }, []string{"export.otlp.spool_bytes: 67108864 → 1048576"}},
		// A collector speaks one protocol and knows its clients by a
		// header or a certificate: a change may make it refuse every
		// record (found by a red team, RT7-9).
		{"otlp grpc", func(c *Config) { c.Export.OTLP.Protocol = OTLPGRPC }, []string{`export.otlp.protocol: "http" → "grpc"`}},
		{"otlp header", func(c *Config) { c.Export.OTLP.Headers = map[string]string{"Authorization": "Bearer x"} }, []string{"export.otlp.headers: changed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, new := Default(), Default()
			on(old)
			on(new)
			tt.change(new)
			got := Weakened(old, new)
			assert.Len(t, got, len(tt.want), "%q", got)
			for i := range min(len(got), len(tt.want)) {
				assert.Contains(t, got[i], tt.want[i])
			}
		})
	}
	// Turning export on, from the defaults, is not a weakening.
	old, new := Default(), Default()
	on(new)
	assert.Empty(t, Weakened(old, new))
}

// What other machines caught, and records written promptly, are
// protection too: dropping a feed or its signer, pulling it seldom, or
// writing records once a day waits for the passphrase (found by a red
// team, RT7-9: each was applied on a SIGHUP).
func TestWeakenedFeedsAndFlush(t *testing.T) {
	const key = "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	withFeed := func() *Config {
		c := Default()
		c.Injection.KnownAttacks.TrustedKeys = []string{key}
		c.Injection.KnownAttacks.Feeds = []Feed{{URL: "https://feeds.corp.example/prints", Key: key}}
		return c
	}
	for _, tt := range []struct {
		name   string
		change func(c *Config)
		want   string
	}{
		{"the feed dropped", func(c *Config) { c.Injection.KnownAttacks.Feeds = nil }, "injection.known_attacks.feed: https://feeds.corp.example/prints removed"},
		{"its signer dropped", func(c *Config) { c.Injection.KnownAttacks.TrustedKeys = nil }, "injection.known_attacks.trusted_keys"},
		{"pulled once a month", func(c *Config) { c.Injection.KnownAttacks.FeedInterval = Duration{720 * time.Hour} }, "injection.known_attacks.feed_interval"},
		{"records flushed once a day", func(c *Config) { c.Activity.FlushInterval = Duration{24 * time.Hour} }, "activity.flush_interval"},
		// RT8-10.
		{"a pull given up at once", func(c *Config) { c.Injection.KnownAttacks.FeedTimeout = Duration{time.Millisecond} }, "injection.known_attacks.feed_timeout"},
		{"every feed too large", func(c *Config) { c.Injection.KnownAttacks.FeedMaxBytes = 1024 }, "injection.known_attacks.feed_max_bytes"},
		{"the feed's CA replaced", func(c *Config) { c.Injection.KnownAttacks.Feeds[0].CAFile = "/tmp/mine.pem" }, "injection.known_attacks.feed: https://feeds.corp.example/prints changed"},
		{"export drained in 1 ms", func(c *Config) {
			c.Export.OTLP.Enabled, c.Export.OTLP.Endpoint, c.Export.OTLP.DrainTimeout = true, "https://otel.example:4318", Duration{time.Millisecond}
		}, "export.otlp.drain_timeout"},
	} {
		old, new := withFeed(), withFeed()
		old.Export.OTLP.Enabled, old.Export.OTLP.Endpoint = true, "https://otel.example:4318"
		tt.change(new)
		assert.Contains(t, strings.Join(Weakened(old, new), "\n"), tt.want, tt.name)
	}
	old, new := withFeed(), withFeed()
	new.Injection.KnownAttacks.FeedInterval = Duration{time.Minute}
	new.Activity.FlushInterval = Duration{time.Millisecond}
	assert.Empty(t, Weakened(old, new), "pulling and writing sooner is stricter")
}
