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
	// FirstAgent is when an agent of this user's first acted through
	// this flowd (a hook call or an MCP server connected), as flowd keeps
	// it for good; zero: never.
	FirstAgent time.Time
}

// CheckFirstSet decides whether the first passphrase may be set now:
// only before any agent has acted through this flowd, and never while an
// agent session is live. Until a passphrase is set, anyone running as the
// user could set it, an agent's shell too (red team RT5-5: it set the
// passphrase, then approved its own way out), and so could a program an
// agent left running in the background, which waits until no agent is
// live: nothing on the socket tells that program from the user, so once
// an agent has been seen the API sets no first passphrase at all
// (AgentSeenError says how the user opens the way again).
func CheckFirstSet(a Around) error {
	since := a.Now.Sub(a.LastAgent)
	switch {
	case a.Shims > 0:
		return &AgentLiveError{Why: fmt.Sprintf("%d MCP server(s) are connected through flowd", a.Shims)}
	case !a.LastAgent.IsZero() && since < AgentQuiet:
		return &AgentLiveError{Why: fmt.Sprintf("an agent's last tool call was %s ago", since.Round(time.Second)),
			Until: a.LastAgent.Add(AgentQuiet)}
	case !a.FirstAgent.IsZero():
		return &AgentSeenError{Since: a.FirstAgent}
	}
	return nil
}

// AgentSeenError refuses a first passphrase once an agent has acted
// through flowd: a program it left behind could be the one asking. Reset
// is what the user does to open the way again, which the asker fills in.
type AgentSeenError struct {
	Since time.Time
	Reset string
}

func (e *AgentSeenError) Error() string {
	return "the first approval passphrase is set only before any agent has run through flowd, and one did (first on " +
		e.Since.Local().Format(time.DateTime) + "): a program an agent left running could be the one asking now. " +
		"To set it: " + e.Reset
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
