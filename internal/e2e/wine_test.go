//go:build unix

package e2e

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wine is a private Wine prefix with the Windows binaries built for it.
type wine struct {
	loader                  string // wine64
	env                     []string
	shim, flowd, testserver string // the .exe files as Windows paths
}

// winPath is a host path as Windows programs under Wine see it: Wine maps
// the host's / to drive Z:.
func winPath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

func setupWine(t *testing.T) *wine {
	t.Helper()
	declareSources()
	loader, server := lookWine(t)
	dir := t.TempDir()
	prefix := filepath.Join(dir, "prefix")
	w := &wine{loader: loader,
		// No Mono or Gecko prompts; no Wine debug chatter in the outputs.
		env: []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml="}}

	start := time.Now()
	build := exec.Command("go", append([]string{"build", "-o", dir + "/"}, "./cmd/shim", "./cmd/flowd", "./internal/testserver")...)
	build.Dir = filepath.Join("..", "..")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build for Windows: %s", out)
	w.shim, w.flowd, w.testserver = winPath(filepath.Join(dir, "shim.exe")), winPath(filepath.Join(dir, "flowd.exe")), winPath(filepath.Join(dir, "testserver.exe"))
	t.Logf("built shim.exe, flowd.exe, testserver.exe in %v", time.Since(start).Round(time.Millisecond))

	// A wineserver that outlives each program, started with no pipes of the
	// test's: one started by a program would inherit that program's stdout
	// and keep it open after the program exits.
	start = time.Now()
	require.NoError(t, os.Mkdir(prefix, 0o700), "wineserver wants the prefix to exist")
	w.quiet(t, server, "-p")
	t.Cleanup(func() { w.quiet(t, server, "-k") })
	w.quiet(t, loader, "wineboot", "--init")
	t.Logf("created the Wine prefix in %v", time.Since(start).Round(time.Millisecond))
	provideProcessPrng(t, filepath.Join(prefix, "drive_c", "windows", "system32"), dir)
	return w
}

// lookWine finds the 64-bit loader and its wineserver. Debian's wine64
// package keeps both off PATH; its wine package (a recommend) links them.
func lookWine(t *testing.T) (loader, server string) {
	t.Helper()
	loader, err := exec.LookPath("wine64")
	if err != nil {
		loader = "/usr/lib/wine/wine64"
		if _, err := os.Stat(loader); err != nil {
			missingTool(t, "wine", "wine64 is not on PATH nor at %s: apt-get install wine64 (or bash .ci/run) to run the Windows build", loader)
		}
	}
	for _, name := range []string{"wineserver64", "wineserver"} {
		p := filepath.Join(filepath.Dir(loader), name)
		if _, err := os.Stat(p); err == nil {
			return loader, p
		}
	}
	server, err = exec.LookPath("wineserver")
	if err != nil {
		missingTool(t, "wine", "found %s but no wineserver beside it or on PATH", loader)
	}
	return loader, server
}

// quiet runs a Wine tool with no stdio, bounded.
func (w *wine) quiet(t *testing.T, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), w.env...)
	done := make(chan error, 1)
	require.NoError(t, cmd.Start(), "start %v", argv)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "%v", argv)
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v did not finish within 60s", argv)
	}
}

// provideProcessPrng gives a Wine without it (8.0 has none) the
// bcryptprimitives.dll that Go's runtime loads at start ("fatal error:
// bcryptprimitives.dll not found" otherwise): a DLL whose ProcessPrng is
// Wine's RtlGenRandom (advapi32.SystemFunction036). The arguments match;
// of the BOOL returned, the runtime reads the low byte and crypto/rand
// tests for nonzero, both of which RtlGenRandom's BOOLEAN TRUE satisfies.
func provideProcessPrng(t *testing.T, system32, dir string) {
	t.Helper()
	dll := filepath.Join(system32, "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err == nil {
		return // this Wine has its own
	}
	ld, err := exec.LookPath("x86_64-w64-mingw32-ld")
	if err != nil {
		missingTool(t, "wine", "this Wine lacks bcryptprimitives.dll, which Go programs need, and x86_64-w64-mingw32-ld is not here to make one (%v): apt-get install binutils-mingw-w64-x86-64", err)
	}
	def := filepath.Join(dir, "bcryptprimitives.def")
	require.NoError(t, os.WriteFile(def, []byte("LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng = advapi32.SystemFunction036\n"), 0o600))
	out, err := exec.Command(ld, "-shared", "-o", dll, def).CombinedOutput()
	require.NoError(t, err, "link %s: %s", dll, out)
}

