//go:build unix

package daemon

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/dashboard"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/service"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// browserPath is Debian's chromium (CI installs it), or another Chrome.
func browserPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium; .ci/run does): the dashboard's browser test cannot run")
	return ""
}

// artifacts is where the screenshots go: $FLOWD_TEST_ARTIFACTS/TEST, or
// the test's temp dir.
func artifacts(t *testing.T) string {
	dir := t.TempDir()
	if root := os.Getenv("FLOWD_TEST_ARTIFACTS"); root != "" {
		dir = filepath.Join(root, t.Name())
		require.NoError(t, os.MkdirAll(dir, 0o755))
	}
	return dir
}

// The dashboard in a real browser, logged in the way flowd ui does it,
// against a real flowd: a blocked call is pushed to Live by the event stream,
// the hooks banner goes when dismissed, filters narrow the activity list,
// the session picture shows the denied edge with its evidence, and
// attacker text stays text.
func TestDashboardInBrowser(t *testing.T) {
	chromium := browserPath(t)
	shots := artifacts(t)
	// Export to a collector that is not there: the status page shows
	// the exporter's state. The service manager's answer is given: this
	// machine may have none.
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	collector := closed.Addr().String()
	closed.Close()
	cfg := config.Default()
	cfg.Export.Syslog.Enabled, cfg.Export.Syslog.Address, cfg.Export.Syslog.Transport = true, collector, config.SyslogTCP
	d, socket, _ := servingWith(t, Options{Config: cfg, StartedBy: service.ByOnDemand, ServiceState: func() service.Status {
		return service.Status{Manager: service.Systemd, Scope: service.User, Installed: true, Enabled: true, Unit: "/home/u/.config/systemd/user/flowd.service"}
	}})
	// Set before any agent acts, as flowd install asks.
	require.NoError(t, flowdclient.NewClient(socket, 5*time.Second).SetPassphrase("", testPass))
	login, err := flowdclient.NewClient(socket, 5*time.Second).UILogin()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(login, "http://127.0.0.1:"), login)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()

	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644))
	}
	// wait polls a JavaScript predicate until it holds.
	wait := func(what, js string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(time.Minute)))
		if err != nil {
			shot("failed")
		}
		require.NoError(t, err, what)
	}
	eval := func(js string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](js))
		require.NoError(t, err, js)
	}

	// An earlier record whose tool name is markup: shown as text.
	d.store.Append(activity.Record{Type: activity.TypeToolCall, Session: "cc", Server: "evil",
		Tool: `<img id=pwned src=x>`, Decision: "allow", Reason: `<b id=bold>hi</b>`})
	require.NoError(t, d.store.Flush())

	// As flowd ui opens it: through a private file that redirects.
	page := filepath.Join(t.TempDir(), "ui-open.html")
	require.NoError(t, os.WriteFile(page, dashboard.Redirect(login), 0o600))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+page)))
	{
		// The redirects navigate twice: wait on the DOM, which follows them.
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		err := chromedp.Do(wctx, chromedp.WaitVisible(chromedp.CSS("#nav-live")))
		cancel()
		if err != nil {
			shot("failed")
		}
		require.NoError(t, err, "the dashboard opens through the redirect file")
	}
	wait("the Live page streams", `document.getElementById("conn").textContent === "live"`)
	url, err := chromedp.Run(ctx, chromedp.Location())
	require.NoError(t, err)
	assert.NotContains(t, url, "code=", "the login code leaves the address bar")
	wait("the markup record is listed", `document.querySelector("#live tbody").textContent.includes("<img id=pwned")`)
	wait("as text", `!document.getElementById("pwned") && !document.getElementById("bold")`)

	// A key read from the filesystem, then sent to slack: denied.
	fs := upstream.NewStream(1, shimproto.Hello{Name: "filesystem"}, "cc")
	judgetest.CallAndAnswer(d.judge, fs, 1, "read_text_file", `{"path":"/p/.env"}`, envFile)
	slack := upstream.NewStream(2, shimproto.Hello{Name: "slack"}, "cc")
	sent := time.Now()
	judgetest.BlockedText(t, judgetest.CallAndAnswer(d.judge, slack, 1, "post_message", `{"text":"`+judgetest.AWSSecret+`"}`, ""))
	wait("the blocked call is on Live", `[...document.querySelectorAll("#live tbody tr.blocked")].some(r => r.textContent.includes("post_message"))`)
	took := time.Since(sent)
	// Only the event stream can have brought it (the page never polls):
	// how soon is a figure for the README, not a bound a busy machine
	// must meet.
	t.Logf("blocked call shown on Live %v after its verdict", took)

	// Attacker text over the live stream: markup stays text, a script in
	// it never runs, and a bidi override shows as an escape rather than
	// turning the row around.
	d.store.Append(activity.Record{Type: activity.TypeToolCall, Session: "cc", Server: "evil",
		Tool: "<img id=livepwn src=x onerror=\"window.pwned=1\">\u202ecod.exe", Decision: "deny", Reason: "<script>window.pwned=2</script>"})
	wait("the attacker's record is on Live, as text", `document.querySelector("#live tbody").textContent.includes("<img id=livepwn")`)
	wait("no element, no script, the override escaped", `!document.getElementById("livepwn") && window.pwned === undefined &&
		document.querySelector("#live tbody").textContent.includes("\\u202ecod.exe") && !document.body.textContent.includes("\u202e")`)
	shot("live")

	// No hooks: the banner says so, with the command, until dismissed.
	wait("the hooks banner", `document.querySelector('#banners [data-rec="hooks_missing"]') !== null`)
	banner, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#banners [data-rec="hooks_missing"]`)))
	require.NoError(t, err)
	assert.Contains(t, banner, "hook install")
	shot("banner")
	eval(`document.querySelector('#banners [data-rec="hooks_missing"] button.dismiss').click()`)
	wait("the banner goes", `document.querySelector('#banners [data-rec="hooks_missing"]') === null`)

	// Activity: a filter narrows the list; a record explains itself.
	eval(`location.hash = "#activity"`)
	wait("activity lists every call", `document.querySelectorAll("#activity tbody tr").length >= 3`)
	eval(`document.querySelector('#filters input[name=server]').value = "slack"; document.querySelector('#filters button[type=submit]').click()`)
	wait("the filter narrows it to slack", `(() => { const rows = [...document.querySelectorAll("#activity tbody tr")];
		return rows.length === 1 && rows[0].textContent.includes("slack/post_message") })()`)
	wait("the export link carries the filter", `document.querySelector("#exports a").href.includes("server=slack")`)
	eval(`document.querySelector("#activity tbody tr").click()`)
	wait("the record's explanation, with its flow evidence", `(() => { const e = document.getElementById("explain");
		return e && e.textContent.includes("deny") && e.textContent.includes("filesystem") })()`)
	wait("in words, as flowd explain says it", `(() => { const p = document.querySelector("#explain pre.explanation");
		return p && p.textContent.includes("data from filesystem/read_text_file") })()`)
	shot("activity")

	// Sessions: the picture has the denied edge; clicking it shows why.
	eval(`location.hash = "#sessions/cc"`)
	wait("the denied edge", `document.querySelector('#session-graph path.edge.deny') !== null`)
	eval(`document.querySelector('#session-graph path.edge.deny').dispatchEvent(new MouseEvent("click", {bubbles: true}))`)
	wait("the edge's evidence", `(() => { const e = document.getElementById("edge");
		return e && e.textContent.includes("filesystem/read_text_file") && e.textContent.includes("slack/post_message") && e.textContent.includes("deny") })()`)
	wait("what matched: the secret's type, never the secret", `(() => { const rows = [...document.querySelectorAll("#edge-matches tr.match")];
		return rows.length > 0 && rows.some(r => r.textContent.startsWith("secret") && r.textContent.includes("secret aws")) })()`)
	shot("session")
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.textContent`))
	require.NoError(t, err)
	assert.NotContains(t, text, judgetest.AWSSecret, "the secret itself is never shown")

	// Quarantine: the content only after "Show content" with the
	// passphrase, as text; a release needs the passphrase too, and a
	// wrong one is refused at both.
	injected := judgetest.BlockText + ` <img id=inj src=x>`
	judgetest.RequireAction(t, d.judge, injected, injection.ActionBlock)
	web := upstream.NewStream(3, shimproto.Hello{Name: "fetch"}, "cc")
	judgetest.Answer(t, d.judge, web, judgetest.FetchCall(7), judgetest.TextResult(7, injected))
	eval(`location.hash = "#quarantine"`)
	wait("the quarantined item, its content hidden", `document.querySelector("[data-quarantine] form.show") !== null &&
		!document.getElementById("quarantine").textContent.includes("Ignore all previous")`)
	eval(`{ const f = document.querySelector("[data-quarantine] form.show"); f.querySelector("input[type=password]").value = "not the passphrase"; f.querySelector("button").click() }`)
	wait("showing without the right passphrase is refused", `document.querySelector("[data-quarantine] form.show span").textContent.startsWith("403")`)
	wait("and shows nothing", `document.querySelector("[data-quarantine] pre.untrusted") === null &&
		!document.getElementById("quarantine").textContent.includes("Ignore all previous")`)
	eval(`{ const f = document.querySelector("[data-quarantine] form.show"); f.querySelector("input[type=password]").value = "` + testPass + `"; f.querySelector("button").click() }`)
	wait("the content, as text", `(() => { const p = document.querySelector("[data-quarantine] pre.untrusted");
		return p && p.textContent.includes("Ignore all previous") && p.textContent.includes("<img id=inj") })()`)
	wait("and not as markup", `document.getElementById("inj") === null`)
	wait("the excerpts, fenced as data", `[...document.querySelectorAll("[data-quarantine] li")].some(li => li.textContent.includes("⟦untrusted data: Ignore all previous"))`)
	wait("the page keeps no passphrase", `[...document.querySelectorAll("[data-quarantine] input[type=password]")].every(i => i.value === "")`)
	eval(`{ const f = document.querySelector("[data-quarantine] form:not(.show)"); f.querySelector("input[type=password]").value = "not the passphrase"; f.querySelector("button").click() }`)
	wait("a release without the right passphrase is refused", `document.querySelector("[data-quarantine] form:not(.show) span").textContent.startsWith("403")`)
	shot("quarantine")
	items, err := d.quarantine.List(0)
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.True(t, items[0].Released.IsZero(), "still quarantined")

	eval(`location.hash = "#status"`)
	wait("status and recommendations", `document.querySelector("#recommendations") !== null && document.querySelector("#status").textContent.includes("proxy_only")`)
	wait("how flowd runs", `(() => { const s = document.getElementById("service");
		return s && s.textContent.includes("on demand") && s.textContent.includes("systemd (user)") && s.textContent.includes("enabled, not running") })()`)
	wait("the config in force", `(() => { const c = document.getElementById("config");
		return c && c.textContent.includes("policy.sensitive_data_external") && c.textContent.includes("'deny'") })()`)
	wait("the exporter's state", `(() => { const x = document.getElementById("exports-state");
		return x && x.textContent.includes("syslog tcp `+collector+`") && x.textContent.includes("queued of") })()`)
	shot("status")
	t.Logf("screenshots in %s", shots)
}

// With [ui] off, or in a system flowd by default, nothing listens and
// flowd ui is told how to turn it on.
func TestDashboardOff(t *testing.T) {
	assert.True(t, config.UI{Enabled: config.UIAuto}.On(false))
	assert.False(t, config.UI{Enabled: config.UIAuto}.On(true), "off by default in a system flowd")
	assert.True(t, config.UI{Enabled: config.UIOn}.On(true))
	assert.False(t, config.UI{Enabled: config.UIOff}.On(false))

	cfg := config.Default()
	cfg.UI.Enabled = config.UIOff
	d, socket, _ := serving(t, cfg)
	assert.Nil(t, d.ui)
	_, err := flowdclient.NewClient(socket, 5*time.Second).UILogin()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `enabled = "on"`)
}
