package shim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// BenchmarkGrantCovers is the shim's check of a granted call, which a
// request waits for before it goes to the server: the one step of the
// internal path that the external one does not take. Nearly all of it is
// unwrap.Views of the arguments (the bench's 1 KB echo message), and on
// the shim's one scheduler slot what it allocates sets how often the
// shim stops for a collection, which a round trip's tail feels. The
// grant lists the default config's suspicious hosts and names of guarded
// files, as flowd's do: with none, the host search and the name search
// would not run.
func BenchmarkGrantCovers(b *testing.B) {
	g := newGrant(shimproto.Grant{Tools: []string{"echo"}, Hosts: config.Default().Policy.SuspiciousEndpoints,
		Guarded: []string{".claude", ".codex", ".cursor", ".gemini", "approval.json", "audit.key", "flowd",
			"/home/u/.config/flowd", "/home/u/.local/share/flowd", "/run/user/1000/flowd", "/home/u/.claude/settings.json"}})
	if g.hosts.Empty() {
		b.Fatal("the default config lists no suspicious hosts")
	}
	msg := strings.Repeat("the quick brown fox jumps over the lazy dog while a daemon watches the stream ", 14)[:1024]
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":%q}}}`+"\n", msg)
	b.ReportAllocs()
	for b.Loop() {
		if !g.covers(line, 1<<20) {
			b.Fatal("the grant does not cover the call")
		}
	}
}
