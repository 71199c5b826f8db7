package config

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"

	toml "github.com/pelletier/go-toml/v2"
)

// defaultTOML is the single source of the defaults: Default parses it, and
// "flowd config default" prints it, so the two cannot drift apart.
//
//go:embed default.toml
var defaultTOML []byte

// Config is the whole configuration file. Each section is its own type so a
// new section is one field here, one table in default.toml and one case in
// Validate.
type Config struct {
	Daemon    Daemon    `toml:"daemon"`
	Shim      Shim      `toml:"shim"`
	Activity  Activity  `toml:"activity"`
	Policy    Policy    `toml:"policy"`
	Classify  Classify  `toml:"classify"`
	Flow      Flow      `toml:"flow"`
	Injection Injection `toml:"injection"`
	UI        UI        `toml:"ui"`
	Export    Export    `toml:"export"`
}

// Export configures sending every activity record off the machine.
type Export struct {
	Syslog Syslog `toml:"syslog"`
	OTLP   OTLP   `toml:"otlp"`
}

// OTLP sends each activity record as an OpenTelemetry log record to a
// collector (internal/otlpexport).
type OTLP struct {
	Enabled bool `toml:"enabled"`
	// Endpoint is the collector's base URL: http:// is plaintext,
	// https:// TLS, for either protocol.
	Endpoint string `toml:"endpoint"`
	Protocol string `toml:"protocol"` // http or grpc
	// Headers go with every export (HTTP headers, gRPC metadata), e.g.
	// an API key.
	Headers map[string]string `toml:"headers"`
	// CAFile verifies the collector's certificate (https); empty: the
	// system's roots. CertFile and KeyFile, both or neither, are a client
	// certificate.
	CAFile   string `toml:"ca_file"`
	CertFile string `toml:"cert_file"`
	KeyFile  string `toml:"key_file"`
	// QueueLimit is how many records wait in memory for the collector.
	QueueLimit int `toml:"queue_limit"`
	// SpoolBytes bounds the records kept on disk while the collector is
	// away; past it the oldest are dropped (and counted).
	SpoolBytes int `toml:"spool_bytes"`
	// DrainTimeout is how long a stopping flowd keeps sending; what is
	// left then waits in the spool for the next start.
	DrainTimeout Duration `toml:"drain_timeout"`
}

// OTLP protocols.
const (
	OTLPHTTP = "http"
	OTLPGRPC = "grpc"
)

// Syslog sends each activity record to a syslog receiver or SIEM
// (internal/syslogexport).
type Syslog struct {
	Enabled bool `toml:"enabled"`
	// Address is host:port of the receiver.
	Address   string `toml:"address"`
	Transport string `toml:"transport"` // tcp, tls or udp
	Format    string `toml:"format"`    // rfc5424 or cef
	// CAFile verifies the receiver's certificate (tls); empty: the
	// system's roots. CertFile and KeyFile, both or neither, are the
	// client certificate a receiver may ask for.
	CAFile   string `toml:"ca_file"`
	CertFile string `toml:"cert_file"`
	KeyFile  string `toml:"key_file"`
	// QueueLimit is how many records wait in memory for the receiver.
	QueueLimit int `toml:"queue_limit"`
	// SpoolBytes bounds the records kept on disk while the receiver is
	// away; past it the oldest are dropped (and counted).
	SpoolBytes int `toml:"spool_bytes"`
	// DrainTimeout is how long a stopping flowd keeps sending; what is
	// left then waits in the spool for the next start.
	DrainTimeout Duration `toml:"drain_timeout"`
}

// Syslog transports and formats.
const (
	SyslogTCP     = "tcp"
	SyslogTLS     = "tls"
	SyslogUDP     = "udp"
	SyslogRFC5424 = "rfc5424"
	SyslogCEF     = "cef"
)

// UI configures the dashboard's loopback listener (flowd ui).
type UI struct {
	// Enabled is "auto" (on for a user's flowd, off for a system flowd),
	// "on" or "off".
	Enabled string `toml:"enabled"`
	// Port on 127.0.0.1; 0 picks a free one at each start.
	Port int `toml:"port"`
	// Metrics serves GET /metrics on the listener without a login.
	Metrics bool `toml:"metrics"`
}

