package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// A machine's managed policy is a config file an administrator owns
// (package managed finds and trusts it). It is read over the defaults
// like the user's file; each key it sets then bounds the user's: a key
// with an order of strictness may only be made stricter, any other is
// fixed. Merge applies the bounds; managedRules says, per key, which.

// Source is where a value in force came from.
type Source string

// The sources of a value, as `flowd config show --effective` prints them.
const (
	FromDefault Source = "default"
	FromUser    Source = "user file"
	FromManaged Source = "managed file"
)

// Layer is one config file: its name for messages and its contents;
// nil Data means there is no such file.
type Layer struct {
	Name string
	Data []byte
}

// Effective is the config in force and where each value came from.
type Effective struct {
	Config *Config
	// Sources maps each key as written in a file ("shim.fail_mode",
	// `policy.tool_overrides."github/create_issue"`) to its source.
	Sources map[string]Source
	// User and Managed name the files read; "" where there was none.
	User, Managed string
}

// Conflict is a user key that would weaken a managed one.
type Conflict struct {
	Key               string
	User, Managed     string // the values, as written in TOML
	UserLine, MgdLine int    // 0 where the file does not name the key itself
	Rule              string // what the managed file allows
}

// ManagedError is a user config that weakens the machine's managed
// policy, key by key.
type ManagedError struct {
	User, Managed string
	Conflicts     []Conflict
}

func (e *ManagedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "config %s weakens the machine's managed policy %s, which it may not:", e.User, e.Managed)
	for _, c := range e.Conflicts {
		fmt.Fprintf(&b, "\n  %s%s: %s = %s, but %s%s sets %s, and %s",
			e.User, lineSuffix(c.UserLine), c.Key, c.User, e.Managed, lineSuffix(c.MgdLine), c.Managed, c.Rule)
	}
	b.WriteString("\n(remove those keys from your config, or make them stricter; only the administrator can change the managed policy)")
	return b.String()
}

func lineSuffix(line int) string {
	if line == 0 {
		return ""
	}
	return fmt.Sprintf(":%d", line)
}

// bound is how a managed value m limits the user's value u.
type bound struct {
	// allows says whether u protects at least as well as m.
	allows func(m, u reflect.Value) bool
	// rule says in words what the user may do, for the error message
	// and the README.
	rule string
}

var fixed = bound{func(m, u reflect.Value) bool { return reflect.DeepEqual(m.Interface(), u.Interface()) }, "it is fixed"}

// ranked orders string values from least to most strict.
func ranked(order ...string) bound {
	return bound{func(m, u reflect.Value) bool {
		return slices.Index(order, u.String()) >= slices.Index(order, m.String())
	},
		"it may only be made stricter, in the order " + strings.Join(order, " < ")}
}

// number compares ints, floats and durations; larger says whether a
// larger value is the stricter one.
func number(larger bool, why string) bound {
	return bound{func(m, u reflect.Value) bool {
		a, b := numeric(m), numeric(u)
		if larger {
			return b >= a
		}
		return b <= a
	}, why}
}

func numeric(v reflect.Value) float64 {
	switch {
	case v.Type() == durationType:
		return float64(v.Interface().(Duration).Duration)
	case v.CanInt():
		return float64(v.Int())
	}
	return v.Float()
}

// stricterTrue: true is the stricter value of a boolean key.
var stricterTrue = bound{func(m, u reflect.Value) bool { return u.Bool() || !m.Bool() }, "it may only be turned on"}

// stricterFalse: false is the stricter value of a boolean key.
var stricterFalse = bound{func(m, u reflect.Value) bool { return !u.Bool() || m.Bool() }, "it may only be turned off"}

// superset: the user's list keeps every managed entry and may add more.
func superset(why string) bound {
	return bound{func(m, u reflect.Value) bool {
		for i := range m.Len() {
			if !containsValue(u, m.Index(i)) {
				return false
			}
		}
		return true
	}, why}
}

// subset: the user's list has only managed entries and may drop some.
func subset(why string) bound {
	return bound{func(m, u reflect.Value) bool { return superset("").allows(u, m) }, why}
}

func containsValue(list, v reflect.Value) bool {
	for i := range list.Len() {
		if reflect.DeepEqual(list.Index(i).Interface(), v.Interface()) {
			return true
		}
	}
	return false
}

var actionRank = ranked(ActionAllow, ActionWarn, ActionAsk, ActionDeny)

