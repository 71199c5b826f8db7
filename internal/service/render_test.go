package service

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var (
	userLayout = Layout{Executable: "/home/ann/.local/bin/flowd", Config: "/home/ann/.config/flowd/config.toml",
		Socket: "/run/user/1000/flowd/flowd.sock", DataDir: "/home/ann/.local/state/flowd",
		LogFile: "/Users/ann/Library/Logs/flowd.log"}
	systemLayout = DefaultLayout(System, "/usr/local/bin/flowd")
)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(p, got, 0o644))
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err, "run go test ./internal/service -update to create it")
	assert.Equal(t, string(want), string(got), "rendered %s differs from %s (go test -update rewrites it)", name, p)
}

func TestSystemdUnitsMatchGolden(t *testing.T) {
	for _, tt := range []struct {
		scope  Scope
		layout Layout
		want   []string
	}{
		{User, userLayout, []string{"/u/flowd.service", "/u/flowd.socket"}},
		{System, systemLayout, []string{"/u/flowd.service", "/u/flowd.socket", "/s/flowd.conf"}},
	} {
		t.Run(string(tt.scope), func(t *testing.T) {
			files, err := systemdFiles(tt.scope, tt.layout, "/u", "/s")
			require.NoError(t, err)
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
				golden(t, string(tt.scope)+"-"+filepath.Base(f.Path), f.Content)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLaunchdPlistMatchesGoldenAndParses(t *testing.T) {
	l := userLayout
	l.DataDir = "/Users/ann/Library/Application Support/flowd & co" // spaces and XML specials survive
	b, err := launchdPlist(l)
	require.NoError(t, err)
	golden(t, "flowd.plist", b)

	// Walk the plist: it must be well-formed XML whose strings read back as
	// the paths that went in.
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	var strs []string
	var inString bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			inString = tok.Name.Local == "string"
		case xml.EndElement:
			inString = false
		case xml.CharData:
			if inString {
				strs = append(strs, string(tok))
			}
		}
	}
	assert.Equal(t, []string{Name, l.Executable, "run", "--config", l.Config, "--socket", l.Socket,
		"--data-dir", l.DataDir, "Interactive", l.LogFile}, strs)
}

func TestUnitPathRefusesWhatSystemdWouldReinterpret(t *testing.T) {
	for _, tt := range []struct{ in, want, err string }{
		{"/run/user/1000/flowd/flowd.sock", "/run/user/1000/flowd/flowd.sock", ""},
		{"/home/50%/flowd", "/home/50%%/flowd", ""},
		{"/home/ann b/flowd", "", `contains ' '`},
		{"/home/$USER/flowd", "", `contains '$'`},
		{`/home/a"b`, "", `contains '"'`},
		{"/home/a\tb", "", `contains '\t'`},
		{`/home/a\b`, "", `contains '\\'`},
	} {
		got, err := unitPath(tt.in)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
	_, err := systemdFiles(User, Layout{Executable: "flowd", Config: "/c", Socket: "/s", DataDir: "/d"}, "/u", "/s")
	assert.ErrorContains(t, err, `executable path "flowd" is not absolute`)
}

// systemd-analyze verify loads the units as systemd would and reports
// unknown settings, bad values and missing executables.
func TestSystemdAnalyzeVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not on PATH (Debian package systemd): units checked by the golden files only")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	for _, scope := range []Scope{User, System} {
		t.Run(string(scope), func(t *testing.T) {
			dir := t.TempDir()
			l := DefaultLayout(scope, exe)
			if scope == User {
				l = Layout{Executable: exe, Config: filepath.Join(dir, "config.toml"),
					Socket: filepath.Join(dir, "run", "flowd.sock"), DataDir: filepath.Join(dir, "data")}
			}
			files, err := systemdFiles(scope, l, dir, dir)
			require.NoError(t, err)
			for _, f := range files {
				require.NoError(t, writeFile(f))
			}
			args := []string{"verify", "--man=no"}
			if scope == User {
				args = append(args, "--user")
			}
			cmd := exec.Command(analyze, append(args, files[0].Path, files[1].Path)...)
			// A user manager needs a runtime directory, even to verify.
			cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir())
			out, err := cmd.CombinedOutput()
			t.Logf("systemd-analyze %s:\n%s", strings.Join(args, " "), out)
			assert.NoError(t, err)
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, "flowd.") {
					assert.Fail(t, "systemd-analyze complains about a flowd unit", line)
				}
			}
		})
	}
}
