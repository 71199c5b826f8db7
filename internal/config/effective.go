package config

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// WriteTo prints every value in force, one dotted key a line, each with
// where it came from. The output is itself a valid config file, except
// that export header values are hidden.
func (e *Effective) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# the config in force: defaults, then the user file %s", orNone(e.User))
	fmt.Fprintf(&b, ", bounded by the managed file %s\n", orNone(e.Managed))
	for _, l := range leaves() {
		v := l.field(e.Config)
		if v.Kind() != reflect.Map {
			line(&b, l.key, tomlValue(v), e.Sources[l.key])
			continue
		}
		keys := v.MapKeys()
		if len(keys) == 0 {
			line(&b, l.key, "{}", e.Sources[l.key])
			continue
		}
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			key := formatKey(append(slices.Clone(l.path), k.String()))
			value := tomlValue(v.MapIndex(k))
			if l.key == "export.otlp.headers" {
				// Export headers carry the collector's API keys: the
				// output is pasted into tickets and read by agents.
				value = `"(hidden)"`
			}
			line(&b, key, value, e.Sources[key])
		}
	}
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

func line(b *bytes.Buffer, key, value string, src Source) {
	fmt.Fprintf(b, "%-44s # %s\n", key+" = "+value, src)
}

func orNone(name string) string {
	if name == "" {
		return "(none)"
	}
	return name
}

// tomlValue writes v as it would appear after "key = " in a TOML file.
func tomlValue(v reflect.Value) string {
	var b bytes.Buffer
	enc := toml.NewEncoder(&b).SetTablesInline(true).SetArraysMultiline(false)
	if err := enc.Encode(map[string]any{"v": v.Interface()}); err != nil {
		return fmt.Sprint(v.Interface())
	}
	s := strings.TrimSpace(b.String())
	return strings.TrimSpace(strings.TrimPrefix(s, "v ="))
}

// keySettings are the settings a person checks first to know what flowd
// does: what fails open, what is denied or asked, whether injection is
// screened and how strictly, whether the dashboard and export are on.
var keySettings = []string{
	"shim.fail_mode", "policy.default_action", "policy.internal_to_external", "policy.internal_to_unknown",
	"policy.sensitive_data_external", "policy.read_then_send", "policy.ask_fallback",
	"injection.enabled", "injection.taint_action", "injection.on_incomplete", "injection.thresholds.flag",
	"injection.thresholds.redact", "injection.thresholds.block", "ui.enabled", "export.syslog.enabled", "export.otlp.enabled",
}

// KeySettings are c's keySettings, each as its TOML value, by dotted key:
// what flowd status and the dashboard show of the config in force (flowd
// config show --effective prints all of it).
func (c *Config) KeySettings() map[string]string {
	out := make(map[string]string, len(keySettings))
	for _, l := range leaves() {
		if slices.Contains(keySettings, l.key) {
			out[l.key] = tomlValue(l.field(c))
		}
	}
	return out
}
