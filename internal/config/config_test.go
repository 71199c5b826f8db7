package config

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultIsTheEmbeddedFile(t *testing.T) {
	parsed, err := Parse(DefaultTOML(), "default.toml")
	require.NoError(t, err)
	assert.Equal(t, parsed, Default())

	want := &Config{
		Daemon: Daemon{LogLevel: "info"},
		Shim: Shim{
			FailMode:        FailOpen,
			VerdictTimeout:  Duration{5 * time.Second},
			MaxInspectBytes: 16 << 20,
		},
		Activity: Activity{
			MaxAge:        Duration{7 * 24 * time.Hour},
			MaxRecords:    100000,
			MaxNotable:    100000,
			FlushInterval: Duration{100 * time.Millisecond},
		},
		Policy: Policy{
			DefaultAction:         ActionAllow,
			InternalToExternal:    ActionAsk,
			InternalToUnknown:     ActionAsk,
			SensitiveDataExternal: ActionDeny,
			AskFallback:           ActionWarn,
			CodexAskFallback:      ActionDeny,
			PrivateAddresses:      ActionDeny,
			RiskyCommands:         ActionAsk,
			ReadThenSend:          ActionAsk,
			AskWithElicitation:    true,
			ElicitationTimeout:    Duration{2 * time.Minute},
			SuspiciousEndpoints:   []string{"webhook.site", "requestbin.com", "pipedream.net", "hookbin.com", "beeceptor.com"},
			ToolOverrides:         map[string]string{},
		},
		Classify: Classify{DefaultUnknown: ClassUnknown, Servers: map[string]string{}, Tools: map[string]string{}},
		Flow: Flow{
			MaxOrigins:           10000,
			MaxResponseHashBytes: 65536,
			MinMatchLength:       20,
			SessionIdleTimeout:   Duration{30 * time.Minute},
			MaxMemoryBytes:       256 << 20,
			CheckBudget:          Duration{2 * time.Second},
			WaitBudget:           Duration{30 * time.Second},
		},
		Injection: Injection{
			Enabled:         true,
			MaxFieldBytes:   50 << 10,
			MaxMessageBytes: 1 << 20,
			TimeBudget:      Duration{100 * time.Millisecond},
			TaintAction:     TaintRaise,
			OnIncomplete:    IncompleteUntrusted,
			TrustOnFirstUse: true,
			Waivers:         []Waiver{},
			Thresholds:      Thresholds{Flag: 0.30, Redact: 0.60, Block: 0.85},
			KnownAttacks: KnownAttacks{Enabled: true, TrustedKeys: []string{}, Feeds: []Feed{},
				FeedInterval: Duration{15 * time.Minute}, FeedTimeout: Duration{30 * time.Second}, FeedMaxBytes: 32 << 20},
		},
		UI: UI{Enabled: UIAuto, Metrics: true},
		Export: Export{Syslog: Syslog{Transport: SyslogTCP, Format: SyslogRFC5424, QueueLimit: 100_000, SpoolBytes: 64 << 20,
			DrainTimeout: Duration{5 * time.Second}},
			OTLP: OTLP{Protocol: OTLPHTTP, Headers: map[string]string{}, QueueLimit: 100_000, SpoolBytes: 64 << 20,
				DrainTimeout: Duration{5 * time.Second}}},
	}
	assert.Equal(t, want, Default())
	assert.NoError(t, Default().Validate())
}

func TestDefaultReturnsFreshValues(t *testing.T) {
	a := Default()
	a.Policy.ToolOverrides["x"] = ActionDeny
	a.Shim.FailMode = FailClosed
	assert.Empty(t, Default().Policy.ToolOverrides)
	assert.Equal(t, FailOpen, Default().Shim.FailMode)

	b := DefaultTOML()
	b[0] = 'X'
	assert.NotEqual(t, b[0], DefaultTOML()[0])
}

