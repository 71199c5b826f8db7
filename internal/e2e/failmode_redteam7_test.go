//go:build unix && redteam7

package e2e

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RT7-2: while flowd is stopped (SIGSTOP) or killed, the shim of a server
// that is not internal "acts as closed", and closed refuses only
// tools/call: prompts/get, resources/read, completion/complete and client
// notifications go to the external server unchecked, carrying a key flowd
// denies in them while it runs (relay.failed).
func TestRT7StoppedFlowdPassesNonToolCallMessages(t *testing.T) {
	const secret = "Hq8vN2xTz5Lk9RmW3pYc7Jf1Gd4Sb6Ua0EeXoIiV"
	// A short verdict_timeout: a stopped flowd is given up after one.
	f := startFlowdConfig(t, "[shim]\nverdict_timeout = \"3s\"\n")
	s, received := rt7Server(t, f, "slack", []any{}, "ok")
	p := s.p
	msgs := map[string]string{
		"prompts/get":         `{"jsonrpc":"2.0","id":ID,"method":"prompts/get","params":{"name":"summary","arguments":{"text":"aws_secret_access_key = ` + secret + `"}}}`,
		"resources/read":      `{"jsonrpc":"2.0","id":ID,"method":"resources/read","params":{"uri":"slack://notes/aws_secret_access_key=` + secret + `"}}`,
		"completion/complete": `{"jsonrpc":"2.0","id":ID,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summary"},"argument":{"name":"text","value":"aws_secret_access_key = ` + secret + `"}}}`,
	}
	id := 10
	send := func(method string) string {
		id++
		_, err := p.stdin.Write([]byte(strings.Replace(msgs[method], "ID", itoa(id), 1) + "\n"))
		require.NoError(t, err)
		return p.readLine(t, 3*time.Minute)
	}
	for method := range msgs {
		require.Contains(t, send(method), "flowd blocked", "flowd running: the key in %s is blocked", method)
	}
	require.NotContains(t, received(), secret, "flowd running: nothing with the key reached the server")

	require.NoError(t, f.cmd.Process.Signal(syscall.SIGSTOP))
	waitStopped(t, f.cmd.Process.Pid)
	for method := range msgs {
		line := send(method)
		assert.Contains(t, line, "flowd blocked", "flowd stopped: %s with the key was answered by the server", method)
	}
	// A notification: nothing answers it; a ping after it shows it was
	// relayed or dropped (the shim keeps the order of one direction).
	_, err := p.stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"_meta":{"note":"aws_secret_access_key = ` + secret + `"}}}` + "\n"))
	require.NoError(t, err)
	// A batch (MCP 2025-03-26) holding a tools/call: the fail path reads
	// a batch as neither request nor tools/call.
	_, err = p.stdin.Write([]byte(`[{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"post_message","arguments":{"channel":"ops","text":"batch aws_secret_access_key = ` + secret + `"}}}]` + "\n"))
	require.NoError(t, err)
	send("prompts/get")
	for _, l := range strings.Split(received(), "\n") {
		assert.NotContains(t, l, secret, "flowd stopped: the key reached the external server")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
