//go:build unix

package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// Found by a red team (RT5-5): with no passphrase set (the default until
// the user sets one), an agent's shell set the first passphrase through
// the socket and then approved its own way out. The first one is set only
// while no agent session is live: no MCP server connected through flowd
// and no agent tool call for approval.AgentQuiet. Through the real socket.
func TestFirstPassphraseNotWhileAnAgentIsLive(t *testing.T) {
	t.Run("an MCP server connected", func(t *testing.T) {
		_, socket, _ := serving(t, config.Default())
		shimClient(t, socket)
		c := flowdclient.NewClient(socket, 30*time.Second)
		// Listed once its hello is through, which may be after the welcome.
		require.Eventually(t, func() bool {
			st, err := c.Status()
			return err == nil && len(st.Shims) == 1
		}, time.Minute, 10*time.Millisecond)
		err := c.SetPassphrase("", testPass)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "1 MCP server(s) are connected")
		assert.Contains(t, err.Error(), "quit your agents")
		st, err := c.Status()
		require.NoError(t, err)
		assert.False(t, st.ApprovalPassphrase)
	})
	t.Run("an agent's tool call just now", func(t *testing.T) {
		_, socket, _ := serving(t, config.Default())
		body, err := json.Marshal(hookproto.Request{Agent: "claude-code", Event: "PreToolUse", Session: sessionid.Hints{Explicit: "s1"},
			Payload: json.RawMessage(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp"}`)})
		require.NoError(t, err)
		hc := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
			return localsock.Dial(socket, 30*time.Second)
		}}}
		resp, err := hc.Post("http://flowd"+hookproto.Path, "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
		err = flowdclient.NewClient(socket, 30*time.Second).SetPassphrase("", testPass)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "an agent's last tool call was")
	})
	t.Run("an agent's tool call logged before flowd restarted", func(t *testing.T) {
		d, socket, _ := serving(t, config.Default())
		d.store.Append(activity.Record{Type: activity.TypeHookEvaluation, Session: "s1", Tool: "Bash"})
		require.NoError(t, d.store.Flush())
		err := flowdclient.NewClient(socket, 30*time.Second).SetPassphrase("", testPass)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "an agent's last tool call was")
	})
	t.Run("no agent around: set, and who set it shown", func(t *testing.T) {
		_, socket, _ := serving(t, config.Default())
		c := flowdclient.NewClient(socket, 30*time.Second)
		require.NoError(t, c.SetPassphrase("", testPass))
		st, err := c.Status()
		require.NoError(t, err)
		assert.True(t, st.ApprovalPassphrase)
		assert.WithinDuration(t, time.Now(), st.PassphraseSince, time.Minute)
		// The test binary asked: its pid and name, then its parents.
		assert.Contains(t, st.PassphraseBy, " "+strconv.Itoa(os.Getpid())+" ← ")
		recs, err := c.Activity(activity.Filter{Type: activity.TypePassphraseSet})
		require.NoError(t, err)
		require.Len(t, recs, 1)
		assert.Contains(t, recs[0].Reason, "approval passphrase set by "+st.PassphraseBy)
		// A change needs the old passphrase, with agents around or not.
		shimClient(t, socket)
		require.NoError(t, c.SetPassphrase(testPass, "another long passphrase"))
	})
}

// RT6-3: reading quarantined text takes the passphrase a release takes,
// and a wrong guess at either counts against the one lockout: an agent
// cannot guess through the view while the release is locked, nor the
// other way round. Over the real socket, as any process of the user's.
func TestViewGuessesCountAgainstTheApprovalLockout(t *testing.T) {
	d, socket, _ := serving(t, config.Default())
	c := flowdclient.NewClient(socket, 30*time.Second)
	require.NoError(t, c.SetPassphrase("", testPass))
	judgetest.Answer(t, d.judge, upstream.NewStream(1, shimproto.Hello{Name: "fetch"}, "s"), judgetest.FetchCall(1),
		judgetest.TextResult(1, judgetest.BlockText))

	status := func(err error) int {
		t.Helper()
		var e *flowdclient.Error
		require.ErrorAs(t, err, &e)
		return e.Code
	}
	_, err := c.QuarantineContent("q1", "")
	assert.Equal(t, 403, status(err), "no passphrase")
	_, err = c.QuarantineContent("q1", "an agent's guess")
	assert.Equal(t, 403, status(err))
	_, err = c.Release("q1", "another guess")
	assert.Equal(t, 403, status(err))
	// Three wrong, whichever the door: both are shut, to the right one too.
	_, err = c.QuarantineContent("q1", testPass)
	assert.Equal(t, 429, status(err), "the view is locked after guesses at both")
	assert.ErrorContains(t, err, "too many wrong passphrases")
	_, err = c.Release("q1", testPass)
	assert.Equal(t, 429, status(err), "and so is the release")

	// Past the pause, the passphrase's holder reads it.
	d.approvals.Now = func() time.Time { return time.Now().Add(time.Minute) }
	it, err := c.QuarantineContent("q1", testPass)
	require.NoError(t, err)
	assert.Contains(t, it.Content, "id_rsa")
}

// Found by a red team (#15): a program an agent left in the background
// waits until no agent is live and sets the first passphrase itself.
// Once an agent has acted through flowd, the API sets no first
// passphrase however quiet it is; the user opens the way again with
// their agents quit and flowd stopped, by removing flowd's note of it.
func TestFirstPassphraseNotOnceAnAgentHasRun(t *testing.T) {
	d, socket, _ := serving(t, config.Default())
	c := flowdclient.NewClient(socket, 30*time.Second)
	// An agent's MCP server connects and goes without a tool call: no
	// agent is live, and none has called a tool.
	conn, _, _ := shimClient(t, socket)
	conn.Close()
	require.Eventually(t, func() bool {
		st, err := c.Status()
		return err == nil && len(st.Shims) == 0
	}, time.Minute, 10*time.Millisecond)

	err := c.SetPassphrase("", testPass)
	var e *flowdclient.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 409, e.Code)
	assert.Contains(t, err.Error(), "only before any agent has run through flowd")
	note := filepath.Join(d.dataDir, "agent-seen")
	assert.Contains(t, err.Error(), "stop flowd (flowd stop), remove "+note)
	st, err := c.Status()
	require.NoError(t, err)
	assert.False(t, st.ApprovalPassphrase)

	// The note alone shuts it: a new flowd that saw nothing reads it.
	d.mu.Lock()
	clear(d.agentsSeen)
	d.mu.Unlock()
	assert.Error(t, c.SetPassphrase("", testPass), "the note kept for good")
	// The user, with flowd stopped (here: its memory cleared), removes it.
	require.NoError(t, os.Remove(note))
	require.NoError(t, c.SetPassphrase("", testPass))
}
