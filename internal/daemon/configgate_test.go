package daemon

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/paths"
)

const testPass = "correct horse battery"

// startAt builds a daemon over dataDir with cfg, as flowd starting; stop
// closes its stores, as flowd stopping.
func startAt(t testing.TB, dataDir string, cfg *config.Config) (d *Daemon, stop func()) {
	o := Options{Config: cfg, DataDir: dataDir, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	st, err := openStores(o)
	require.NoError(t, err)
	var once sync.Once
	stop = func() { once.Do(func() { st.close() }) }
	t.Cleanup(stop)
	d, err = newDaemon(o, st)
	require.NoError(t, err)
	return d, stop
}

// applyApproved puts cfg in force as `flowd config apply` would once the
// user approved it, for tests about what a config does rather than about
// the gate.
func applyApproved(t *testing.T, d *Daemon, cfg *config.Config) {
	t.Helper()
	s, err := judge.NewSettings(cfg)
	require.NoError(t, err)
	d.applyConfig(s)
}

// api calls d's API as a process of this user would over the socket.
func api(d *Daemon, method, path, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req = req.WithContext(context.WithValue(req.Context(), peerKey{}, localsock.Cred{UID: os.Getuid(), GID: os.Getgid()}))
	d.handler().ServeHTTP(rec, req)
	return rec
}

// weaker is what an agent would write: secrets warned, scanning off,
// fail open, a mail server trusted.
func weaker() *config.Config {
	c := config.Default()
	c.Policy.SensitiveDataExternal = config.ActionWarn
	c.Injection.Enabled = false
	c.Shim.FailMode = config.FailOpen
	c.Classify.Servers = map[string]string{"mail": config.ClassInternal}
	return c
}

func TestReloadThatWeakensWaitsForThePassphrase(t *testing.T) {
	d, _ := startAt(t, t.TempDir(), config.Default())
	require.Equal(t, 200, api(d, "POST", "/api/v1/passphrase", `{"new":"`+testPass+`"}`).Code)

	err := d.Reload(weaker())
	var held *HeldError
	require.ErrorAs(t, err, &held)
	assert.Contains(t, err.Error(), "policy.sensitive_data_external")
	assert.Contains(t, err.Error(), "flowd config apply")
	assert.Equal(t, config.ActionDeny, d.current().Cfg.Policy.SensitiveDataExternal, "the settings in force stay")
	assert.True(t, d.current().Cfg.Injection.Enabled)
	rec, _ := judgetest.LastRecord(t, d.judge, "config_held")
	assert.Contains(t, string(rec.Details), "injection.enabled")

	assert.Contains(t, api(d, "GET", "/api/v1/status", "").Body.String(), `"config_held":{"changes":[`)
	resp := api(d, "GET", "/api/v1/config/held", "")
	require.Equal(t, 200, resp.Code)
	var h flowdclient.HeldConfig
	require.NoError(t, json.Unmarshal(resp.Body.Bytes(), &h))
	assert.Len(t, h.Changes, 3, "%q", h.Changes) // fail_mode open is the default already
	// The agent cannot apply it: no passphrase, a wrong one, or another
	// config than the one shown.
	assert.Equal(t, 403, api(d, "POST", "/api/v1/config/apply", `{"digest":"`+h.Digest+`"}`).Code)
	assert.Equal(t, 403, api(d, "POST", "/api/v1/config/apply", `{"digest":"`+h.Digest+`","passphrase":"guess guess guess"}`).Code)
	assert.Equal(t, 409, api(d, "POST", "/api/v1/config/apply", `{"digest":"0011","passphrase":"`+testPass+`"}`).Code)
	assert.Equal(t, config.ActionDeny, d.current().Cfg.Policy.SensitiveDataExternal)

	resp = api(d, "POST", "/api/v1/config/apply", `{"digest":"`+h.Digest+`","passphrase":"`+testPass+`"}`)
	require.Equal(t, 200, resp.Code, resp.Body.String())
	assert.Equal(t, config.ActionWarn, d.current().Cfg.Policy.SensitiveDataExternal, "the user applied it")
	assert.Equal(t, 404, api(d, "GET", "/api/v1/config/held", "").Code)
	judgetest.LastRecord(t, d.judge, "config_applied")

	// Tightening needs nothing, and replaces a config held meanwhile.
	looser := weaker()
	looser.Policy.InternalToExternal = config.ActionAllow
	require.ErrorAs(t, d.Reload(looser), &held)
	tighter := weaker()
	tighter.Policy.SensitiveDataExternal = config.ActionDeny
	require.NoError(t, d.Reload(tighter))
	assert.Equal(t, config.ActionDeny, d.current().Cfg.Policy.SensitiveDataExternal)
	assert.Equal(t, 404, api(d, "GET", "/api/v1/config/held", "").Code)
}

// Without a passphrase the reload is held too: the agent, running as the
// user, could otherwise edit the file, send a SIGHUP and switch protection
// off. The hold says how to apply it, and status shows it.
func TestReloadWithoutPassphraseIsHeld(t *testing.T) {
	d, _ := startAt(t, t.TempDir(), config.Default())
	var held *HeldError
	require.ErrorAs(t, d.Reload(weaker()), &held)
	assert.Contains(t, held.Error(), "flowd passphrase set")
	assert.Contains(t, held.Error(), "flowd config apply")
	assert.Equal(t, config.Default().Policy.SensitiveDataExternal, d.current().Cfg.Policy.SensitiveDataExternal, "the config in force stays")
	rec, _ := judgetest.LastRecord(t, d.judge, "config_held")
	assert.Contains(t, rec.Reason, "flowd passphrase set")
	var st flowdclient.Status
	resp := api(d, "GET", "/api/v1/status", "")
	require.Equal(t, 200, resp.Code)
	require.NoError(t, json.Unmarshal(resp.Body.Bytes(), &st))
	require.NotNil(t, st.ConfigHeld, "status shows the held config")
	assert.False(t, st.ApprovalPassphrase)
	// Nobody can apply it before a passphrase is set.
	assert.Equal(t, 403, api(d, "POST", "/api/v1/config/apply", `{"digest":"`+st.ConfigHeld.Digest+`","passphrase":""}`).Code)
}

// Editing the file while flowd is stopped, then starting it, is held as a
// reload is: flowd starts with the config last in force. Deleting that
// record makes the file compare with the defaults.
func TestStartWithAWeakerFileKeepsTheConfigInForce(t *testing.T) {
	dir := t.TempDir()
	strict := config.Default()
	strict.Policy.InternalToExternal = config.ActionDeny
	strict.Policy.ToolOverrides = map[string]string{"github/create_gist": "deny"}
	strict.Injection.Waivers = []config.Waiver{{Server: "docs", Rule: "shell-command"}}
	// The waiver lowers protection from the defaults: the user applies
	// strict with the passphrase.
	d, stop := startAt(t, dir, config.Default())
	require.Equal(t, 200, api(d, "POST", "/api/v1/passphrase", `{"new":"`+testPass+`"}`).Code)
	var held *HeldError
	require.ErrorAs(t, d.Reload(strict), &held)
	var h flowdclient.HeldConfig
	require.NoError(t, json.Unmarshal(api(d, "GET", "/api/v1/config/held", "").Body.Bytes(), &h))
	require.Equal(t, 200, api(d, "POST", "/api/v1/config/apply", `{"digest":"`+h.Digest+`","passphrase":"`+testPass+`"}`).Code)
	require.Equal(t, strict, d.current().Cfg)
	stop()

	d, stop = startAt(t, dir, weaker()) // flowd restart
	assert.Equal(t, strict, d.current().Cfg, "the config last in force, read back whole")
	require.Equal(t, 200, api(d, "GET", "/api/v1/config/held", "").Code)
	rec, _ := judgetest.LastRecord(t, d.judge, "config_held")
	assert.Contains(t, string(rec.Details), `"start"`)
	stop()

	require.NoError(t, os.Remove(filepath.Join(dir, paths.ConfigInForce)))
	d, stop = startAt(t, dir, weaker())
	assert.Equal(t, config.Default(), d.current().Cfg, "compared with the defaults")
	stop()

	// A file that only tightens what is in force starts as it is; the
	// waiver of strict would not, against the defaults now in force.
	tight := config.Default()
	tight.Policy.InternalToExternal = config.ActionDeny
	d, _ = startAt(t, dir, tight)
	assert.Equal(t, tight, d.current().Cfg)
	assert.Equal(t, 404, api(d, "GET", "/api/v1/config/held", "").Code)
}

// The first start, on a data dir with nothing in it, takes the file as
// the user's setup; from then on a weaker file waits.
func TestFirstStartTakesTheFile(t *testing.T) {
	dir := t.TempDir()
	d, stop := startAt(t, dir, weaker())
	assert.Equal(t, weaker(), d.current().Cfg)
	assert.Equal(t, 404, api(d, "GET", "/api/v1/config/held", "").Code)
	stop()
	looser := weaker()
	looser.Policy.InternalToExternal = config.ActionAllow
	d, _ = startAt(t, dir, looser)
	assert.Equal(t, weaker(), d.current().Cfg, "the second start holds what lowers protection")
	assert.Equal(t, 200, api(d, "GET", "/api/v1/config/held", "").Code)
}
