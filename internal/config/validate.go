package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/attackprint"
)

var (
	logLevels    = []string{"debug", "info", "warn", "error"}
	failModes    = []string{FailOpen, FailClosed}
	actions      = []string{ActionAllow, ActionWarn, ActionAsk, ActionDeny}
	fallbacks    = []string{ActionWarn, ActionDeny}
	classes      = []string{ClassInternal, ClassExternal, ClassHybrid, ClassUnknown}
	taints       = []string{TaintRaise, TaintDeny}
	onIncomplete = []string{IncompletePass, IncompleteUntrusted, IncompleteFlag}
)

// MaxOriginsLimit is the largest flow.max_origins: what a session's
// fingerprint index can hold of each kind of source
// (fingerprint.LimitMaxOrigins, which a test holds equal).
const MaxOriginsLimit = 25_000

// fieldError is one invalid value, named by its key as written in the file.
type fieldError struct {
	key string
	msg string
}

func (f fieldError) String() string { return f.key + ": " + f.msg }

// Validate reports every invalid value in c, each named by its key.
func (c *Config) Validate() error {
	fails := c.validate()
	errs := make([]error, len(fails))
	for i, f := range fails {
		errs[i] = errors.New(f.String())
	}
	return errors.Join(errs...)
}

func (c *Config) validate() []fieldError {
	var v validator
	v.oneOf("daemon.log_level", c.Daemon.LogLevel, logLevels)

	v.oneOf("shim.fail_mode", c.Shim.FailMode, failModes)
	v.positiveDuration("shim.verdict_timeout", c.Shim.VerdictTimeout)
	v.positiveInt("shim.max_inspect_bytes", c.Shim.MaxInspectBytes)

	v.positiveDuration("activity.max_age", c.Activity.MaxAge)
	v.positiveInt("activity.max_records", c.Activity.MaxRecords)
	v.positiveInt("activity.max_notable_records", c.Activity.MaxNotable)
	v.positiveDuration("activity.flush_interval", c.Activity.FlushInterval)

	v.oneOf("policy.default_action", c.Policy.DefaultAction, actions)
	v.oneOf("policy.internal_to_external", c.Policy.InternalToExternal, actions)
	v.oneOf("policy.internal_to_unknown", c.Policy.InternalToUnknown, actions)
	v.oneOf("policy.sensitive_data_external", c.Policy.SensitiveDataExternal, actions)
	v.oneOf("policy.ask_fallback", c.Policy.AskFallback, fallbacks)
	v.oneOf("policy.codex_ask_fallback", c.Policy.CodexAskFallback, fallbacks)
	v.oneOf("policy.private_addresses", c.Policy.PrivateAddresses, actions)
	v.oneOf("policy.risky_commands", c.Policy.RiskyCommands, actions)
	v.oneOf("policy.read_then_send", c.Policy.ReadThenSend, actions)
	v.positiveDuration("policy.elicitation_timeout", c.Policy.ElicitationTimeout)
	for i, h := range c.Policy.SuspiciousEndpoints {
		if strings.TrimSpace(h) == "" || strings.ContainsAny(h, "/: ") {
			v.fail(fmt.Sprintf("policy.suspicious_endpoints[%d]", i), "%q is not a host name", h)
		}
	}
	v.toolMap([]string{"policy", "tool_overrides"}, c.Policy.ToolOverrides, actions)

	v.oneOf("classify.default_unknown", c.Classify.DefaultUnknown, classes)
	v.nameMap([]string{"classify", "servers"}, c.Classify.Servers, classes)
	v.toolMap([]string{"classify", "tools"}, c.Classify.Tools, classes)

	if n := c.Flow.MaxOrigins; n < 1 || n > MaxOriginsLimit {
		v.fail("flow.max_origins", "%d is out of range; want 1 to %d", n, MaxOriginsLimit)
	}
	v.positiveInt("flow.max_response_hash_bytes", c.Flow.MaxResponseHashBytes)
	v.positiveInt("flow.min_match_length", c.Flow.MinMatchLength)
	v.positiveDuration("flow.session_idle_timeout", c.Flow.SessionIdleTimeout)
	v.positiveInt("flow.max_memory_bytes", c.Flow.MaxMemoryBytes)
	v.positiveDuration("flow.check_budget", c.Flow.CheckBudget)
	v.positiveDuration("flow.wait_budget", c.Flow.WaitBudget)

	v.oneOf("ui.enabled", c.UI.Enabled, []string{UIAuto, UIOn, UIOff})
	if c.UI.Port < 0 || c.UI.Port > 65535 {
		v.fail("ui.port", "%d is not a TCP port (0 picks a free one)", c.UI.Port)
	}

	if x := c.Export.Syslog; x.Enabled {
		if _, _, err := net.SplitHostPort(x.Address); err != nil || x.Address == "" {
			v.fail("export.syslog.address", "%q is not host:port", x.Address)
		}
		v.oneOf("export.syslog.transport", x.Transport, []string{SyslogTCP, SyslogTLS, SyslogUDP})
		v.oneOf("export.syslog.format", x.Format, []string{SyslogRFC5424, SyslogCEF})
		if (x.CertFile == "") != (x.KeyFile == "") {
			v.fail("export.syslog.cert_file", "set cert_file and key_file together, or neither")
		}
		v.positiveInt("export.syslog.queue_limit", x.QueueLimit)
		v.positiveInt("export.syslog.spool_bytes", x.SpoolBytes)
		v.positiveDuration("export.syslog.drain_timeout", x.DrainTimeout)
	}

	if x := c.Export.OTLP; x.Enabled {
		if err := ValidOTLPEndpoint(x.Endpoint); err != nil {
			v.fail("export.otlp.endpoint", "%v", err)
		}
		v.oneOf("export.otlp.protocol", x.Protocol, []string{OTLPHTTP, OTLPGRPC})
		if (x.CertFile == "") != (x.KeyFile == "") {
			v.fail("export.otlp.cert_file", "set cert_file and key_file together, or neither")
		}
		v.positiveInt("export.otlp.queue_limit", x.QueueLimit)
		v.positiveInt("export.otlp.spool_bytes", x.SpoolBytes)
		v.positiveDuration("export.otlp.drain_timeout", x.DrainTimeout)
	}

	in := c.Injection
	v.positiveInt("injection.max_field_bytes", in.MaxFieldBytes)
	v.positiveInt("injection.max_message_bytes", in.MaxMessageBytes)
	v.positiveDuration("injection.time_budget", in.TimeBudget)
	v.oneOf("injection.taint_action", in.TaintAction, taints)
	v.oneOf("injection.on_incomplete", in.OnIncomplete, onIncomplete)
	for i, k := range in.KnownAttacks.TrustedKeys {
		if _, err := attackprint.ParsePublicKey(k); err != nil {
			v.fail(fmt.Sprintf("injection.known_attacks.trusted_keys[%d]", i), `want "ed25519:" and a 32-byte key in base64, as flowd fingerprints key prints it`)
		}
	}
	ka := in.KnownAttacks
	for i, f := range ka.Feeds {
		key := fmt.Sprintf("injection.known_attacks.feed[%d]", i)
		if u, err := url.Parse(f.URL); err != nil || (u.Scheme != "https" || u.Host == "") && (u.Scheme != "file" || u.Path == "") {
			v.fail(key+".url", "want an https:// or file:// address (plain http could be changed on the way; the signature would refuse it, but the feed would never arrive)")
		}
		if _, err := attackprint.ParsePublicKey(f.Key); err != nil {
			v.fail(key+".key", `want the publisher's key, "ed25519:" and a 32-byte key in base64, as flowd fingerprints key prints it`)
		}
	}
	if ka.FeedInterval.Duration < time.Second {
		v.fail("injection.known_attacks.feed_interval", "want 1s or more")
	}
	v.positiveDuration("injection.known_attacks.feed_timeout", ka.FeedTimeout)
	if ka.FeedMaxBytes <= 0 || ka.FeedMaxBytes > attackprint.MaxFeedBytes {
		v.fail("injection.known_attacks.feed_max_bytes", "want 1 to %d", attackprint.MaxFeedBytes)
	}
	for i, w := range in.Waivers {
		// A waiver names its server: one that silenced a rule everywhere
		// would switch the rule off rather than trust one source.
		if strings.TrimSpace(w.Server) == "" {
			v.fail(fmt.Sprintf("injection.waiver[%d].server", i), "want the server name whose content to trust")
		}
		if strings.TrimSpace(w.Rule) == "" {
			v.fail(fmt.Sprintf("injection.waiver[%d].rule", i), `want the rule to silence ("flowd explain ID" names it)`)
		}
	}
	if t := in.Thresholds; !(0 < t.Flag && t.Flag <= t.Redact && t.Redact <= t.Block && t.Block <= 1) {
		v.fail("injection.thresholds", "flag = %v, redact = %v, block = %v; want 0 < flag <= redact <= block <= 1",
			t.Flag, t.Redact, t.Block)
	}
	return v.fails
}

