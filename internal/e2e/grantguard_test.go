//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Found by a red team (RT4-8): a grant lets a tool's calls go ahead of their verdict once one
// call to it got a standing decision (allowed, internal, nothing written
// or run). move_file writes no content, so it earns one; the shim then
// checks later calls only for suspicious hosts and key files, not for
// flowd's own files: a move of flowd's config went out before the
// self-protection verdict that would refuse it. The grant now names
// flowd's files, and a call naming one waits for its verdict.
func TestGrantDoesNotOutrunSelfProtection(t *testing.T) {
	tools := toolsDir(t)
	root := func(f *flowd) string { return filepath.Dir(f.dataDir) }
	move := func(id int, from, to string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"move_file","arguments":{"source":%s,"destination":%s}}}`,
			id, jsonText(from), jsonText(to))
	}

	// Control: the same move as a first call is refused.
	f := startFlowd(t, "")
	s := newSession(t, f.shim(nodeBin(t), filesystemJS(tools), root(f)))
	line := s.roundTrip(move(1, f.config, filepath.Join(root(f), "moved.toml")))
	require.Contains(t, line, "flowd blocked", "control")
	require.FileExists(t, f.config)
	s.close()

	f = startFlowd(t, "")
	s = newSession(t, f.shim(nodeBin(t), filesystemJS(tools), root(f)))
	defer s.close()
	a := filepath.Join(root(f), "a.txt")
	require.NoError(t, os.WriteFile(a, []byte("x"), 0o600))
	for i := 1; i <= 3; i++ { // a grant comes with the verdict on a standing call; one or two are enough
		b := filepath.Join(root(f), fmt.Sprintf("b%d.txt", i))
		line := s.roundTrip(move(i, a, b))
		require.NotContains(t, line, "flowd blocked", "a plain move is allowed")
		a = b
	}
	line = s.roundTrip(move(10, f.config, filepath.Join(root(f), "moved.toml")))
	if _, err := os.Stat(f.config); err != nil {
		t.Errorf("flowd's config was moved away under a grant: %v; answer %.300s", err, line)
	} else {
		t.Logf("refused: %.200s", line)
	}
}

// The same for reads: flowd's passphrase verifier (approval.json) is
// refused to the agent by self-protection, and was read under a grant.
func TestGrantDoesNotOutrunASecretRead(t *testing.T) {
	tools := toolsDir(t)
	f := startFlowd(t, "")
	root := filepath.Dir(f.dataDir)
	secret := filepath.Join(f.dataDir, "approval.json")
	if _, err := os.Stat(secret); err != nil {
		require.NoError(t, os.WriteFile(secret, []byte(`{"verifier":"pbkdf2$stand-in"}`), 0o600))
	}
	read := func(id int, p string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":%s}}}`, id, jsonText(p))
	}
	s := newSession(t, f.shim(nodeBin(t), filesystemJS(tools), root))
	defer s.close()
	require.Contains(t, s.roundTrip(read(1, secret)), "flowd blocked", "control: a first read is refused")
	a := filepath.Join(root, "a.txt")
	require.NoError(t, os.WriteFile(a, []byte("hello"), 0o600))
	for i := 2; i <= 4; i++ {
		require.NotContains(t, s.roundTrip(read(i, a)), "flowd blocked")
	}
	if line := s.roundTrip(read(10, secret)); !strings.Contains(line, "flowd blocked") {
		t.Errorf("flowd's approval.json was read under a grant: %.300s", line)
	}
}
