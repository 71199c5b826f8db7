package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every key of the schema has a managed rule: a key added later cannot
// slip past the managed policy unbounded.
func TestManagedRulesCoverEveryKey(t *testing.T) {
	keys := map[string]bool{}
	for _, l := range leaves() {
		keys[l.key] = true
		_, ok := managedRules[l.key]
		assert.True(t, ok, "no managed rule for %s: decide whether it is fixed or ordered (see managedRules)", l.key)
	}
	for k := range managedRules {
		assert.True(t, keys[k], "managed rule for %s, which is not a key", k)
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name          string
		managed, user string
		conflicts     []string // keys refused, in order
		check         func(t *testing.T, e *Effective)
	}{
		{name: "no managed file keeps the user's values",
			user: "[shim]\nfail_mode = \"closed\"\n",
			check: func(t *testing.T, e *Effective) {
				assert.Equal(t, FailClosed, e.Config.Shim.FailMode)
				assert.Equal(t, FromUser, e.Sources["shim.fail_mode"])
				assert.Equal(t, FromDefault, e.Sources["policy.default_action"])
			}},
		{name: "a managed key the user leaves out is the managed value",
			managed: "[shim]\nfail_mode = \"closed\"\n",
			check: func(t *testing.T, e *Effective) {
				assert.Equal(t, FailClosed, e.Config.Shim.FailMode)
				assert.Equal(t, FromManaged, e.Sources["shim.fail_mode"])
			}},
		{name: "fail_mode may not open", managed: "[shim]\nfail_mode = \"closed\"\n", user: "[shim]\nfail_mode = \"open\"\n",
			conflicts: []string{"shim.fail_mode"}},
		{name: "the same value is no conflict", managed: "[shim]\nfail_mode = \"closed\"\n", user: "[shim]\nfail_mode = \"closed\"\n",
			check: func(t *testing.T, e *Effective) { assert.Equal(t, FromManaged, e.Sources["shim.fail_mode"]) }},
		{name: "an action may be made stricter", managed: "[policy]\ninternal_to_external = \"warn\"\n", user: "[policy]\ninternal_to_external = \"deny\"\n",
			check: func(t *testing.T, e *Effective) {
				assert.Equal(t, ActionDeny, e.Config.Policy.InternalToExternal)
				assert.Equal(t, FromUser, e.Sources["policy.internal_to_external"])
			}},
		{name: "an action may not be made weaker", managed: "[policy]\nsensitive_data_external = \"ask\"\n", user: "[policy]\nsensitive_data_external = \"warn\"\n",
			conflicts: []string{"policy.sensitive_data_external"}},
		{name: "a weaker value than the default is the admin's to set", managed: "[policy]\ninternal_to_external = \"allow\"\n",
			check: func(t *testing.T, e *Effective) { assert.Equal(t, ActionAllow, e.Config.Policy.InternalToExternal) }},
		{name: "risky commands ranked", managed: "[policy]\nrisky_commands = \"deny\"\n", user: "[policy]\nrisky_commands = \"ask\"\n",
			conflicts: []string{"policy.risky_commands"}},
		{name: "fixed key may not change either way", managed: "[shim]\nverdict_timeout = \"5s\"\n", user: "[shim]\nverdict_timeout = \"1s\"\n",
			conflicts: []string{"shim.verdict_timeout"}},
		{name: "retention is fixed", managed: "[activity]\nmax_age = \"720h\"\n", user: "[activity]\nmax_age = \"8760h\"\n",
			conflicts: []string{"activity.max_age"}},
		{name: "scan budget may grow", managed: "[injection]\nmax_field_bytes = 1000\n", user: "[injection]\nmax_field_bytes = 2000\n",
			check: func(t *testing.T, e *Effective) { assert.Equal(t, 2000, e.Config.Injection.MaxFieldBytes) }},
		{name: "scan budget may not shrink", managed: "[injection]\ntime_budget = \"200ms\"\n", user: "[injection]\ntime_budget = \"10ms\"\n",
			conflicts: []string{"injection.time_budget"}},
		{name: "min match may shrink, not grow", managed: "[flow]\nmin_match_length = 20\n", user: "[flow]\nmin_match_length = 40\n",
			conflicts: []string{"flow.min_match_length"}},
		{name: "scanning may not be switched off", managed: "[injection]\nenabled = true\n", user: "[injection]\nenabled = false\n",
			conflicts: []string{"injection.enabled"}},
		{name: "pinning may only get stricter", managed: "[injection]\ntrust_on_first_use = false\n", user: "[injection]\ntrust_on_first_use = true\n",
			conflicts: []string{"injection.trust_on_first_use"}},
		{name: "thresholds may only go down", managed: "[injection.thresholds]\nblock = 0.8\n", user: "[injection.thresholds]\nblock = 0.9\n",
			conflicts: []string{"injection.thresholds.block"}},
		{name: "together the files must still be valid", managed: "[injection.thresholds]\nblock = 0.5\nredact = 0.4\n", user: "[injection.thresholds]\nflag = 0.45\n",
			conflicts: []string{"invalid"}},
		{name: "endpoints may be added", managed: "[policy]\nsuspicious_endpoints = [\"evil.example\"]\n", user: "[policy]\nsuspicious_endpoints = [\"evil.example\", \"bad.example\"]\n",
			check: func(t *testing.T, e *Effective) {
				assert.Equal(t, []string{"evil.example", "bad.example"}, e.Config.Policy.SuspiciousEndpoints)
			}},
		{name: "endpoints may not be dropped", managed: "[policy]\nsuspicious_endpoints = [\"evil.example\"]\n", user: "[policy]\nsuspicious_endpoints = [\"bad.example\"]\n",
			conflicts: []string{"policy.suspicious_endpoints"}},
		{name: "a managed override may be made stricter", managed: "[policy.tool_overrides]\n\"slack/post\" = \"ask\"\n", user: "[policy.tool_overrides]\n\"slack/post\" = \"deny\"\n",
			check: func(t *testing.T, e *Effective) {
				assert.Equal(t, ActionDeny, e.Config.Policy.ToolOverrides["slack/post"])
				assert.Equal(t, FromUser, e.Sources[`policy.tool_overrides."slack/post"`])
			}},
		{name: "a managed override the user leaves out stays", managed: "[policy.tool_overrides]\n\"slack/post\" = \"ask\"\n", user: "[policy.tool_overrides]\nrm = \"deny\"\n",
			check: func(t *testing.T, e *Effective) {
				assert.Equal(t, map[string]string{"slack/post": ActionAsk, "rm": ActionDeny}, e.Config.Policy.ToolOverrides)
				assert.Equal(t, FromManaged, e.Sources[`policy.tool_overrides."slack/post"`])
				assert.Equal(t, FromUser, e.Sources["policy.tool_overrides.rm"])
			}},
		{name: "a managed override may not be weakened", managed: "[policy.tool_overrides]\n\"slack/post\" = \"ask\"\n", user: "[policy.tool_overrides]\n\"slack/post\" = \"allow\"\n",
			conflicts: []string{`policy.tool_overrides."slack/post"`}},
		{name: "an allow override routes around a managed action", managed: "[policy]\nsensitive_data_external = \"deny\"\n", user: "[policy.tool_overrides]\nslack = \"allow\"\n",
			conflicts: []string{"policy.tool_overrides.slack"}},
		{name: "overrides are free when no decision key is managed", managed: "[shim]\nfail_mode = \"closed\"\n", user: "[policy.tool_overrides]\nslack = \"allow\"\n",
			check: func(t *testing.T, e *Effective) { assert.Equal(t, ActionAllow, e.Config.Policy.ToolOverrides["slack"]) }},
		{name: "classifying a destination internal routes around a managed action", managed: "[policy]\ninternal_to_external = \"deny\"\n",
			user:      "[classify.servers]\nslack = \"internal\"\n[classify]\ndefault_unknown = \"internal\"\n",
			conflicts: []string{"classify.default_unknown", "classify.servers.slack"}},
		{name: "classes are free when no decision key is managed", managed: "[injection]\nenabled = true\n", user: "[classify.servers]\nslack = \"internal\"\n",
			check: func(t *testing.T, e *Effective) { assert.Equal(t, ClassInternal, e.Config.Classify.Servers["slack"]) }},
		{name: "managed classes hold", managed: "[classify.servers]\nnotes = \"hybrid\"\n", user: "[classify.servers]\nnotes = \"internal\"\n",
			conflicts: []string{"classify.servers.notes"}},
		{name: "a waiver silences a managed scan", managed: "[injection]\ntaint_action = \"deny\"\n", user: "[[injection.waiver]]\nserver = \"web\"\nrule = \"x\"\n",
			conflicts: []string{"injection.waiver"}},
		{name: "a managed waiver may be dropped", managed: "[[injection.waiver]]\nserver = \"docs\"\nrule = \"shell-command\"\n", user: "[injection]\nwaiver = []\n",
			check: func(t *testing.T, e *Effective) {
				assert.Empty(t, e.Config.Injection.Waivers)
				assert.Equal(t, FromUser, e.Sources["injection.waiver"])
			}},
		{name: "an empty managed table fixes it empty", managed: "[policy.tool_overrides]\n", user: "[policy.tool_overrides]\nx = \"warn\"\n",
			conflicts: []string{"policy.tool_overrides.x"}},
		{name: "a section header alone manages nothing", managed: "[shim]\n", user: "[shim]\nfail_mode = \"open\"\n",
			check: func(t *testing.T, e *Effective) { assert.Equal(t, FromUser, e.Sources["shim.fail_mode"]) }},
		{name: "inline tables count", managed: "injection = {thresholds = {block = 0.7}}\n", user: "[injection.thresholds]\nblock = 0.75\n",
			conflicts: []string{"injection.thresholds.block"}},
		{name: "a managed feed list is pinned: no feed added", managed: managedFeed, user: managedFeed + "[[injection.known_attacks.feed]]\nurl = \"https://other.example/f\"\nkey = \"" + feedKey + "\"\n",
			conflicts: []string{"injection.known_attacks.feed"}},
		{name: "a managed feed list is pinned: none dropped", managed: managedFeed, user: "[injection.known_attacks]\nfeed = []\n",
			conflicts: []string{"injection.known_attacks.feed"}},
		{name: "a managed feed list holds for a user who says nothing of feeds", managed: managedFeed, user: "[injection.known_attacks]\nfeed_interval = \"5m\"\n",
			check: func(t *testing.T, e *Effective) {
				require.Len(t, e.Config.Injection.KnownAttacks.Feeds, 1)
				assert.Equal(t, "https://sec.example/attacks.feed", e.Config.Injection.KnownAttacks.Feeds[0].URL)
				assert.Equal(t, FromManaged, e.Sources["injection.known_attacks.feed"])
			}},
		{name: "the feed interval may not be made longer", managed: "[injection.known_attacks]\nfeed_interval = \"15m\"\n", user: "[injection.known_attacks]\nfeed_interval = \"24h\"\n",
			conflicts: []string{"injection.known_attacks.feed_interval"}},
		{name: "several, in schema order", managed: "[shim]\nfail_mode = \"closed\"\n[policy]\ndefault_action = \"ask\"\n",
			user: "[policy]\ndefault_action = \"warn\"\n[shim]\nfail_mode = \"open\"\n", conflicts: []string{"shim.fail_mode", "policy.default_action"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user, managed := Layer{Name: "/home/u/config.toml"}, Layer{Name: "/etc/flowd/managed.toml"}
			if tt.user != "" {
				user.Data = []byte(tt.user)
			}
			if tt.managed != "" {
				managed.Data = []byte(tt.managed)
			}
			e, err := Merge(user, managed)
			if len(tt.conflicts) == 1 && tt.conflicts[0] == "invalid" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "/home/u/config.toml together with the machine's managed policy /etc/flowd/managed.toml is invalid")
				return
			}
			var merr *ManagedError
			if len(tt.conflicts) > 0 {
				require.True(t, errors.As(err, &merr), "want a *ManagedError, got %v", err)
				var keys []string
				for _, c := range merr.Conflicts {
					keys = append(keys, c.Key)
				}
				assert.Equal(t, tt.conflicts, keys)
				for _, name := range []string{"/home/u/config.toml", "/etc/flowd/managed.toml"} {
					assert.Contains(t, err.Error(), name)
				}
				// What is returned with the error holds the managed values.
				require.NotNil(t, e)
				_, again := Merge(Layer{Name: "in force", Data: marshal(t, e.Config)}, managed)
				assert.NoError(t, again, "the clamped config must satisfy the managed policy")
				return
			}
			require.NoError(t, err)
			if tt.check != nil {
				tt.check(t, e)
			}
		})
	}
}