// Every key the Config struct has must appear in default.toml, so that
// "flowd config default" shows it, and carry a comment on its own line or
// the lines just above it.
func TestDefaultTOMLDocumentsEveryKey(t *testing.T) {
	idx, err := indexKeys(DefaultTOML())
	require.NoError(t, err)

	var walk func(prefix []string, typ reflect.Type)
	walk = func(prefix []string, typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			path := append(prefix[:len(prefix):len(prefix)], tomlName(f))
			_, ok := idx[formatKey(path)]
			assert.True(t, ok, "default.toml lacks key %s", formatKey(path))
			if f.Type.Kind() == reflect.Struct && f.Type != durationType {
				walk(path, f.Type)
			}
		}
	}
	walk(nil, configType)

	lines := strings.Split(string(DefaultTOML()), "\n")
	for key, k := range idx {
		line := lines[k.line-1]
		above := lines[k.line-2]
		commented := strings.Contains(line, "#") || strings.HasPrefix(above, "#")
		assert.True(t, commented, "default.toml:%d: key %s has no comment", k.line, key)
	}
}

func TestParseOverlayKeepsDefaults(t *testing.T) {
	cfg, err := Parse([]byte(`
[shim]
fail_mode = "closed"

[policy.tool_overrides]
"delete_file" = "deny"
"github/create_issue" = "ask"
`), "flowd.toml")
	require.NoError(t, err)

	want := Default()
	want.Shim.FailMode = FailClosed
	want.Policy.ToolOverrides = map[string]string{"delete_file": ActionDeny, "github/create_issue": ActionAsk}
	assert.Equal(t, want, cfg)
}

func TestParseInjectionWaivers(t *testing.T) {
	cfg, err := Parse([]byte(`
[injection]
taint_action = "deny"
on_incomplete = "flag"

[[injection.waiver]]
server = "docs"
rule = "shell-command"

[[injection.waiver]]
server = "web"
tool = "fetch"
rule = "output-directive"

[injection.thresholds]
block = 1
`), "flowd.toml")
	require.NoError(t, err)
	assert.Equal(t, []Waiver{{Server: "docs", Rule: "shell-command"}, {Server: "web", Tool: "fetch", Rule: "output-directive"}},
		cfg.Injection.Waivers)
	assert.Equal(t, TaintDeny, cfg.Injection.TaintAction)
	assert.Equal(t, IncompleteFlag, cfg.Injection.OnIncomplete)
	assert.Equal(t, Thresholds{Flag: 0.30, Redact: 0.60, Block: 1}, cfg.Injection.Thresholds)
	assert.Empty(t, Default().Injection.Waivers, "parsing must not add waivers to the defaults")
}

func TestParseInjectionErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"waiver without a server", "[[injection.waiver]]\nrule = \"a\"\n\n[[injection.waiver]]\nserver = \"s\"\n",
			[]string{"config f.toml:1: injection.waiver[0].server: want the server name",
				"config f.toml:4: injection.waiver[1].rule: want the rule"}},
		{"unknown waiver key", "[[injection.waiver]]\nserver = \"s\"\nrules = \"a\"\n",
			[]string{`config f.toml:3: unknown key "injection.waiver.rules"`}},
		{"waiver value of the wrong type", "[[injection.waiver]]\nserver = 1\nrule = \"a\"\n",
			[]string{"config f.toml:2: injection.waiver.server: want a string, got an integer"}},
		{"waiver as a string", "[injection]\nwaiver = \"docs\"\n",
			[]string{"config f.toml:2: injection.waiver: want an array of tables, got a string"}},
		{"thresholds out of order", "[injection.thresholds]\nflag = 0.9\n",
			[]string{"config f.toml:1: injection.thresholds: flag = 0.9, redact = 0.6, block = 0.85; want 0 < flag <= redact <= block <= 1"}},
		{"threshold as a string", "[injection.thresholds]\nflag = \"high\"\n",
			[]string{"config f.toml:2: injection.thresholds.flag: want a number, got a string"}},
		{"array of tables for a table", "[[shim]]\nfail_mode = \"open\"\n",
			[]string{"config f.toml:1: shim: want a table, got an array of tables"}},
		{"bad taint action", "[injection]\ntaint_action = \"ask\"\n",
			[]string{`config f.toml:2: injection.taint_action: "ask" is not allowed; want one of "raise", "deny"`}},
		{"bad on_incomplete", "[injection]\nenabled = true\non_incomplete = \"block\"\n",
			[]string{`config f.toml:3: injection.on_incomplete: "block" is not allowed; want one of "pass", "untrusted", "flag"`}},
		{"on_incomplete of the wrong type", "[injection]\non_incomplete = true\n",
			[]string{"config f.toml:2: injection.on_incomplete: want a string, got a boolean"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc), "f.toml")
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestParseEmptyFileIsDefault(t *testing.T) {
	cfg, err := Parse(nil, "empty.toml")
	require.NoError(t, err)
	assert.Equal(t, Default(), cfg)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // each must appear in the error
	}{
		{
			name: "unknown key in a section",
			doc:  "[shim]\nfail_mode = \"open\"\nfail_mod = \"closed\"\n",
			want: []string{`config /x/flowd.toml:3: unknown key "shim.fail_mod"`, "known keys in [shim]: fail_mode"},
		},
		{
			name: "unknown section",
			doc:  "[daemon]\nlog_level = \"info\"\n\n[shimm]\nfail_mode = \"open\"\n",
			want: []string{`config /x/flowd.toml:4: unknown key "shimm"`, "known keys at the top level: daemon, shim"},
		},
		{
			name: "unknown dotted key",
			doc:  "activity.max_rows = 3\n",
			want: []string{`config /x/flowd.toml:1: unknown key "activity.max_rows"`},
		},
		{
			name: "string for an integer",
			doc:  "[activity]\n\nmax_records = \"lots\"\n",
			want: []string{"config /x/flowd.toml:3: activity.max_records: want an integer, got a string"},
		},
		{
			name: "number for a duration",
			doc:  "[shim]\nverdict_timeout = 5\n",
			want: []string{`config /x/flowd.toml:2: shim.verdict_timeout: want a duration string such as "5s"`, "got an integer"},
		},
		{
			name: "scalar for a section",
			doc:  "policy = \"deny\"\n",
			want: []string{"config /x/flowd.toml:1: policy: want a table, got a string"},
		},
		{
			name: "days in a duration",
			doc:  "[activity]\nmax_age = \"7d\"\n",
			want: []string{"config /x/flowd.toml:2: activity.max_age:", `"7d" is not a duration`, `"168h" is 7 days`},
		},
		{
			name: "duration without unit",
			doc:  "[activity]\nflush_interval = \"100\"\n",
			want: []string{"config /x/flowd.toml:2: activity.flush_interval:", `"100" is not a duration`},
		},
		{
			name: "bad fail_mode",
			doc:  "[shim]\n\n\nfail_mode = \"sometimes\"\n",
			want: []string{`config /x/flowd.toml:4: shim.fail_mode: "sometimes" is not allowed; want one of "open", "closed"`},
		},
		{
			name: "bad default action",
			doc:  "[policy]\ndefault_action = \"block\"\n",
			want: []string{`config /x/flowd.toml:2: policy.default_action: "block" is not allowed; want one of "allow", "warn", "ask", "deny"`},
		},
		{
			name: "bad override action",
			doc:  "[policy.tool_overrides]\n\"github/create_issue\" = \"nope\"\n",
			want: []string{`config /x/flowd.toml:2: policy.tool_overrides."github/create_issue": "nope" is not allowed`},
		},
		{
			name: "bad override key in an inline table",
			doc:  "[policy]\ntool_overrides = { \"/x\" = \"deny\" }\n",
			want: []string{`config /x/flowd.toml:2: policy.tool_overrides."/x": want a tool name or "server/tool"`},
		},
		{
			name: "bad log level",
			doc:  "daemon.log_level = \"loud\"\n",
			want: []string{`config /x/flowd.toml:1: daemon.log_level: "loud" is not allowed`},
		},
		{
			name: "zero size",
			doc:  "[shim]\nmax_inspect_bytes = 0\n",
			want: []string{"config /x/flowd.toml:2: shim.max_inspect_bytes: 0 is not allowed; want a positive number"},
		},
		{
			// Past what a session's index holds, flowd would fail at the
			// first session instead of at load.
			name: "too many origins",
			doc:  "[flow]\nmax_origins = 50000\n",
			want: []string{"config /x/flowd.toml:2: flow.max_origins: 50000 is out of range; want 1 to 25000"},
		},
		{
			name: "negative duration",
			doc:  "[shim]\nverdict_timeout = \"-1s\"\n",
			want: []string{"config /x/flowd.toml:2: shim.verdict_timeout: -1s is not allowed; want a positive duration"},
		},
		{
			name: "integer overflow",
			doc:  "[shim]\nmax_inspect_bytes = 99999999999999999999\n",
			want: []string{"config /x/flowd.toml:2: shim.max_inspect_bytes: decimal number is too large"},
		},
		{
			name: "syntax error",
			doc:  "[shim]\nfail_mode = \"open\"\nverdict_timeout =\n",
			want: []string{"config /x/flowd.toml:3: "},
		},
		{
			name: "unterminated table header",
			doc:  "[daemon]\nlog_level = \"info\"\n[shim\n",
			want: []string{"config /x/flowd.toml:3: "},
		},
		{
			name: "duplicate key",
			doc:  "[shim]\nfail_mode = \"open\"\nfail_mode = \"closed\"\n",
			want: []string{"config /x/flowd.toml:3: ", "fail_mode"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.doc), "/x/flowd.toml")
			require.Error(t, err)
			assert.Nil(t, cfg)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestParseReportsEveryProblemInFileOrder(t *testing.T) {
	_, err := Parse([]byte(`
[policy.tool_overrides]
"b" = "maybe"
"a" = "perhaps"
[shim]
fail_mode = "sometimes"
max_inspect_bytes = -1
`), "f.toml")
	require.Error(t, err)
	assert.Equal(t, strings.Join([]string{
		`config f.toml:3: policy.tool_overrides.b: "maybe" is not allowed; want one of "allow", "warn", "ask", "deny"`,
		`config f.toml:4: policy.tool_overrides.a: "perhaps" is not allowed; want one of "allow", "warn", "ask", "deny"`,
		`config f.toml:6: shim.fail_mode: "sometimes" is not allowed; want one of "open", "closed"`,
		`config f.toml:7: shim.max_inspect_bytes: -1 is not allowed; want a positive number`,
	}, "\n"), err.Error())
}

func TestValidateNamesTheKey(t *testing.T) {
	cfg := Default()
	cfg.Activity.FlushInterval = Duration{}
	cfg.Policy.ToolOverrides["server/tool"] = "DENY"
	err := cfg.Validate()
	require.Error(t, err)
	assert.Equal(t, "activity.flush_interval: 0s is not allowed; want a positive duration\n"+
		`policy.tool_overrides."server/tool": "DENY" is not allowed; want one of "allow", "warn", "ask", "deny"`, err.Error())
}

func TestValidateFeeds(t *testing.T) {
	const key = "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	for _, c := range []struct {
		feed Feed
		bad  string
	}{
		{Feed{URL: "https://sec.example/attacks.feed", Key: key}, ""},
		{Feed{URL: "file:///srv/feeds/attacks.feed", Key: key}, ""},
		{Feed{URL: "http://sec.example/attacks.feed", Key: key}, "injection.known_attacks.feed[0].url"},
		{Feed{URL: "sec.example/attacks.feed", Key: key}, "injection.known_attacks.feed[0].url"},
		{Feed{URL: "https://sec.example/attacks.feed", Key: "ed25519:short"}, "injection.known_attacks.feed[0].key"},
	} {
		cfg := Default()
		cfg.Injection.KnownAttacks.Feeds = []Feed{c.feed}
		err := cfg.Validate()
		if c.bad == "" {
			assert.NoError(t, err, c.feed.URL)
		} else {
			assert.ErrorContains(t, err, c.bad, c.feed.URL)
		}
	}
	cfg := Default()
	cfg.Injection.KnownAttacks.FeedInterval = Duration{time.Millisecond}
	assert.ErrorContains(t, cfg.Validate(), "injection.known_attacks.feed_interval")
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()

	_, err := Load(filepath.Join(dir, "missing.toml"))
	require.ErrorIs(t, err, fs.ErrNotExist)

	good := filepath.Join(dir, "good.toml")
	require.NoError(t, os.WriteFile(good, []byte("[activity]\nmax_records = 10\n"), 0o600))
	cfg, err := Load(good)
	require.NoError(t, err)
	assert.Equal(t, 10, cfg.Activity.MaxRecords)

	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("[activity]\nmax_record = 10\n"), 0o600))
	_, err = Load(bad)
	assert.ErrorContains(t, err, "config "+bad+`:2: unknown key "activity.max_record"`)
}