// managedRules is, for every key, how a managed value bounds the user's.
// Where more is not plainly safer, the key is fixed: a shorter
// verdict_timeout is stricter under fail_mode = "closed" and weaker under
// "open"; a retention limit may be a minimum (audit) or a maximum
// (privacy); a smaller check_budget denies more calls but scans less of
// the others. TestManagedRulesCoverEveryKey holds this table complete.
var managedRules = map[string]bound{
	"daemon.log_level": ranked("error", "warn", "info", "debug"),

	"shim.fail_mode":         ranked(FailOpen, FailClosed),
	"shim.verdict_timeout":   fixed,
	"shim.max_inspect_bytes": number(true, "it may only be raised (more of each message inspected)"),

	"activity.max_age":             fixed,
	"activity.max_records":         fixed,
	"activity.max_notable_records": fixed,
	"activity.flush_interval":      fixed,

	"policy.default_action":          actionRank,
	"policy.internal_to_external":    actionRank,
	"policy.internal_to_unknown":     actionRank,
	"policy.sensitive_data_external": actionRank,
	"policy.ask_fallback":            ranked(ActionWarn, ActionDeny),
	"policy.codex_ask_fallback":      ranked(ActionWarn, ActionDeny),
	"policy.private_addresses":       actionRank,
	"policy.risky_commands":          actionRank,
	"policy.read_then_send":          actionRank,
	// With ask_fallback = "deny", elicitation lets the user allow what
	// would be denied; with "warn", it asks what would pass: no order.
	"policy.ask_with_elicitation":  fixed,
	"policy.elicitation_timeout":   fixed,
	"policy.require_justification": stricterTrue,
	"policy.suspicious_endpoints":  superset("the user's list must keep every host it names, and may add more"),
	// tool_overrides and the classify tables are merged entry by entry
	// (mergeTable); these rules are for their entries.
	"policy.tool_overrides":    actionRank,
	"classify.default_unknown": fixed,
	"classify.servers":         fixed,
	"classify.tools":           fixed,

	"flow.max_origins":             number(true, "it may only be raised (more results remembered)"),
	"flow.max_response_hash_bytes": number(true, "it may only be raised (more of each result remembered)"),
	"flow.min_match_length":        number(false, "it may only be lowered (shorter copies noticed)"),
	"flow.session_idle_timeout":    number(true, "it may only be made longer (sessions remembered longer)"),
	"flow.max_memory_bytes":        number(true, "it may only be raised (results forgotten later)"),
	"flow.check_budget":            fixed,
	"flow.wait_budget":             fixed,

	"injection.enabled":               stricterTrue,
	"injection.max_field_bytes":       number(true, "it may only be raised (more of each field scanned)"),
	"injection.max_message_bytes":     number(true, "it may only be raised (more of each message scanned)"),
	"injection.time_budget":           number(true, "it may only be made longer (more of each message scanned)"),
	"injection.taint_action":          ranked(TaintRaise, TaintDeny),
	"injection.on_incomplete":         ranked(IncompletePass, IncompleteUntrusted, IncompleteFlag),
	"injection.trust_on_first_use":    stricterFalse,
	"injection.waiver":                subset("the user may not add waivers (they silence rules), only drop managed ones"),
	"injection.thresholds.flag":       number(false, "it may only be lowered (more content flagged)"),
	"injection.thresholds.redact":     number(false, "it may only be lowered (more content redacted)"),
	"injection.thresholds.block":      number(false, "it may only be lowered (more content blocked)"),
	"injection.known_attacks.enabled": stricterTrue,
	// Whose feeds may mark content as a known attack is the
	// administrator's choice, both ways.
	"injection.known_attacks.trusted_keys": fixed,
	// So is the feed list: a managed one pins it.
	"injection.known_attacks.feed":           fixed,
	"injection.known_attacks.feed_interval":  number(false, "it may only be shortened (feeds pulled more often)"),
	"injection.known_attacks.feed_timeout":   fixed,
	"injection.known_attacks.feed_max_bytes": fixed,

	"ui.enabled": fixed,
	"ui.port":    fixed,
	"ui.metrics": fixed,

	// Where evidence goes is the administrator's: a managed exporter
	// cannot be turned off or pointed elsewhere by the user.
	"export.syslog.enabled":       stricterTrue,
	"export.syslog.address":       fixed,
	"export.syslog.transport":     fixed,
	"export.syslog.format":        fixed,
	"export.syslog.ca_file":       fixed,
	"export.syslog.cert_file":     fixed,
	"export.syslog.key_file":      fixed,
	"export.syslog.queue_limit":   number(true, "it may only be raised (more records kept while the receiver is slow)"),
	"export.syslog.spool_bytes":   number(true, "it may only be raised (more records kept while the receiver is away)"),
	"export.syslog.drain_timeout": number(true, "it may only be made longer (more sent before flowd stops)"),
	"export.otlp.enabled":         stricterTrue,
	"export.otlp.endpoint":        fixed,
	"export.otlp.protocol":        fixed,
	"export.otlp.headers":         fixed,
	"export.otlp.ca_file":         fixed,
	"export.otlp.cert_file":       fixed,
	"export.otlp.key_file":        fixed,
	"export.otlp.queue_limit":     number(true, "it may only be raised (more records kept while the collector is slow)"),
	"export.otlp.spool_bytes":     number(true, "it may only be raised (more records kept while the collector is away)"),
	"export.otlp.drain_timeout":   number(true, "it may only be made longer (more sent before flowd stops)"),
}

