package approval

import (
	"fmt"
	"time"
)

// AgentQuiet is how long after an agent's last tool call flowd still
// counts its session as live. It outlasts the longest command an agent's
// shell runs in the foreground (Claude Code's Bash tool stops one after
// at most 10 minutes), so an agent cannot run `sleep 300; flowd
// passphrase set` and find the way clear when it wakes.
const AgentQuiet = 11 * time.Minute

// Around is what flowd sees of agents when a first passphrase is asked
// to be set.
type Around struct {
	Now       time.Time
	LastAgent time.Time // an agent's last tool call, seen by its hook; zero: none seen
	Shims     int       // MCP servers connected through flowd for this user
}

// CheckFirstSet decides whether the first passphrase may be set now: only
// while no agent session is live. Until a passphrase is set, anyone
// running as the user could set it, an agent's shell too (red team
// RT5-5: it set the passphrase, then approved its own way out); an agent
// at work is seen, by its tool calls or its connected MCP servers.
func CheckFirstSet(a Around) error {
	since := a.Now.Sub(a.LastAgent)
	switch {
	case a.Shims > 0:
		return &AgentLiveError{Why: fmt.Sprintf("%d MCP server(s) are connected through flowd", a.Shims)}
	case !a.LastAgent.IsZero() && since < AgentQuiet:
		return &AgentLiveError{Why: fmt.Sprintf("an agent's last tool call was %s ago", since.Round(time.Second)),
			Until: a.LastAgent.Add(AgentQuiet)}
	}
	return nil
}

// AgentLiveError refuses a first passphrase while an agent session is live.
type AgentLiveError struct {
	Why   string
	Until time.Time // when the way is clear if no agent acts; zero: when the servers disconnect
}

func (e *AgentLiveError) Error() string {
	when := "once they disconnect"
	if !e.Until.IsZero() {
		when = "after " + e.Until.Local().Format(time.TimeOnly) + " if no agent acts before"
	}
	return "the first approval passphrase is set only while no agent session is live, so that an agent cannot set it for itself, and " +
		e.Why + ": quit your agents (Claude Code, Cursor, …) and run `flowd passphrase set` in a terminal " + when
}
