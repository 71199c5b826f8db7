package clientconfig

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// install copies a fixture into a fresh directory with the given mode.
func install(t *testing.T, fixture string, mode fs.FileMode) (dir, path string, orig []byte) {
	t.Helper()
	orig = read(t, filepath.Join("testdata", fixture))
	dir = t.TempDir()
	path = filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(path, orig, mode))
	require.NoError(t, os.Chmod(path, mode)) // past the umask
	return dir, path, orig
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.Mode().Perm()
}

func TestWrapFileAndBack(t *testing.T) {
	for _, perm := range []fs.FileMode{0o600, 0o644} {
		dir, path, orig := install(t, "claude_code.json", perm)

		f, err := WrapFile(path, claudeJSON, testShim, false)
		require.NoError(t, err)
		assert.True(t, f.Written)
		assert.Equal(t, path+BackupSuffix, f.Backup)
		assert.Equal(t, string(read(t, "testdata/wrapped/claude_code.json")), string(read(t, path)))
		assert.Equal(t, string(orig), string(read(t, f.Backup)))
		assert.Equal(t, []string{"config.json", "config.json.bak-flowd"}, names(t, dir), "no temporary file left")
		if runtime.GOOS == "windows" {
			t.Log("not checking file modes: Windows has none to keep")
		} else {
			assert.Equal(t, perm, mode(t, path))
			assert.Equal(t, perm, mode(t, f.Backup), "the backup holds the same tokens as the file")
		}

		u, err := UnwrapFile(path, claudeJSON, false)
		require.NoError(t, err)
		assert.True(t, u.Written)
		assert.Equal(t, string(orig), string(read(t, path)))
		assert.Equal(t, string(read(t, "testdata/wrapped/claude_code.json")), string(read(t, u.Backup)))
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir, path, orig := install(t, "claude_desktop.json", 0o600)
	f, err := WrapFile(path, claudeJSON, testShim, true)
	require.NoError(t, err)
	assert.True(t, f.Changed())
	assert.False(t, f.Written)
	assert.Empty(t, f.Backup)
	assert.Equal(t, string(read(t, "testdata/wrapped/claude_desktop.json")), string(f.Out))
	assert.Equal(t, string(orig), string(read(t, path)))
	assert.Equal(t, []string{"config.json"}, names(t, dir))

	var out bytes.Buffer
	f.Report(&out)
	assert.Contains(t, out.String(), "  filesystem: would be wrapped\n"+
		"    - npx -y @modelcontextprotocol/server-filesystem /Users/zoë/Documents /Users/zoë/Desktop\n"+
		"    + /usr/local/bin/shim --name filesystem -- npx -y @modelcontextprotocol/server-filesystem /Users/zoë/Documents /Users/zoë/Desktop\n")
	assert.Contains(t, out.String(), "    - /opt/homebrew/bin/uvx mcp-server-notes --dir '~/メモ & <notes>'\n")
	assert.Contains(t, out.String(), "  linear: skipped, remote server (has a url)\n")
	assert.Contains(t, out.String(), "  memory: skipped, already wrapped\n")
	assert.Contains(t, out.String(), "  dry run: nothing written\n")

	u, err := UnwrapFile(path, claudeJSON, true)
	require.NoError(t, err)
	assert.True(t, u.Changed(), "memory is wrapped")
	assert.Equal(t, string(orig), string(read(t, path)))
	assert.Equal(t, []string{"config.json"}, names(t, dir))
}

func TestUnchangedFileIsNotRewritten(t *testing.T) {
	dir, path, _ := install(t, "cursor.json", 0o644)
	_, err := WrapFile(path, claudeJSON, testShim, false)
	require.NoError(t, err)
	require.NoError(t, os.Remove(path+BackupSuffix))
	before, err := os.Stat(path)
	require.NoError(t, err)

	f, err := WrapFile(path, claudeJSON, testShim, false)
	require.NoError(t, err)
	assert.False(t, f.Written)
	assert.Equal(t, []string{"config.json"}, names(t, dir), "no backup of an unchanged file")
	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the file was replaced")

	var out bytes.Buffer
	f.Report(&out)
	assert.Contains(t, out.String(), "  nothing to change\n")
}

func TestWrapFileEditsSymlinkTarget(t *testing.T) {
	dir, target, _ := install(t, "project_mcp.json", 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make a symlink here: %v", err)
	}
	f, err := WrapFile(link, claudeJSON, testShim, false)
	require.NoError(t, err)
	assert.Equal(t, target, f.Path)
	assert.Equal(t, target+BackupSuffix, f.Backup)
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, info.Mode().Type(), "the link was replaced by a file")
	assert.Equal(t, string(read(t, "testdata/wrapped/project_mcp.json")), string(read(t, link)))
}

func TestWrapFileErrors(t *testing.T) {
	_, err := WrapFile(filepath.Join(t.TempDir(), "missing.json"), claudeJSON, testShim, false)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	dir, path, orig := install(t, "comment.json", 0o644)
	_, err = WrapFile(path, claudeJSON, testShim, false)
	assert.ErrorContains(t, err, path+": line 3, column 5: comments are not allowed in JSON")
	assert.Equal(t, string(orig), string(read(t, path)))
	assert.Equal(t, []string{"config.json"}, names(t, dir))
}

// A client that rewrites its file between flowd's read and write keeps
// its change.
func TestWriteAtomicRefusesAFileChangedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(path, []byte("client's new version"), 0o600))
	err := writeAtomic(path, []byte("flowd's"), 0o600, []byte("what flowd read"))
	assert.ErrorContains(t, err, "changed while flowd edited it")
	assert.Equal(t, "client's new version", string(read(t, path)))
	assert.Equal(t, []string{"c.json"}, names(t, dir))
}

func TestReportEmptyAndWritten(t *testing.T) {
	var out bytes.Buffer
	File{Path: "/x"}.Report(&out)
	assert.Equal(t, "  no MCP servers\n", out.String())

	out.Reset()
	File{Written: true, Backup: "/x.bak-flowd", Result: Result{Servers: []Server{{
		Project: "/home/ana/src/api", Name: "pg", Action: Unwrapped,
		Old: []string{"/s/shim", "--name", "pg", "--", "npx", ""}, New: []string{"npx", ""},
	}}}}.Report(&out)
	assert.Equal(t, "  pg (project /home/ana/src/api): unwrapped\n"+
		"    - /s/shim --name pg -- npx ''\n"+
		"    + npx ''\n"+
		"  written; the previous version is in /x.bak-flowd\n", out.String())
}

// The TOML and YAML files get the same backup, and the same restore.
func TestWrapFileOtherSyntaxes(t *testing.T) {
	for _, fx := range []struct {
		file   string
		format Format
	}{{"clients/codex_config.toml", codexTOML}, {"clients/continue_block.yaml", continueYML}} {
		_, path, orig := install(t, fx.file, 0o600)
		f, err := WrapFile(path, fx.format, testShim, false)
		require.NoError(t, err)
		require.True(t, f.Written)
		assert.Equal(t, string(orig), string(read(t, f.Backup)))
		assert.Equal(t, string(read(t, filepath.Join("testdata", filepath.Dir(fx.file), "wrapped", filepath.Base(fx.file)))), string(read(t, path)))
		again, err := WrapFile(path, fx.format, testShim, false)
		require.NoError(t, err)
		assert.False(t, again.Written, "wrapping twice writes nothing")
	}
}
