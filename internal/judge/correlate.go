package judge

import (
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
// also puts in the call's _meta; the shim's tools/call that follows finds
// it.
//
// Only the tool_use_id joins, and only when one session announced it. A
// call's tool and arguments, which once joined too, are the agent's to
// choose: any same-user process could announce, under a session it
// names, the call the agent was about to make, and the shim then left the
// session that had read the data for one that had read nothing (red team
// RT6). The id is made for the call, but it is in the agent's transcript
// before its hook runs: an id that a second session announces, racing
// the real hook, joins nothing.
type correlator struct {
	mu      sync.Mutex
	pending map[string]announced // by tool_use_id
}

type announced struct {
	session string
	expires time.Time
	shared  bool // announced by another session too: ambiguous
}

func (c *correlator) announce(now time.Time, session, toolUseID string) {
	if toolUseID == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = make(map[string]announced)
	}
	c.sweep(now)
	exp := now.Add(correlationTTL)
	if a, ok := c.pending[toolUseID]; ok && (a.shared || a.session != session) {
		c.pending[toolUseID] = announced{expires: exp, shared: true}
		return
	}
	c.pending[toolUseID] = announced{session: session, expires: exp}
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
func (c *correlator) match(now time.Time, params []byte) (string, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sweep(now); len(c.pending) == 0 {
		return "", "" // no hook announced a call lately: spare reading _meta
	}
	if id := toolUseID(params); id != "" {
		if a, ok := c.pending[id]; ok && now.Before(a.expires) {
			if a.shared {
				return "", Contested
			}
			return a.session, "tool_use_id"
		}
	}
	return "", ""
}

// Contested is how Announced says that the call's tool_use_id was
// announced by more than one session, so it joins none. Anyone running
// as the user can announce an id a second time to keep the real call out
// of its session, where it would be judged without what the session read:
// such a call is judged as carrying internal data (Call.Unjoined).
const Contested = "contested"

// UnjoinedSource names, among an analysis' sources, what a call whose
// session could not be told may carry.
const UnjoinedSource = "the data of the agent session that made this call, which flowd could not tell: its tool_use_id was announced by more than one session"

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
