//go:build unix

package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// installCmd is what installs the npm tools and Claude Code; the skip of
// a test that lacks them names it.
const installCmd = "bash .ci/install-tools"

// requireEnv lists the tools whose absence fails a test instead of
// skipping it: .ci/run sets it to what it installed, so that a broken
// install cannot pass as a skip.
const requireEnv = "FLOWD_REQUIRE_TOOLS"

// missingTool skips the test, saying why in one line, unless the tool is
// one requireEnv names: then the test fails.
func missingTool(t *testing.T, tool, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if slices.Contains(strings.Fields(os.Getenv(requireEnv)), tool) {
		t.Fatalf("%s (%s names %s, so it must be here)", msg, requireEnv, tool)
	}
	t.Skip(msg)
}

// installed reports why dir does not hold a complete install of the npm
// lock file in lockDir, or "" when it does. An install is complete once
// it wrote stamp, the hash of the lock file it installed; a dir without
// it may hold part of an install (an interrupted npm ci, or packages put
// there by hand), which the tests must not run on.
func installed(dir, stamp, lockDir string) string {
	want, err := lockHash(lockDir)
	if err != nil {
		return err.Error()
	}
	got, err := os.ReadFile(filepath.Join(dir, stamp))
	switch {
	case os.IsNotExist(err):
		return "not installed, or not completely"
	case err != nil:
		return err.Error()
	case strings.TrimSpace(string(got)) != want:
		return "installed from another lock file"
	}
	return ""
}

// lockHash is the stamp of an install of the npm lock file in dir: the
// SHA-256 of package.json followed by package-lock.json, as
// .ci/install-tools computes it.
func lockHash(dir string) (string, error) {
	h := sha256.New()
	for _, name := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", fmt.Errorf("read the lock file: %w", err)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cacheDir is the value of env, else ~/.cache/name: where
// .ci/install-tools puts an install.
func cacheDir(t *testing.T, env, name string) string {
	t.Helper()
	if dir := os.Getenv(env); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatalf("find the home directory for the default %s: %v", env, err)
	}
	return filepath.Join(home, ".cache", name)
}
