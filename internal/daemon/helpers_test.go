package daemon

import (
	"encoding/json"
	"fmt"
	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
	"github.com/stretchr/testify/require"
	"testing"
)

// Helpers shared with the upstream package's tests, for the tests here
// that judge shim messages beside hook events and API requests.

func callAndAnswer(d *Daemon, u *upstream.Stream, id int, tool, args, resultText string) shimproto.Verdict {
	v := judgeMsg(d, u, msg(c2s, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)))
	if v.Action == shimproto.Pass {
		text, _ := json.Marshal(resultText)
		judgeMsg(d, u, msg(s2c, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}]}}`, id, text)))
	}
	return v
}

func blockedText(t *testing.T, v shimproto.Verdict) string {
	t.Helper()
	require.Equal(t, shimproto.Respond, v.Action, "the call must be blocked")
	var r struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	require.NoError(t, json.Unmarshal(v.Data, &r))
	return r.Result.Content[0].Text
}

const awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

func requireAction(t *testing.T, d *Daemon, text string, want injection.Action) {
	t.Helper()
	res, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	got := d.current().Scanner.ScanResult(res, injection.Context{ExternalSource: true, Server: "fetch", Tool: "fetch"})
	require.Equal(t, want, got.Action, "the scanner's verdict on %q changed (%s); pick another text for this test", text, got)
}

func answer(t *testing.T, d *Daemon, u *upstream.Stream, request, response string) shimproto.Verdict {
	t.Helper()
	require.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, request)).Action, "request")
	return judgeMsg(d, u, msg(s2c, response))
}

func fetchCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"https://example.org"}}}`, id)
}

func textResult(id int, text string) string {
	b, _ := json.Marshal(text)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}]}}`, id, b)
}

func lastRecord(t *testing.T, d *Daemon, typ string) (activity.Record, *flowdclient.Injection) {
	t.Helper()
	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: typ, Limit: 1})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	var det struct {
		Injection *flowdclient.Injection `json:"injection"`
	}
	require.NoError(t, json.Unmarshal(recs[0].Details, &det))
	return recs[0], det.Injection
}

func toolNames(t *testing.T, v shimproto.Verdict, original string) []string {
	t.Helper()
	data := []byte(original)
	if v.Action == shimproto.Replace {
		data = v.Data
	} else {
		require.Equal(t, shimproto.Pass, v.Action)
	}
	var r struct {
		Result struct {
			Tools []struct{ Name string }
		}
	}
	require.NoError(t, json.Unmarshal(data, &r))
	var names []string
	for _, tl := range r.Result.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func addCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`, id)
}