// ruleFor is key's rule; a key without one (a test holds that there is
// none) is fixed, the safe reading.
func ruleFor(key string) bound {
	if b, ok := managedRules[key]; ok {
		return b
	}
	return fixed
}

// implied says which keys a managed file bounds without naming them,
// because a user's value there would route around the keys it names: a
// tool override wins over every [policy] rule and a classification
// decides which rule applies, so a managed file that sets any [policy]
// or [classify] key holds the classify keys at its values (the defaults
// where it sets none) and lets the user add only "deny" tool overrides;
// a waiver silences scanning, so one that sets any [injection] key lets
// the user add no waiver.
func implied(key string, managedSets func(prefix string) bool) bool {
	switch {
	case strings.HasPrefix(key, "classify."), key == "policy.tool_overrides":
		return managedSets("policy") || managedSets("classify")
	case key == "injection.waiver":
		return managedSets("injection")
	}
	return false
}

// leaf is one key of the schema and its value in a Config.
type leaf struct {
	key   string
	path  []string
	field func(c *Config) reflect.Value
}

// leaves lists every key of the schema in file order: each scalar, list
// and table of entries, by its full dotted name.
func leaves() []leaf {
	var out []leaf
	var walk func(t reflect.Type, path []string, index []int)
	walk = func(t reflect.Type, path []string, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			p := append(slices.Clone(path), tomlName(f))
			idx := append(slices.Clone(index), i)
			if f.Type.Kind() == reflect.Struct && f.Type != durationType {
				walk(f.Type, p, idx)
				continue
			}
			out = append(out, leaf{key: formatKey(p), path: p,
				field: func(c *Config) reflect.Value { return reflect.ValueOf(c).Elem().FieldByIndex(idx) }})
		}
	}
	walk(configType, nil, nil)
	return out
}

// Merge reads the user's config file and the machine's managed one, each
// over the defaults, and returns the config in force. A user value that
// would weaken a managed one is a *ManagedError naming every such key;
// the Effective returned with it holds the managed values in their place,
// for a caller that must go on safely. Either Layer may be absent.
func Merge(user, managed Layer) (*Effective, error) {
	u, uIdx, err := parseLayer(user)
	if err != nil {
		return nil, err
	}
	eff := &Effective{Config: u, Sources: map[string]Source{}, User: user.Name}
	if managed.Data == nil {
		for _, l := range leaves() {
			eff.note(l, uIdx)
		}
		return eff, nil
	}
	m, mIdx, err := parseLayer(managed)
	if err != nil {
		return nil, fmt.Errorf("the machine's managed policy is invalid (the administrator must fix it): %w", err)
	}
	eff.Managed = managed.Name
	merr := &ManagedError{User: user.Name, Managed: managed.Name}
	mSets := func(prefix string) bool { return setUnder(mIdx, prefix) }
	for _, l := range leaves() {
		bounded := setUnder(mIdx, l.key) || implied(l.key, mSets)
		if !bounded {
			eff.note(l, uIdx)
			continue
		}
		mv, uv := l.field(m), l.field(u)
		if mv.Kind() == reflect.Map {
			mergeTable(eff, merr, l, mv, uv, uIdx, mIdx)
			continue
		}
		b := ruleFor(l.key)
		switch {
		case !setUnder(uIdx, l.key) || reflect.DeepEqual(mv.Interface(), uv.Interface()):
			uv.Set(mv)
			eff.Sources[l.key] = FromManaged
		case b.allows(mv, uv):
			eff.Sources[l.key] = FromUser
		default:
			merr.add(l.key, uv, mv, uIdx, mIdx, b.rule)
			uv.Set(mv)
			eff.Sources[l.key] = FromManaged
		}
	}
	// Each file is valid alone, but not necessarily together: a user's
	// flag threshold above a managed block threshold.
	if fails := u.validate(); len(fails) > 0 {
		return nil, fmt.Errorf("config %s together with the machine's managed policy %s is invalid: %s", user.Name, managed.Name, fails[0])
	}
	if len(merr.Conflicts) > 0 {
		return eff, merr
	}
	return eff, nil
}