// toolMap checks a table keyed by a tool name or "server/tool".
func (v *validator) toolMap(path []string, m map[string]string, allowed []string) {
	for _, tool := range sortedKeys(m) {
		key := formatKey(append(path, tool))
		if tool == "" || strings.HasPrefix(tool, "/") || strings.HasSuffix(tool, "/") {
			v.fail(key, `want a tool name or "server/tool"`)
		}
		v.oneOf(key, m[tool], allowed)
	}
}

// nameMap checks a table keyed by a non-empty name.
func (v *validator) nameMap(path []string, m map[string]string, allowed []string) {
	for _, name := range sortedKeys(m) {
		key := formatKey(append(path, name))
		if strings.TrimSpace(name) == "" {
			v.fail(key, "want a server name")
		}
		v.oneOf(key, m[name], allowed)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type validator struct {
	fails []fieldError
}

func (v *validator) fail(key, format string, args ...any) {
	v.fails = append(v.fails, fieldError{key: key, msg: fmt.Sprintf(format, args...)})
}

func (v *validator) oneOf(key, got string, allowed []string) {
	if slices.Contains(allowed, got) {
		return
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	v.fail(key, "%q is not allowed; want one of %s", got, strings.Join(quoted, ", "))
}

func (v *validator) positiveInt(key string, got int) {
	if got <= 0 {
		v.fail(key, "%d is not allowed; want a positive number", got)
	}
}

func (v *validator) positiveDuration(key string, got Duration) {
	if got.Duration <= 0 {
		v.fail(key, "%s is not allowed; want a positive duration", got)
	}
}

// ValidOTLPEndpoint checks an [export.otlp] endpoint: an http:// or
// https:// URL with a host, and no credentials, query or fragment in it
// (credentials go in headers, which status does not print).
func ValidOTLPEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a URL: %w", endpoint, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q: want an http:// or https:// URL, e.g. https://collector.example.com:4318", endpoint)
	case u.Host == "":
		return fmt.Errorf("%q has no host", endpoint)
	case u.User != nil:
		return fmt.Errorf("%q holds credentials: put them in [export.otlp.headers]", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%q: a query or fragment has no place in an OTLP endpoint", endpoint)
	}
	return nil
}
