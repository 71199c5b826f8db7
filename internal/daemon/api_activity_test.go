//go:build unix

package daemon

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// apiClient is an HTTP client that reaches the flowd at socket.
func apiClient(socket string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
}

func get(t *testing.T, hc *http.Client, path string) *http.Response {
	t.Helper()
	resp, err := hc.Get("http://flowd" + path)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Pages follow each other through the Link header, without gaps or
// repeats; exports stream the whole store, oldest first.
func TestActivityPagesAndExport(t *testing.T) {
	d, socket, _ := serving(t, config.Default())
	hc := apiClient(socket)
	for i := range 120 {
		r := activity.Record{Type: activity.TypeToolCall, Server: "fs", Tool: "read", Decision: "allow",
			Details: json.RawMessage(`{"flow":{"risk":"none"}}`)}
		if i%3 == 0 {
			r.Server, r.Decision = "slack", "deny"
		}
		d.store.Append(r)
	}
	require.NoError(t, d.store.Flush())

	var seen []uint64
	path := "/api/v1/activity?limit=50"
	for pages := 0; path != ""; pages++ {
		require.Less(t, pages, 4)
		resp := get(t, hc, path)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		var recs []activity.Record
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&recs))
		for _, r := range recs {
			seen = append(seen, r.ID)
		}
		path = ""
		if link := resp.Header.Get("Link"); link != "" {
			require.True(t, strings.HasSuffix(link, `>; rel="next"`), link)
			path = strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
		}
	}
	require.Len(t, seen, 120)
	for i, id := range seen {
		assert.Equal(t, uint64(120-i), id, "newest first, no gap or repeat")
	}

	resp := get(t, hc, "/api/v1/activity/export?server=slack")
	assert.Equal(t, "application/x-ndjson", resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	var n int
	var last uint64
	for sc.Scan() {
		var r activity.Record
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		assert.Greater(t, r.ID, last, "oldest first")
		assert.Equal(t, "slack", r.Server)
		assert.Nil(t, r.Details, "flows only on request")
		last = r.ID
		n++
	}
	assert.Equal(t, 40, n)

	resp = get(t, hc, "/api/v1/activity/export?format=csv&include_flows=true")
	rows, err := csv.NewReader(resp.Body).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 121)
	assert.Equal(t, "details", rows[0][len(rows[0])-1])
	assert.Equal(t, `{"flow":{"risk":"none"}}`, rows[1][len(rows[1])-1])

	for _, bad := range []string{"/api/v1/activity?before=x", "/api/v1/activity?since=yesterday", "/api/v1/activity?type=nope",
		"/api/v1/activity/export?format=xml", "/api/v1/activity/export?limit=5", "/api/v1/events?last_event_id=x"} {
		assert.Equal(t, http.StatusBadRequest, get(t, hc, bad).StatusCode, bad)
	}
}

// sse reads server-sent events: id, event and data of each.
type sse struct{ id, event, data string }

func readEvents(t *testing.T, r *bufio.Reader, n int) []sse {
	t.Helper()
	var out []sse
	var ev sse
	for len(out) < n {
		line, err := r.ReadString('\n')
		require.NoError(t, err, "after %d events", len(out))
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.event != "" {
				out = append(out, ev)
			}
			ev = sse{}
		case strings.HasPrefix(line, "id: "):
			ev.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[6:]
		}
	}
	return out
}