// mergeTable merges a table of entries (tool overrides, classes): each
// managed entry bounds the user's entry of that name by the key's rule;
// an entry of the user's that the managed file does not have may only be
// a tool override of "deny".
func mergeTable(eff *Effective, merr *ManagedError, l leaf, mv, uv reflect.Value, uIdx, mIdx map[string]keyInfo) {
	b := ruleFor(l.key)
	out := reflect.MakeMap(mv.Type())
	for _, k := range mv.MapKeys() {
		key := formatKey(append(slices.Clone(l.path), k.String()))
		m, u := mv.MapIndex(k), uv.MapIndex(k)
		switch {
		case !u.IsValid() || u.Equal(m):
			out.SetMapIndex(k, m)
			eff.Sources[key] = FromManaged
		case b.allows(m, u):
			out.SetMapIndex(k, u)
			eff.Sources[key] = FromUser
		default:
			merr.add(key, u, m, uIdx, mIdx, b.rule)
			out.SetMapIndex(k, m)
			eff.Sources[key] = FromManaged
		}
	}
	for _, k := range uv.MapKeys() {
		if mv.MapIndex(k).IsValid() {
			continue
		}
		key := formatKey(append(slices.Clone(l.path), k.String()))
		u := uv.MapIndex(k)
		if l.key == "policy.tool_overrides" && u.String() == ActionDeny {
			out.SetMapIndex(k, u)
			eff.Sources[key] = FromUser
			continue
		}
		rule := "it sets no entry of that name, and while it sets any [policy] or [classify] key, only it may classify (a class decides which rule applies)"
		if l.key == "policy.tool_overrides" {
			rule = `it sets no override of that name, and while it sets any [policy] or [classify] key, yours may only be "deny" (an override wins over every rule)`
		}
		merr.Conflicts = append(merr.Conflicts, Conflict{Key: key, User: tomlValue(u), Managed: "none",
			UserLine: uIdx[key].line, MgdLine: mIdx[l.key].line, Rule: rule})
	}
	uv.Set(out)
	eff.Sources[l.key] = FromManaged
}

func (e *ManagedError) add(key string, u, m reflect.Value, uIdx, mIdx map[string]keyInfo, rule string) {
	e.Conflicts = append(e.Conflicts, Conflict{Key: key, User: tomlValue(u), Managed: tomlValue(m),
		UserLine: uIdx[key].line, MgdLine: mIdx[key].line, Rule: rule})
}

// note records the source of an unmanaged key: the user's file if it
// names the key (or the entry), else the defaults.
func (e *Effective) note(l leaf, uIdx map[string]keyInfo) {
	src := func(key string) Source {
		if setUnder(uIdx, key) {
			return FromUser
		}
		return FromDefault
	}
	e.Sources[l.key] = src(l.key)
	if v := l.field(e.Config); v.Kind() == reflect.Map {
		for _, k := range v.MapKeys() {
			key := formatKey(append(slices.Clone(l.path), k.String()))
			e.Sources[key] = src(key)
		}
	}
}

// setUnder reports whether a file names key or a key inside it. A table
// header alone names nothing, unless the table is one of entries: an
// empty [policy.tool_overrides] sets the table, empty.
func setUnder(idx map[string]keyInfo, key string) bool {
	for k, info := range idx {
		inside := k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[")
		if !inside {
			continue
		}
		if info.kind != unstable.Table {
			return true
		}
		if t := schemaType(info.path); t != nil && t.Kind() == reflect.Map {
			return true
		}
	}
	return false
}

func parseLayer(l Layer) (*Config, map[string]keyInfo, error) {
	if l.Data == nil {
		return Default(), map[string]keyInfo{}, nil
	}
	c, err := Parse(l.Data, l.Name)
	if err != nil {
		return nil, nil, err
	}
	idx, _ := indexKeys(l.Data) // parsed without error above
	return c, idx, nil
}
