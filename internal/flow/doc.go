// Package flow tracks where data came from within an agent session and
// finds it again when it leaves.
//
// Every tool result (and resources/read, prompts/get) of a session is an
// origin: which server and tool produced it, how that destination is
// classified, the secrets in it and its fingerprints. An outgoing call is
// checked against the session's origins; each origin found in it is an
// edge with a flow type (internal→external…) and a risk. The state lives in
// memory, bounded per session, and a session idle too long is summarised
// and dropped.
//
// A session can also be tainted: marked as exposed to content flagged as
// prompt injection from outside, which policy uses to harden the flows
// that follow.
package flow
