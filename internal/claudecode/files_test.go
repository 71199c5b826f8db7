package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstallUninstallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	require.NoError(t, os.WriteFile(path, []byte(realistic), 0o600))
	bin := filepath.Join(dir, "hook")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))

	ch, err := Install(path, HookOptions{Binary: bin})
	require.NoError(t, err)
	assert.True(t, ch.Changed)
	assert.Equal(t, path+BackupSuffix, ch.Backup)
	backup, err := os.ReadFile(ch.Backup)
	require.NoError(t, err)
	assert.Equal(t, realistic, string(backup))
	assertMode(t, 0o600, path)
	assertMode(t, 0o600, ch.Backup)
	installed, err := os.ReadFile(path)
	require.NoError(t, err)

	// Twice is once: no write, so the backup still holds the original.
	ch, err = Install(path, HookOptions{Binary: bin})
	require.NoError(t, err)
	assert.False(t, ch.Changed)
	assert.Empty(t, ch.Backup)
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, installed, again)

	in, err := Inspect(path)
	require.NoError(t, err)
	assert.True(t, in.Exists)
	require.Len(t, in.Entries, 3)
	for _, e := range in.Entries {
		assert.Equal(t, bin, e.Binary)
		assert.True(t, e.BinaryExists)
	}
	require.NoError(t, os.Remove(bin))
	in, err = Inspect(path)
	require.NoError(t, err)
	assert.False(t, in.Entries[0].BinaryExists, "a moved binary shows")

	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.True(t, ch.Changed)
	assert.Equal(t, 3, ch.Removed)
	restored, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, realistic, string(restored))
	assertMode(t, 0o600, path)
	backup, err = os.ReadFile(path + BackupSuffix)
	require.NoError(t, err)
	assert.Equal(t, installed, backup)

	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.False(t, ch.Changed)

	left, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{path, path + BackupSuffix}, left, "no temporary files are left")
}

func TestInstallNewFile(t *testing.T) {
	dir := t.TempDir()
	path, err := SettingsPath(Local, dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, ".claude", "settings.local.json"), path)

	ch, err := Uninstall(path)
	require.NoError(t, err)
	assert.False(t, ch.Changed)
	assert.NoFileExists(t, path, "uninstall does not create the file")

	ch, err = Install(path, HookOptions{Binary: "/usr/bin/hook"})
	require.NoError(t, err)
	assert.True(t, ch.Changed)
	assert.Empty(t, ch.Backup, "nothing to back up")
	assertMode(t, 0o644, path)
	in, err := Inspect(path)
	require.NoError(t, err)
	assert.Len(t, in.Entries, 3)
}

func TestInstallThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude-settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
	require.NoError(t, os.WriteFile(target, []byte("{}\n"), 0o640))
	link := filepath.Join(dir, "settings.json")
	require.NoError(t, os.Symlink(target, link))

	ch, err := Install(link, HookOptions{Binary: "/usr/bin/hook"})
	require.NoError(t, err)
	assert.Equal(t, target, ch.Path)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link stays a link")
	assertMode(t, 0o640, target)
	in, err := Inspect(link)
	require.NoError(t, err)
	assert.Len(t, in.Entries, 3)
}

func TestInstallRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	_, err := Install(path, HookOptions{Binary: "hook"})
	assert.ErrorContains(t, err, "absolute path")

	broken := "{\"model\": \"opus\",,}\n"
	require.NoError(t, os.WriteFile(path, []byte(broken), 0o644))
	_, err = Install(path, HookOptions{Binary: "/usr/bin/hook"})
	assert.ErrorContains(t, err, "was not changed")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, broken, string(b))
	assert.NoFileExists(t, path+BackupSuffix)
}

func TestSettingsPath(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg/claude")
	p, err := SettingsPath(User, "ignored")
	require.NoError(t, err)
	assert.Equal(t, "/cfg/claude/settings.json", p)

	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("HOME", "/home/u")
	p, err = SettingsPath(User, "")
	require.NoError(t, err)
	assert.Equal(t, "/home/u/.claude/settings.json", p)

	p, err = SettingsPath(Project, "/repo")
	require.NoError(t, err)
	assert.Equal(t, "/repo/.claude/settings.json", p)

	_, err = ParseScope("managed")
	assert.Error(t, err)
	s, err := ParseScope("local")
	require.NoError(t, err)
	assert.Equal(t, Local, s)
}

func assertMode(t *testing.T, want os.FileMode, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, want, fi.Mode().Perm(), path)
}
