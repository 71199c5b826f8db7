package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
)

// correlationTTL is how long a hook's PreToolUse waits to be matched with
// the MCP call it announced.
const correlationTTL = 5 * time.Second

// correlator joins a shim to the agent session of the hooks when the two
// could not name the same session themselves (an agent that does not pass
// CLAUDE_CODE_SESSION_ID to its MCP servers). A PreToolUse for an MCP tool
// is remembered for a few seconds by its tool_use_id, which Claude Code
// also puts in the call's _meta, and by a hash of tool and arguments; the shim's tools/call that follows finds it. An argument hash
// that two sessions announced at once joins nothing: sessions never cross.
type correlator struct {
	mu      sync.Mutex
	pending map[string]announced
}

type announced struct {
	session string
	expires time.Time
	shared  bool // the same argument hash from another session: ambiguous
}

func (c *correlator) announce(now time.Time, session, toolUseID, tool string, args []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = make(map[string]announced)
	}
	c.sweep(now)
	exp := now.Add(correlationTTL)
	if toolUseID != "" {
		c.pending["id:"+toolUseID] = announced{session: session, expires: exp}
	}
	k := argsKey(tool, args)
	if a, ok := c.pending[k]; ok && a.session != session && now.Before(a.expires) {
		c.pending[k] = announced{expires: exp, shared: true}
		return
	}
	c.pending[k] = announced{session: session, expires: exp}
}

// sweep forgets announcements past their time.
func (c *correlator) sweep(now time.Time) {
	for k, a := range c.pending {
		if now.After(a.expires) {
			delete(c.pending, k)
		}
	}
}

// match returns the hook session that announced this call, if any, and how
// it was matched.
func (c *correlator) match(now time.Time, params []byte, tool string, args []byte) (string, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sweep(now); len(c.pending) == 0 {
		return "", "" // no hook announced a call lately: spare the canonical hash
	}
	if id := toolUseID(params); id != "" {
		if a, ok := c.pending["id:"+id]; ok && now.Before(a.expires) {
			return a.session, "tool_use_id"
		}
	}
	if a, ok := c.pending[argsKey(tool, args)]; ok && now.Before(a.expires) && !a.shared {
		return a.session, "argument hash"
	}
	return "", ""
}

// toolUseID reads params._meta["claudecode/toolUseId"].
func toolUseID(params []byte) string {
	meta, ok := jsonrpc.Member(params, "_meta")
	if !ok {
		return ""
	}
	v, ok := jsonrpc.Member(meta, "claudecode/toolUseId")
	if !ok {
		return ""
	}
	var id string
	json.Unmarshal(v, &id)
	return id
}

// argsKey hashes a call so that the hook's tool_input and the shim's
// arguments agree whatever their key order and spacing. The server is
// left out: the agent's name for it and the shim's may differ.
func argsKey(tool string, args []byte) string {
	var v any
	canon := args
	if json.Unmarshal(args, &v) == nil {
		canon, _ = json.Marshal(v) // maps marshal with sorted keys
	}
	sum := sha256.Sum256(append([]byte(tool+"\x00"), canon...))
	return "args:" + hex.EncodeToString(sum[:16])
}
