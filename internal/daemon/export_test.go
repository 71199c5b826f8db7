package daemon

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/syslogexport"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// frames reads octet-counted syslog messages (RFC 6587) from the first
// connection to l.
func frames(t *testing.T, l net.Listener) <-chan string {
	out := make(chan string, 100)
	go func() {
		defer close(out)
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		for {
			n, err := br.ReadString(' ')
			if err != nil {
				return
			}
			size, err := strconv.Atoi(strings.TrimSuffix(n, " "))
			if err != nil {
				return
			}
			b := make([]byte, size)
			if _, err := io.ReadFull(br, b); err != nil {
				return
			}
			out <- string(b)
		}
	}()
	return out
}

func exportingTo(addr string) *config.Config {
	c := config.Default()
	c.Export.Syslog.Enabled, c.Export.Syslog.Address = true, addr
	return c
}

// A call's record reaches the SIEM with its decision and chain
// position, and status shows the exporter.
func TestExportedRecord(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	got := frames(t, l)
	d, _ := startAt(t, t.TempDir(), exportingTo(l.Addr().String()))

	fs := upstream.NewStream(1, shimproto.Hello{Name: "filesystem"}, "cc")
	judgetest.CallAndAnswer(d.judge, fs, 1, "read_text_file", `{"path":"/tmp/notes.txt"}`, "hello")
	require.NoError(t, d.store.Flush())
	var msg string
	for m := range got {
		if strings.Contains(m, " tool_call [") {
			msg = m
			break
		}
	}
	require.NotEmpty(t, msg, "no tool_call record arrived")
	assert.Contains(t, msg, "["+syslogexport.SDID+" id=")
	assert.Contains(t, msg, `server="filesystem" tool="read_text_file"`)
	assert.Regexp(t, `chain_seq="\d+" hash="[0-9a-f]{64}"`, msg)

	var st flowdclient.Status
	require.NoError(t, json.Unmarshal(api(d, "GET", "/api/v1/status", "").Body.Bytes(), &st))
	require.NotNil(t, st.Export)
	assert.True(t, st.Export.Enabled)
	assert.Equal(t, l.Addr().String(), st.Export.Endpoint)
}

// Cutting export, or sending it elsewhere, is held for the passphrase:
// an agent must not stop the evidence leaving the machine.
func TestExportOffIsHeld(t *testing.T) {
	d, _ := startAt(t, t.TempDir(), exportingTo("127.0.0.1:1"))
	require.Equal(t, 200, api(d, "POST", "/api/v1/passphrase", `{"new":"`+testPass+`"}`).Code)
	var held *HeldError
	require.ErrorAs(t, d.Reload(config.Default()), &held)
	assert.Contains(t, held.Error(), "export.syslog.enabled")
	require.ErrorAs(t, d.Reload(exportingTo("evil.example:514")), &held)
	assert.True(t, d.export.Status().Enabled)
	assert.Equal(t, "127.0.0.1:1", d.export.Status().Endpoint, "the exporter keeps its receiver")
}
