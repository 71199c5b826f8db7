//go:build linux

package main

import (
	"bytes"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flowd ui hands the browser the one-time URL through a file only this
// user can read (xdg-open's command line never holds the code), or
// prints it where no browser can be opened; the URL logs a browser in.
func TestUI(t *testing.T) {
	socket, _, _ := startDaemon(t)
	bin, cache := t.TempDir(), t.TempDir()
	argv := filepath.Join(bin, "argv")
	require.NoError(t, os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\necho \"$@\" > "+argv+"\n"), 0o755))
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("DISPLAY", ":99")

	var out bytes.Buffer
	require.NoError(t, cmdUI([]string{"--socket", socket}, &out))
	assert.Contains(t, out.String(), "open in your browser")
	opened, err := os.ReadFile(argv)
	require.NoError(t, err)
	page := filepath.Join(cache, "flowd", "ui-open.html")
	assert.Equal(t, page+"\n", string(opened))
	info, err := os.Stat(page)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	body, err := os.ReadFile(page)
	require.NoError(t, err)
	loginURL := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/login\?code=[\w-]+)`).FindSubmatch(body)
	require.NotNil(t, loginURL, "%s", body)

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(string(loginURL[1]))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	base := regexp.MustCompile(`^http://127\.0\.0\.1:\d+`).FindString(string(loginURL[1]))
	resp, err = c.Get(base + "/api/v1/status")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "logged in")

	// No graphical session: the URL is printed.
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	out.Reset()
	require.NoError(t, cmdUI([]string{"--socket", socket}, &out))
	assert.Regexp(t, `no graphical session.*\nhttp://127\.0\.0\.1:\d+/login\?code=`, out.String())
}
