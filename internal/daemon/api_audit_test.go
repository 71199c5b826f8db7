//go:build unix

package daemon

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/auditkey"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// flowd makes its audit key on first start, checks the chain's tail then
// (status says so), and verifies the whole chain on request.
func TestAuditKeyStatusAndVerify(t *testing.T) {
	d, socket, _ := serving(t, config.Default())
	fi, err := os.Stat(filepath.Join(d.dataDir, auditkey.PrivateFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	for range 5 {
		d.store.Append(activity.Record{Type: activity.TypeToolCall, Server: "fs"})
	}
	require.NoError(t, d.store.Flush())

	c := flowdclient.NewClient(socket, 0)
	st, err := c.Status()
	require.NoError(t, err)
	require.NotNil(t, st.Audit)
	assert.True(t, st.Audit.Verified, "%+v", st.Audit)

	rep, err := c.AuditVerify(0, nil)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 5, rep.Records)

	hc := apiClient(socket)
	assert.Equal(t, http.StatusBadRequest, get(t, hc, "/api/v1/audit/verify?from=x").StatusCode)
	assert.Equal(t, http.StatusBadRequest, get(t, hc, "/api/v1/audit/verify?key=short").StatusCode)
	var r activity.Report
	require.NoError(t, json.NewDecoder(get(t, hc, "/api/v1/audit/verify?from=3").Body).Decode(&r))
	assert.Equal(t, 3, r.Records)
}
