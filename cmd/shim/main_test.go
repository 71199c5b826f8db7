package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/paths"
)

// While flowd does not answer, the shim keeps to the [shim] settings
// flowd has in force, not to an edit of the file that lowers protection
// and that flowd holds back for `flowd config apply`.
func TestShimKeepsToTheConfigInForce(t *testing.T) {
	withShim := func(mode string, timeout time.Duration) *config.Config {
		c := config.Default()
		c.Shim.FailMode, c.Shim.VerdictTimeout.Duration = mode, timeout
		return c
	}
	for _, c := range []struct {
		name     string
		ran      bool           // flowd has run in the data dir
		inForce  *config.Config // nil: no record
		damaged  bool           // the record cannot be read
		file     *config.Config
		wantMode string
		wantWait time.Duration
	}{
		{"before flowd ever ran, the file as it is", false, nil, false, withShim(config.FailOpen, time.Second), config.FailOpen, time.Second},
		{"an edit to open, held back", true, withShim(config.FailClosed, 5*time.Second), false, withShim(config.FailOpen, 5*time.Second), config.FailClosed, 5 * time.Second},
		{"a shorter wait under open, held back", true, withShim(config.FailOpen, 5*time.Second), false, withShim(config.FailOpen, time.Second), config.FailOpen, 5 * time.Second},
		{"open, applied", true, withShim(config.FailOpen, 5*time.Second), false, withShim(config.FailOpen, 5*time.Second), config.FailOpen, 5 * time.Second},
		{"an edit to closed takes effect at once", true, withShim(config.FailOpen, 5*time.Second), false, withShim(config.FailClosed, time.Second), config.FailClosed, time.Second},
		{"a damaged record compares with the defaults", true, withShim(config.FailClosed, 5*time.Second), true, withShim(config.FailOpen, time.Millisecond), config.Default().Shim.FailMode, config.Default().Shim.VerdictTimeout.Duration},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.ran {
				require.NoError(t, os.WriteFile(filepath.Join(dir, paths.ActivityStore), nil, 0o600))
			}
			if c.inForce != nil {
				b, err := toml.Marshal(c.inForce)
				require.NoError(t, err)
				if c.damaged {
					b = []byte("[shim\nfail_mode = ")
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, paths.ConfigInForce), b, 0o600))
			}
			got := heldBack(c.file, dir)
			assert.Equal(t, c.wantMode, got.FailMode)
			assert.Equal(t, c.wantWait, got.VerdictTimeout.Duration)
		})
	}
}
