package ondemand

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A flowd started on demand takes nothing from the agent's environment
// that changes how it runs: found in review, it inherited all of it.
func TestStartEnvKeepsOnlyWhatFindsTheUsersFiles(t *testing.T) {
	environ := []string{
		"HOME=/home/u", "USER=u", "LOGNAME=u", "PATH=/usr/bin", "LANG=de_DE.UTF-8", "LC_ALL=C", "TZ=UTC", "TMPDIR=/tmp/u",
		"HTTPS_PROXY=http://proxy:3128",
		"LD_PRELOAD=/tmp/evil.so", "LD_LIBRARY_PATH=/tmp", "DYLD_INSERT_LIBRARIES=/tmp/evil.dylib",
		"GODEBUG=madvdontneed=0", "GOGC=off", "GOMEMLIMIT=1", "GOTRACEBACK=none", "GOMAXPROCS=64",
		"FLOWD_CONFIG=/tmp/weak.toml", "FLOWD_DATA_DIR=/tmp/blank", "FLOWD_SOCKET=/tmp/s", "FLOWD_STARTED_BY=systemd",
		"LISTEN_FDS=1", "LISTEN_PID=1", "NOTIFY_SOCKET=/tmp/n", "INVOCATION_ID=x", "SSL_CERT_FILE=/tmp/ca.pem",
		"XDG_CONFIG_HOME=/tmp/c", "XDG_STATE_HOME=/tmp/s", "NOEQUALS", "=C:=C:\\",
	}
	for _, c := range []struct {
		name    string
		windows bool
		environ []string
		want    []string
	}{
		{"unix", false, environ, []string{"HOME=/home/u", "USER=u", "LOGNAME=u", "PATH=/usr/bin", "LANG=de_DE.UTF-8", "LC_ALL=C",
			"TZ=UTC", "TMPDIR=/tmp/u", "HTTPS_PROXY=http://proxy:3128", "FLOWD_STARTED_BY=on-demand"}},
		{"windows, any case", true, []string{"SystemRoot=C:\\Windows", "LocalAppData=C:\\L", "Path=C:\\bin", "GODEBUG=x", "flowd_config=x"},
			[]string{"SystemRoot=C:\\Windows", "LocalAppData=C:\\L", "Path=C:\\bin", "FLOWD_STARTED_BY=on-demand"}},
		{"unix names are exact", false, []string{"Path=/x", "home=/x"}, []string{"FLOWD_STARTED_BY=on-demand"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, startEnv(c.environ, c.windows, "FLOWD_STARTED_BY=on-demand"))
		})
	}
}

func TestRunArgsNameThePaths(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	assert.Equal(t, []string{"run", "--socket", "/s", "--data-dir", "/d"}, runArgs("/s", "/d", cfg, false),
		"a default config that is not there: flowd's defaults")
	assert.Equal(t, []string{"run", "--socket", "/s", "--data-dir", "/d", "--config", cfg}, runArgs("/s", "/d", cfg, true),
		"a config named that is not there: flowd refuses to start, as it would have")
	require.NoError(t, os.WriteFile(cfg, nil, 0o600))
	assert.Equal(t, []string{"run", "--socket", "/s", "--data-dir", "/d", "--config", cfg}, runArgs("/s", "/d", cfg, false))
}