func TestManagedErrorNamesFilesLinesAndKey(t *testing.T) {
	_, err := Merge(Layer{Name: "user.toml", Data: []byte("# mine\n[shim]\nfail_mode = \"open\"\n")},
		Layer{Name: "managed.toml", Data: []byte("[shim]\n\nfail_mode = \"closed\"\n")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `user.toml:3: shim.fail_mode = 'open', but managed.toml:3 sets 'closed', and it may only be made stricter, in the order open < closed`)
}

func TestManagedInvalidIsTheAdministrators(t *testing.T) {
	_, err := Merge(Layer{Name: "user.toml"}, Layer{Name: "managed.toml", Data: []byte("[shim]\nfail_mode = \"ajar\"\n")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "managed policy is invalid")
	assert.Contains(t, err.Error(), "managed.toml:2")
}

func TestEffectiveWriteToIsAConfig(t *testing.T) {
	e, err := Merge(Layer{Name: "user.toml", Data: []byte("[policy.tool_overrides]\nrm = \"deny\"\n")},
		Layer{Name: "managed.toml", Data: []byte("[shim]\nfail_mode = \"closed\"\n")})
	require.NoError(t, err)
	var b strings.Builder
	_, err = e.WriteTo(&b)
	require.NoError(t, err)
	out := b.String()
	assert.Regexp(t, `(?m)^shim\.fail_mode = 'closed' +# managed file$`, out)
	assert.Regexp(t, `(?m)^policy\.tool_overrides\.rm = 'deny' +# user file$`, out)
	assert.Regexp(t, `(?m)^policy\.default_action = 'allow' +# default$`, out)
	// The output reads back as the same config.
	back, err := Parse([]byte(out), "effective")
	require.NoError(t, err)
	assert.Equal(t, e.Config, back)
}

func marshal(t *testing.T, c *Config) []byte {
	t.Helper()
	e := &Effective{Config: c, Sources: map[string]Source{}}
	var b strings.Builder
	_, err := e.WriteTo(&b)
	require.NoError(t, err)
	return []byte(b.String())
}

// feedKey is a well-formed publisher key (32 zero bytes).
const feedKey = "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

const managedFeed = "[[injection.known_attacks.feed]]\nurl = \"https://sec.example/attacks.feed\"\nkey = \"" + feedKey + "\"\n"

func TestEffectiveHidesExportHeaders(t *testing.T) {
	e, err := Merge(Layer{Name: "user.toml", Data: []byte("[export.otlp.headers]\nauthorization = \"Bearer sk-collector-123\"\n")}, Layer{Name: "managed.toml"})
	require.NoError(t, err)
	var b strings.Builder
	_, err = e.WriteTo(&b)
	require.NoError(t, err)
	assert.NotContains(t, b.String(), "sk-collector-123")
	assert.Regexp(t, `(?m)^export\.otlp\.headers\.authorization = "\(hidden\)" +# user file$`, b.String())
}

// The key settings are real keys, shown as their TOML values.
func TestKeySettings(t *testing.T) {
	c := Default()
	c.Shim.FailMode = "open"
	ks := c.KeySettings()
	assert.Len(t, ks, len(keySettings), "every key names a setting")
	assert.Equal(t, "'open'", ks["shim.fail_mode"])
	assert.Equal(t, "true", ks["injection.enabled"])
	assert.Contains(t, ks, "injection.thresholds.block")
}
