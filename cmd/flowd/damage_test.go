package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/doctor"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/quarantine"
)

// damagedDataDir holds the three stores, each damaged as found in the
// field: activity.db and quarantine.db cut to half (which made flowd die
// of SIGBUS on every start), pins.db with both headers flipped.
func damagedDataDir(t *testing.T, data string) {
	a, err := activity.Open(filepath.Join(data, "activity.db"), activity.Options{})
	require.NoError(t, err)
	for range 3000 {
		a.Append(activity.Record{Type: "tool_call", Server: "github", Reason: strings.Repeat("r", 200)})
	}
	require.NoError(t, a.Close())
	q, err := quarantine.Open(filepath.Join(data, "quarantine.db"), quarantine.Options{})
	require.NoError(t, err)
	for range 20 {
		_, err := q.Add(quarantine.Item{Server: "web", Method: "tools/call"}, []byte(strings.Repeat("ignore previous instructions ", 1000)))
		require.NoError(t, err)
	}
	require.NoError(t, q.Close())
	p, err := pins.Open(filepath.Join(data, "pins.db"), pins.Options{})
	require.NoError(t, err)
	tl, err := pins.ParseTool([]byte(`{"name":"add","description":"Adds"}`))
	require.NoError(t, err)
	_, err = p.Observe("math", []string{"math-server"}, []pins.Tool{tl}, true)
	require.NoError(t, err)
	require.NoError(t, p.Close())

	for _, f := range []string{"activity.db", "quarantine.db"} {
		fi, err := os.Stat(filepath.Join(data, f))
		require.NoError(t, err)
		require.NoError(t, os.Truncate(filepath.Join(data, f), fi.Size()/2))
	}
	b, err := os.ReadFile(filepath.Join(data, "pins.db"))
	require.NoError(t, err)
	b[20] ^= 0xff
	b[os.Getpagesize()+20] ^= 0xff
	require.NoError(t, os.WriteFile(filepath.Join(data, "pins.db"), b, 0o600))
}

func TestOfflineReadersReportADamagedStore(t *testing.T) {
	dir := shortDir(t)
	data := filepath.Join(dir, "data")
	damagedDataDir(t, data)
	before, err := os.ReadDir(data)
	require.NoError(t, err)
	for _, args := range [][]string{{"activity"}, {"explain", "1"}, {"pins", "list"}, {"quarantine", "list"}} {
		cmd := exec.Command(flowdBin(t), args...)
		cmd.Env = append(os.Environ(), "FLOWD_SOCKET="+filepath.Join(dir, "none.sock"), "FLOWD_DATA_DIR="+data)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "%v: %v: %s", args, err, out)
		assert.Equal(t, 1, ee.ExitCode(), "%v exits as on any error, not by a signal: %s", args, out)
		assert.Contains(t, string(out), "is damaged", "%v", args)
		assert.Contains(t, string(out), "flowd moves it aside", "%v", args)
	}
	after, err := os.ReadDir(data)
	require.NoError(t, err)
	assert.Equal(t, len(before), len(after), "a reader moves nothing")
}

func TestRunStartsOnDamagedStores(t *testing.T) {
	dir := shortDir(t)
	socket, data, cfg := filepath.Join(dir, "run", "flowd.sock"), filepath.Join(dir, "data"), filepath.Join(dir, "config.toml")
	require.NoError(t, os.WriteFile(cfg, nil, 0o600))
	damagedDataDir(t, data)

	cmd := exec.Command(flowdBin(t), "run", "--config", cfg, "--socket", socket, "--data-dir", data)
	cmd.Env = append(os.Environ(), "NOTIFY_SOCKET=", "LISTEN_FDS=", "JOURNAL_STREAM=")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	start := time.Now()
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := logLines(t, stderr)
	for _, what := range []string{"activity store", "quarantine store", "pins store"} {
		line := awaitLog(t, lines, what+" was damaged")
		assert.Contains(t, line, "level=ERROR")
		assert.Contains(t, line, "moved_to=")
	}
	awaitLog(t, lines, "flowd ready")
	t.Logf("flowd ready on three damaged stores %s after exec", time.Since(start))

	out, err := exec.Command(flowdBin(t), "status", "--json", "--socket", socket).Output()
	require.NoError(t, err)
	var st flowdclient.Status
	require.NoError(t, json.Unmarshal(out, &st))
	require.Len(t, st.DamagedStores, 3)
	for _, d := range st.DamagedStores {
		assert.FileExists(t, d.MovedTo)
	}
	require.NotNil(t, st.PinsUntrusted)
	out, err = exec.Command(flowdBin(t), "status", "--socket", socket).Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), "DAMAGED  activity store was damaged")
	assert.Contains(t, string(out), "no server is trusted on first use")

	// doctor exits non-zero on a failure, and damage recovered is a
	// warning, not a failure. It also reports what it finds for the whole
	// user (shims of other flowds running unprotected, more than one
	// flowd), which other tests and processes on a shared machine make:
	// only failures about this flowd count here.
	out, doctorErr := exec.Command(flowdBin(t), "doctor", "--json", "--socket", socket, "--data-dir", data, "--config", cfg).Output()
	var report struct {
		Findings []doctor.Finding `json:"findings"`
	}
	require.NoError(t, json.Unmarshal(out, &report), "doctor: %v: %s", doctorErr, out)
	warned, failedElsewhere := 0, 0
	for _, f := range report.Findings {
		switch {
		case f.Section == "data" && f.Status == doctor.Warn:
			warned++
		case f.Status == doctor.Fail && aboutOtherFlowds(f, socket):
			failedElsewhere++
		default:
			assert.NotEqual(t, doctor.Fail, f.Status, "a failure about this flowd: %+v", f)
		}
	}
	if failedElsewhere == 0 {
		assert.NoError(t, doctorErr, "%s", out)
	}
	// The fifth: a data dir whose store is there and whose list of held
	// sessions is not (heldfile.Decide) loses every session for a while.
	assert.Equal(t, 5, warned, "three stores moved aside, pins lost, held sessions unknown: %s", out)

	out, err = exec.Command(flowdBin(t), "activity", "--json", "--socket", socket).Output()
	require.NoError(t, err, "the fresh store answers")
	assert.JSONEq(t, "[]", string(out))

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	awaitLog(t, lines, "flowd stopping")
	for range lines {
	}
	require.NoError(t, cmd.Wait(), "a graceful stop exits 0")
}

// aboutOtherFlowds reports whether a doctor finding is about processes
// other than the flowd on socket: a shim that looked for flowd elsewhere
// and passes messages unchecked, or more flowds of this user than one.
func aboutOtherFlowds(f doctor.Finding, socket string) bool {
	return f.Section == "daemon" && !strings.Contains(f.Message, socket) &&
		(strings.Contains(f.Message, "passes messages unchecked") || strings.Contains(f.Message, "more than one flowd runs for you"))
}