// UI.Enabled values.
const (
	UIAuto = "auto"
	UIOn   = "on"
	UIOff  = "off"
)

// On says whether the dashboard listens, for a system flowd or a user's.
func (u UI) On(system bool) bool {
	return u.Enabled == UIOn || u.Enabled == UIAuto && !system
}

// Daemon configures the flowd process itself.
type Daemon struct {
	LogLevel string `toml:"log_level"`
}

// Shim configures every shim that talks to this flowd.
type Shim struct {
	FailMode        string   `toml:"fail_mode"`
	VerdictTimeout  Duration `toml:"verdict_timeout"`
	MaxInspectBytes int      `toml:"max_inspect_bytes"`
}

// Activity configures retention of the activity log.
type Activity struct {
	MaxAge        Duration `toml:"max_age"`
	MaxRecords    int      `toml:"max_records"`
	MaxNotable    int      `toml:"max_notable_records"`
	FlushInterval Duration `toml:"flush_interval"`
}

// Policy configures decisions.
type Policy struct {
	DefaultAction         string   `toml:"default_action"`
	InternalToExternal    string   `toml:"internal_to_external"`
	InternalToUnknown     string   `toml:"internal_to_unknown"`
	SensitiveDataExternal string   `toml:"sensitive_data_external"`
	AskFallback           string   `toml:"ask_fallback"`
	CodexAskFallback      string   `toml:"codex_ask_fallback"`
	PrivateAddresses      string   `toml:"private_addresses"`
	RiskyCommands         string   `toml:"risky_commands"`
	ReadThenSend          string   `toml:"read_then_send"`
	AskWithElicitation    bool     `toml:"ask_with_elicitation"`
	ElicitationTimeout    Duration `toml:"elicitation_timeout"`
	RequireJustification  bool     `toml:"require_justification"`
	SuspiciousEndpoints   []string `toml:"suspicious_endpoints"`
	// ToolOverrides maps a tool name, or "server/tool", to an action.
	ToolOverrides map[string]string `toml:"tool_overrides"`
}

// Classify configures how servers and tools are classified.
type Classify struct {
	DefaultUnknown string            `toml:"default_unknown"`
	Servers        map[string]string `toml:"servers"`
	Tools          map[string]string `toml:"tools"`
}

// Flow configures the tracking of data between tools.
type Flow struct {
	MaxOrigins           int      `toml:"max_origins"`
	MaxResponseHashBytes int      `toml:"max_response_hash_bytes"`
	MinMatchLength       int      `toml:"min_match_length"`
	SessionIdleTimeout   Duration `toml:"session_idle_timeout"`
	MaxMemoryBytes       int      `toml:"max_memory_bytes"`
	CheckBudget          Duration `toml:"check_budget"`
	WaitBudget           Duration `toml:"wait_budget"`
}

// Injection configures prompt-injection scanning of tool output, the
// quarantine of what is blocked, and the pinning of tool definitions.
type Injection struct {
	Enabled         bool         `toml:"enabled"`
	MaxFieldBytes   int          `toml:"max_field_bytes"`
	MaxMessageBytes int          `toml:"max_message_bytes"`
	TimeBudget      Duration     `toml:"time_budget"`
	TaintAction     string       `toml:"taint_action"`
	OnIncomplete    string       `toml:"on_incomplete"`
	TrustOnFirstUse bool         `toml:"trust_on_first_use"`
	Waivers         []Waiver     `toml:"waiver"`
	Thresholds      Thresholds   `toml:"thresholds"`
	KnownAttacks    KnownAttacks `toml:"known_attacks"`
}

// KnownAttacks configures the prints flowd keeps of the attacks it caught
// (internal/attackprint): a result that repeats one is that attack again.
type KnownAttacks struct {
	Enabled bool `toml:"enabled"`
	// TrustedKeys are the feed signers ("ed25519:<base64>") whose feeds
	// flowd fingerprints import accepts.
	TrustedKeys []string `toml:"trusted_keys"`
	// Feeds are pulled on a schedule (internal/attackfeed), each trusted
	// for its own key only.
	Feeds []Feed `toml:"feed"`
	// FeedInterval is the time between two pulls of a feed (a tenth
	// either way at random, so that a fleet does not pull at once);
	// FeedTimeout bounds one pull; FeedMaxBytes the size of a feed.
	FeedInterval Duration `toml:"feed_interval"`
	FeedTimeout  Duration `toml:"feed_timeout"`
	FeedMaxBytes int      `toml:"feed_max_bytes"`
}