func TestDurationRoundTrip(t *testing.T) {
	for _, d := range []time.Duration{time.Nanosecond, 100 * time.Millisecond, 5 * time.Second, 90 * time.Minute, 168 * time.Hour, 0, -time.Second} {
		text, err := Duration{d}.MarshalText()
		require.NoError(t, err)
		var back Duration
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, d, back.Duration, "via %q", text)
	}

	// Through the TOML encoder and decoder, as a config file would.
	type doc struct {
		D Duration `toml:"d"`
	}
	in := doc{Duration{36 * time.Hour}}
	data, err := toml.Marshal(in)
	require.NoError(t, err)
	assert.Equal(t, "d = '36h0m0s'\n", string(data))
	var out doc
	require.NoError(t, toml.Unmarshal(data, &out))
	assert.Equal(t, in, out)
}

func TestDurationRejects(t *testing.T) {
	for _, text := range []string{"", "5", "7d", "1 h", "fast"} {
		var d Duration
		assert.Error(t, d.UnmarshalText([]byte(text)), "%q", text)
	}
}

// Whatever the bytes, Parse must not panic, and a config it accepts must be
// valid.
func FuzzParse(f *testing.F) {
	f.Add(DefaultTOML())
	f.Add([]byte("[policy]\ntool_overrides = { a = \"deny\", b = { c = 1 } }\n"))
	f.Add([]byte("[[shim]]\nx = [1, 2]\n"))
	f.Add([]byte("a.b.c = 1\n[shim.verdict_timeout]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "fuzz.toml")
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "config fuzz.toml"), "error lacks the file name: %v", err)
			return
		}
		assert.NoError(t, cfg.Validate())
	})
}

// The default file must stay readable in a terminal.
func TestDefaultTOMLLineLength(t *testing.T) {
	sc := bufio.NewScanner(bytes.NewReader(DefaultTOML()))
	for n := 1; sc.Scan(); n++ {
		assert.LessOrEqual(t, len(sc.Text()), 80, "default.toml:%d is too long", n)
	}
}

func TestOTLPEndpoint(t *testing.T) {
	for _, ok := range []string{"https://otel.example:4318", "http://127.0.0.1:4317", "https://otel.example/otlp"} {
		assert.NoError(t, ValidOTLPEndpoint(ok), ok)
	}
	for _, bad := range []string{"", "otel.example:4318", "ftp://otel.example", "https://user:pw@otel.example", "https://otel.example?x=1", "https://"} {
		assert.Error(t, ValidOTLPEndpoint(bad), bad)
	}
	c := Default()
	c.Export.OTLP.Enabled = true
	assert.ErrorContains(t, c.Validate(), "export.otlp.endpoint")
}
