package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// ConfigPath is Codex's user config, $CODEX_HOME/config.toml
// (~/.codex/config.toml): where it keeps features.hooks and its trust in
// every hook, the project's hooks included.
func ConfigPath() (string, error) {
	hooks, err := HooksPath("user", "")
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(hooks), "config.toml"), nil
}

// Review is what Codex's config says of flowd's hooks in one hooks file:
// whether they may run.
type Review struct {
	// HooksOff: features.hooks = false, no hook runs.
	HooksOff bool
	// Untrusted are the trust keys of flowd's hooks the user never
	// trusted: Codex 0.171 does not run them, and codex exec, which
	// cannot ask, skips them without a word.
	Untrusted []string
	// Disabled are the trust keys of flowd's hooks switched off
	// (enabled = false in their hooks.state table).
	Disabled []string
}

// TrustKey is the name under which Codex keeps its trust in the hook e
// of the hooks file at path: [hooks.state."<path>:<event>:<group>:<hook>"],
// the event in snake case (pre_tool_use), as codex app-server's
// hooks/list names them.
func TrustKey(path string, e claudecode.Entry) string {
	return fmt.Sprintf("%s:%s:%d:%d", path, snake(e.Event), e.Group, e.Index)
}

func snake(event string) string {
	var b strings.Builder
	for i, r := range event {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ReviewHooks reads Codex's config (its bytes; nil when there is none)
// for flowd's hooks, entries, of the hooks file at path. A hook whose
// trusted hash is there counts as trusted: the hash is Codex's, which
// flowd does not recompute, so a hook changed since shows in Codex as
// "modified" and is not caught here.
func ReviewHooks(config []byte, path string, entries []claudecode.Entry) (Review, error) {
	var c struct {
		Features struct {
			Hooks *bool `toml:"hooks"`
		} `toml:"features"`
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
				Enabled     *bool  `toml:"enabled"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if err := toml.Unmarshal(config, &c); err != nil {
		return Review{}, fmt.Errorf("read Codex's config for its hook switches and trust: %w", err)
	}
	r := Review{HooksOff: c.Features.Hooks != nil && !*c.Features.Hooks}
	for _, e := range entries {
		key := TrustKey(path, e)
		st, ok := c.Hooks.State[key]
		if !ok || st.TrustedHash == "" {
			r.Untrusted = append(r.Untrusted, key)
		}
		if ok && st.Enabled != nil && !*st.Enabled {
			r.Disabled = append(r.Disabled, key)
		}
	}
	return r, nil
}

// ReviewFile is ReviewHooks on the user's Codex config; a missing config
// trusts nothing.
func ReviewFile(path string, entries []claudecode.Entry) (Review, error) {
	cfg, err := ConfigPath()
	if err != nil {
		return Review{}, err
	}
	b, err := os.ReadFile(cfg)
	if err != nil && !os.IsNotExist(err) {
		return Review{}, fmt.Errorf("read Codex's config %s: %w", cfg, err)
	}
	r, err := ReviewHooks(b, path, entries)
	if err != nil {
		return Review{}, fmt.Errorf("%s: %w", cfg, err)
	}
	return r, nil
}