// Feed is a published feed of attack prints: where it is and who signs it.
type Feed struct {
	URL string `toml:"url"` // https:// or file://
	Key string `toml:"key"` // its publisher, "ed25519:<base64>"
	// CAFile: a PEM bundle that the https server's certificate must chain
	// to, for a publisher inside the company; "" for the system's roots.
	CAFile string `toml:"ca_file"`
}

// Thresholds map an injection score in [0, 1] to an action.
type Thresholds struct {
	Flag   float64 `toml:"flag"`
	Redact float64 `toml:"redact"`
	Block  float64 `toml:"block"`
}

// Waiver silences one injection rule for one server (and optionally one
// of its tools): content the user has decided to trust.
type Waiver struct {
	Server string `toml:"server"`
	Tool   string `toml:"tool"`
	Rule   string `toml:"rule"`
}

// Values allowed for the enumerated keys. Validate and the comments in
// default.toml both list them; keep them in step.
const (
	FailOpen   = "open"
	FailClosed = "closed"

	ActionAllow = "allow"
	ActionWarn  = "warn"
	ActionAsk   = "ask"
	ActionDeny  = "deny"

	ClassInternal = "internal"
	ClassExternal = "external"
	ClassHybrid   = "hybrid"
	ClassUnknown  = "unknown"

	// TaintRaise raises the action for internal data leaving a tainted
	// session one level (ask becomes deny); TaintDeny denies it.
	TaintRaise = "raise"
	TaintDeny  = "deny"

	// IncompletePass lets a result whose scan a bound cut short keep the
	// verdict on the part scanned; IncompleteFlag flags it when that
	// verdict is pass; IncompleteUntrusted flags it only when its source
	// may be external.
	IncompletePass      = "pass"
	IncompleteFlag      = "flag"
	IncompleteUntrusted = "untrusted"
)

// DefaultTOML returns the commented default configuration file, byte for byte.
func DefaultTOML() []byte {
	return bytes.Clone(defaultTOML)
}

// Default returns the default configuration: default.toml, parsed. Each call
// returns a fresh value that the caller may modify.
func Default() *Config {
	// An empty table decodes to a nil map; start with an empty one so callers
	// can add entries.
	cfg := &Config{Policy: Policy{ToolOverrides: map[string]string{}},
		Classify: Classify{Servers: map[string]string{}, Tools: map[string]string{}},
		Export:   Export{OTLP: OTLP{Headers: map[string]string{}}}}
	if err := overlay(cfg, defaultTOML, "default.toml"); err != nil {
		// The embedded file is fixed at build time and covered by tests.
		panic(fmt.Sprintf("embedded default config is invalid: %v", err))
	}
	return cfg
}

// Load reads the configuration file at path. Keys it leaves out keep their
// defaults. A missing file is an error wrapping fs.ErrNotExist: whether that
// means "use the defaults" is the caller's decision.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(data, path)
}

// Parse parses a configuration file's contents over the defaults and
// validates the result. name is the file name used in error messages.
func Parse(data []byte, name string) (*Config, error) {
	cfg := Default()
	if err := overlay(cfg, data, name); err != nil {
		return nil, err
	}
	return cfg, nil
}

// overlay decodes data into cfg, which keeps every value data does not set,
// then validates cfg. Errors carry name and, where known, the line.
func overlay(cfg *Config, data []byte, name string) error {
	// Keys are indexed and type-checked before decoding because go-toml
	// cannot say where a number given for a duration is. A syntax error
	// leaves the index nil; the decoder then reports it with its position.
	idx, _ := indexKeys(data)
	if err := checkKinds(idx, name); err != nil {
		return err
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(cfg); err != nil {
		return decodeError(err, name)
	}
	return locate(cfg.validate(), idx, name)
}