// A decision reaches a live reader as it is committed, alerts under the
// record's ID too; a reader that comes back with Last-Event-ID gets what
// it missed first; stopping flowd ends the stream.
func TestEventStream(t *testing.T) {
	d, socket, stop := serving(t, config.Default())
	hc := apiClient(socket)
	d.store.Append(activity.Record{Type: activity.TypeToolCall, Decision: "allow"})
	require.NoError(t, d.store.Flush())

	resp := get(t, hc, "/api/v1/events")
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	r := bufio.NewReader(resp.Body)
	d.store.Append(activity.Record{Type: activity.TypeToolCall, Server: "slack", Decision: "deny", Verdict: "block"})
	got := readEvents(t, r, 2)
	assert.Equal(t, []string{"activity", "flow.alert"}, []string{got[0].event, got[1].event})
	assert.Equal(t, "2", got[0].id, "the record committed before the stream began is not sent")
	assert.Equal(t, got[0].id, got[1].id)
	var rec activity.Record
	require.NoError(t, json.Unmarshal([]byte(got[1].data), &rec))
	assert.Equal(t, "slack", rec.Server)

	// Missed while away: replayed, then live again.
	d.store.Append(activity.Record{Type: activity.TypeToolCall, Decision: "allow"})
	d.store.Append(activity.Record{Type: activity.TypeMessage, Decision: "allow"})
	require.NoError(t, d.store.Flush())
	req, err := http.NewRequest(http.MethodGet, "http://flowd/api/v1/events?type=tool_call", nil)
	require.NoError(t, err)
	req.Header.Set("Last-Event-ID", "1")
	resp2, err := hc.Do(req)
	require.NoError(t, err)
	defer resp2.Body.Close()
	r2 := bufio.NewReader(resp2.Body)
	got = readEvents(t, r2, 3)
	assert.Equal(t, []string{"2", "2", "3"}, []string{got[0].id, got[1].id, got[2].id}, "filtered: the message record is left out")
	d.store.Append(activity.Record{Type: activity.TypeToolCall, Decision: "warn"})
	got = readEvents(t, r2, 2)
	assert.Equal(t, "5", got[0].id)
	assert.Equal(t, "flow.alert", got[1].event)

	stop()
	_, err = io.Copy(io.Discard, r2)
	assert.NoError(t, err, "the stream ends cleanly when flowd stops")
}

// Live streams are bounded: past maxStreams a reader is answered 503,
// and a stream that ends makes room for the next.
func TestEventStreamCap(t *testing.T) {
	_, socket, _ := serving(t, config.Default())
	hc := apiClient(socket)
	var open []*http.Response
	for range maxStreams {
		resp := get(t, hc, "/api/v1/events")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		open = append(open, resp)
	}
	resp := get(t, hc, "/api/v1/events")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	body, _ := io.ReadAll(resp.Body)
	assert.Contains(t, string(body), "too many live event streams (32)")
	assert.Equal(t, http.StatusOK, get(t, hc, "/api/v1/status").StatusCode, "the rest of the API still answers")

	open[0].Body.Close()
	// flowd ends the stream when it sees the reader gone, which the
	// reader is not told: ask until there is room, bounded.
	deadline := time.Now().Add(time.Minute)
	for {
		resp = get(t, hc, "/api/v1/events")
		if resp.StatusCode == http.StatusOK || time.Now().After(deadline) {
			break
		}
		resp.Body.Close()
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestDiagnostics(t *testing.T) {
	// The user's Claude Code config has a server flowd does not see.
	home := t.TempDir()
	t.Setenv("HOME", home)
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude.json"),
		[]byte(`{"mcpServers":{"github":{"command":"npx","args":["-y","@modelcontextprotocol/server-github"]}}}`), 0o600))
	_, socket, _ := serving(t, config.Default())
	hc := apiClient(socket)
	resp := get(t, hc, "/api/v1/diagnostics")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var body struct {
		Recommendations []flowdclient.Recommendation `json:"recommendations"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	ids := map[string]string{}
	for _, r := range body.Recommendations {
		ids[r.ID] = r.Fix
	}
	assert.Equal(t, "flowd passphrase set", ids["passphrase_unset"])
	assert.Equal(t, "hook install --agent claude-code --scope user", ids["hooks_missing"])
	assert.Contains(t, ids, "no_shims")
	assert.NotContains(t, ids, "unknown_is_internal", "the default config is safe")
	assert.Contains(t, ids["servers_unwrapped"], "shim wrap", "the unwrapped server, with the command that wraps it")
}

// Status JSON keys are lower case, and empty lists are [], not null.
func TestStatusJSONShape(t *testing.T) {
	_, socket, _ := serving(t, config.Default())
	body, err := io.ReadAll(get(t, apiClient(socket), "/api/v1/status").Body)
	require.NoError(t, err)
	s := string(body)
	assert.Contains(t, s, `"shims":[]`)
	assert.Contains(t, s, `"sessions":[]`)
	assert.Contains(t, s, `"activity":{"pending":`)
	assert.NotContains(t, s, "null")
	var st flowdclient.Status
	require.NoError(t, json.Unmarshal(body, &st))
	require.NotNil(t, st.Config, "the config in force")
	assert.Equal(t, "user", st.Config.Mode)
	assert.Equal(t, "'deny'", st.Config.Settings["policy.sensitive_data_external"])
	require.NotNil(t, st.Service)
}
