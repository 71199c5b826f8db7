package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/auditkey"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// flowd audit verify, with flowd not running, reads the store: exit 0 on
// an honest log, 1 naming the record changed in the file, and a forged
// checkpoint fails against the key the user kept.
func TestAuditVerifyOffline(t *testing.T) {
	t.Setenv("FLOWD_SOCKET", "/nonexistent/flowd.sock")
	dir := t.TempDir()
	key, err := auditkey.LoadOrCreate(dir)
	require.NoError(t, err)
	path := filepath.Join(dir, "activity.db")
	s, err := activity.Open(path, activity.Options{Key: key})
	require.NoError(t, err)
	for range 4 {
		s.Append(activity.Record{Type: activity.TypeToolCall, Server: "github"})
	}
	require.NoError(t, s.Close())

	var out bytes.Buffer
	require.NoError(t, cmdAudit([]string{"verify", "--data-dir", dir}, &out))
	assert.Contains(t, out.String(), "verified: 4 chained records from #1, signed through chain position 4")

	out.Reset()
	require.NoError(t, cmdAudit([]string{"key", "--data-dir", dir}, &out))
	pub, err := auditkey.ParsePublic(out.Bytes())
	require.NoError(t, err)
	assert.True(t, pub.Equal(key.Public()))
	kept := filepath.Join(t.TempDir(), "kept.pub")
	require.NoError(t, os.WriteFile(kept, out.Bytes(), 0o644))

	// Someone with write access to the file changes record 2.
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("activity"))
		k := []byte{0, 0, 0, 0, 0, 0, 0, 2}
		return b.Put(k, bytes.Replace(b.Get(k), []byte(`"github"`), []byte(`"gitlab"`), 1))
	}))
	require.NoError(t, db.Close())

	out.Reset()
	assert.Equal(t, exitError(1), cmdAudit([]string{"verify", "--data-dir", dir}, &out))
	assert.Contains(t, out.String(), "TAMPERED")
	assert.Contains(t, out.String(), "first bad: record #2 (chain position 2) changed")

	out.Reset()
	assert.Equal(t, exitError(1), cmdAudit([]string{"verify", "--data-dir", dir, "--json"}, &out))
	var rep activity.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.Equal(t, uint64(2), rep.FirstBad().ID)

	out.Reset()
	require.NoError(t, cmdAudit([]string{"verify", "--data-dir", dir, "--from", "3", "--key", kept}, &out), out.String())

	// A key swapped into the data dir (with checkpoints re-signed by it)
	// does not fool a verifier that kept the real public key: here, the
	// real checkpoints fail against the swapped key.
	other, err := auditkey.LoadOrCreate(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(kept, auditkey.EncodePublic(other.Public().(ed25519.PublicKey)), 0o644))
	out.Reset()
	assert.Equal(t, exitError(1), cmdAudit([]string{"verify", "--data-dir", dir, "--from", "3", "--key", kept}, &out))
	assert.True(t, strings.Contains(out.String(), "forged"), out.String())

	assert.Equal(t, exitError(2), cmdAudit([]string{"verify", "--from", "x"}, &out))
	assert.Equal(t, exitError(2), cmdAudit([]string{"frobnicate"}, &out))
	assert.Equal(t, exitError(0), cmdAudit([]string{"verify", "-h"}, &out))
}

// After a flood of routine records, verify still passes, keeps the
// denied one, and says what retention pruned of which kind (RT7-8).
func TestAuditVerifySaysWhatRetentionPruned(t *testing.T) {
	t.Setenv("FLOWD_SOCKET", "/nonexistent/flowd.sock")
	dir := t.TempDir()
	key, err := auditkey.LoadOrCreate(dir)
	require.NoError(t, err)
	s, err := activity.Open(filepath.Join(dir, "activity.db"), activity.Options{Key: key, MaxRecords: 3, MaxNotable: 1})
	require.NoError(t, err)
	for _, d := range []string{"allow", "deny", "allow", "allow", "ask", "allow", "allow", "allow", "allow"} {
		s.Append(activity.Record{Type: activity.TypeHookEvaluation, Decision: d})
		require.NoError(t, s.Flush())
	}
	require.NoError(t, s.Close())

	var out bytes.Buffer
	require.NoError(t, cmdAudit([]string{"verify", "--data-dir", dir}, &out), out.String())
	assert.Contains(t, out.String(), "verified: 4 chained records")
	assert.Contains(t, out.String(), "retention pruned 0 routine records by age, 4 by count; 0 notable records by age, 1 by count")
	assert.Contains(t, out.String(), "NOTABLE records pruned by count went before max_age")
}

func TestAuditStatusLine(t *testing.T) {
	ok := &activity.Report{Records: 3}
	bad := &activity.Report{Problems: []activity.Problem{{Kind: activity.ProblemDeleted, Seq: 7, Detail: "gone"}}}
	for _, tc := range []struct {
		check *flowdclient.AuditCheck
		want  string
	}{
		{nil, ""},
		{&flowdclient.AuditCheck{Verified: true, Report: ok}, "chain verified at start (3 records since the last checkpoint)"},
		{&flowdclient.AuditCheck{Report: ok, Error: "key readable by others"}, "NOT SIGNING: key readable by others"},
		{&flowdclient.AuditCheck{Report: bad}, "TAMPERED: the activity log's chain did not verify at start: chain position 7 deleted: gone"},
		{&flowdclient.AuditCheck{Error: "disk on fire"}, "NOT CHECKED at start: disk on fire"},
	} {
		got := auditLine(tc.check)
		if tc.want == "" {
			assert.Empty(t, got)
			continue
		}
		assert.Contains(t, got, tc.want)
	}
}