// start runs a Windows program under Wine (see startProc).
func (w *wine) start(t *testing.T, argv []string, env ...string) *proc {
	t.Helper()
	return startProc(t, append([]string{w.loader}, argv...), append(slices.Clone(w.env), env...)...)
}

// run runs a one-shot Windows program under Wine (see runTool).
func (w *wine) run(t *testing.T, timeout time.Duration, argv ...string) (stdout, stderr string, code int) {
	t.Helper()
	out, errb, code := runTool(t, "", timeout, append([]string{w.loader}, argv...), w.env...)
	return string(out), string(errb), code
}

var wineRequests = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wine-e2e","version":"0"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello from wine"}}}`,
}

// converse sends wineRequests through a running shim, closes its stdin
// once the three answers are in (the testserver answers concurrently, so
// in any order) and returns them by id.
func converse(t *testing.T, p *proc) map[string]string {
	t.Helper()
	for _, r := range wineRequests {
		_, err := io.WriteString(p.stdin, r+"\n")
		require.NoError(t, err, "write to the shim")
	}
	answers := map[string]string{}
	for range 3 {
		line := p.readLine(t, 20*time.Second)
		var m struct{ ID json.RawMessage }
		require.NoError(t, json.Unmarshal([]byte(line), &m), "answer %q", line)
		answers[string(m.ID)] = line
	}
	require.NoError(t, p.stdin.Close())
	return answers
}

func assertAnswers(t *testing.T, answers map[string]string) {
	t.Helper()
	assert.Contains(t, answers["1"], `"serverInfo":{"name":"flowd-test-server"`)
	assert.Contains(t, answers["2"], `"name":"echo"`)
	assert.Contains(t, answers["3"], `{"type":"text","text":"hello from wine"}`)
	assert.NotContains(t, answers["3"], `"isError":true`)
}

// TestWine runs the Windows build under Wine, the only Windows this
// project's machines have. Wine 8 (Debian bookworm) has no AF_UNIX
// sockets, so there flowd.exe cannot listen and the round trip skips;
// what does run is the shim's Windows half: starting the upstream .exe,
// relaying its stdio both ways, fail_mode when flowd is unreachable, the
// exit code. It needs `apt-get install wine64 binutils-mingw-w64-x86-64`.
func TestWine(t *testing.T) {
	w := setupWine(t)

	// With no flowd the shim still relays the upstream .exe both ways and
	// says once that messages pass unchecked (fail_mode = open, the default).
	t.Run("relay without flowd", func(t *testing.T) {
		start := time.Now()
		p := w.start(t, []string{w.shim, "--socket", winPath(filepath.Join(t.TempDir(), "flowd.sock")), "--no-autostart", "--", w.testserver})
		assertAnswers(t, converse(t, p))
		assert.Equal(t, 0, p.wait(t, 20*time.Second), "the upstream's exit code on stdin EOF")
		t.Logf("shim.exe conversation took %v", time.Since(start).Round(time.Millisecond))
		assert.Equal(t, 1, strings.Count(p.stderr.String(), "messages pass unchecked (fail_mode=open)"), p.stderr.String())
	})

	// fail_mode = closed from the config file: with flowd unreachable a
	// tools/call is refused with an MCP error result; other methods pass.
	t.Run("fail closed", func(t *testing.T) {
		dir := t.TempDir()
		config := filepath.Join(dir, "flowd.toml")
		require.NoError(t, os.WriteFile(config, []byte("[shim]\nfail_mode = \"closed\"\n"), 0o600))
		p := w.start(t, []string{w.shim, "--socket", winPath(filepath.Join(dir, "flowd.sock")), "--no-autostart", "--", w.testserver},
			"FLOWD_CONFIG="+winPath(config))
		answers := converse(t, p)
		assert.Contains(t, answers["2"], `"name":"echo"`, "tools/list passes")
		assert.Contains(t, answers["3"], `"isError":true`)
		assert.Contains(t, answers["3"], "flowd blocked: flowd is unreachable")
		assert.Equal(t, 0, p.wait(t, 20*time.Second))
	})

	t.Run("exit code", func(t *testing.T) {
		sock := winPath(filepath.Join(t.TempDir(), "flowd.sock"))
		_, stderr, code := w.run(t, 30*time.Second, w.shim, "--socket", sock, "--no-autostart", "--", w.testserver, "--exit", "3")
		assert.Equal(t, 3, code, stderr)
		assert.Contains(t, stderr, "exited with code 3 before sending anything")
	})

	// The real thing: shim.exe and flowd.exe over a Windows AF_UNIX socket,
	// and flowd.exe activity shows the call.
	t.Run("round trip", func(t *testing.T) { wineRoundTrip(t, w) })
}

func wineRoundTrip(t *testing.T, w *wine) {
	sockDir, err := os.MkdirTemp("", "fwine-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	dir := t.TempDir()
	sock, data := winPath(filepath.Join(sockDir, "flowd.sock")), winPath(filepath.Join(dir, "data"))
	config := filepath.Join(dir, "flowd.toml")
	require.NoError(t, os.WriteFile(config, []byte(baseConfig), 0o600))

	start := time.Now()
	f := w.start(t, []string{w.flowd, "run", "--config", winPath(config), "--socket", sock, "--data-dir", data})
	// flowd.exe answers `flowd status` once it listens: poll, bounded.
	for deadline := time.Now().Add(hangBound); ; {
		select {
		case <-f.exited:
			// WSAEAFNOSUPPORT, by number where Wine has no text for it.
			if log := f.stderr.String(); strings.Contains(log, "winapi error #10047") || strings.Contains(log, "address incompatible with the requested protocol") {
				version, _, _ := w.run(t, 10*time.Second, "--version")
				t.Skipf("this Wine (%s) has no AF_UNIX sockets, so flowd.exe cannot listen: %s", strings.TrimSpace(version), strings.TrimSpace(f.stderr.String()))
			}
			t.Fatalf("flowd.exe exited before listening: %v\n%s", f.err, f.stderr)
		default:
		}
		if _, _, code := w.run(t, 10*time.Second, w.flowd, "status", "--socket", sock); code == 0 {
			break
		}
		require.False(t, time.Now().After(deadline), "flowd.exe did not answer on %s within %v\n%s", sock, hangBound, f.stderr)
	}
	t.Logf("flowd.exe listened after %v", time.Since(start).Round(time.Millisecond))

	p := w.start(t, []string{w.shim, "--socket", sock, "--no-autostart", "--", w.testserver})
	assertAnswers(t, converse(t, p))
	assert.Equal(t, 0, p.wait(t, 20*time.Second))
	noShimComplaints(t, p.stderr.String())

	// flowd writes the record after answering the shim: poll, bounded.
	for deadline := time.Now().Add(hangBound); ; {
		out, stderr, code := w.run(t, 20*time.Second, w.flowd, "activity", "--json", "--type", "tool_call", "--socket", sock, "--data-dir", data)
		require.Equal(t, 0, code, "flowd.exe activity: %s", stderr)
		var recs []record
		require.NoError(t, json.Unmarshal([]byte(out), &recs), "flowd.exe activity --json printed %q", out)
		if slices.ContainsFunc(recs, func(r record) bool { return r.Tool == "echo" && r.Verdict == "pass" }) {
			break
		}
		require.False(t, time.Now().After(deadline), "flowd.exe recorded no passed echo call: %+v", recs)
		time.Sleep(100 * time.Millisecond) // another process's store: no signal to wait on
	}
	t.Logf("round trip took %v", time.Since(start).Round(time.Millisecond))
}
