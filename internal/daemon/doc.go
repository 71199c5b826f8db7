// Package daemon is flowd itself: it owns the socket, the shims connected
// to it, the per-server protocol bookkeeping (which request each response
// answers, which protocol era a stream speaks), the policy decisions and
// the activity log, and serves the local API the CLI and hooks use.
package daemon
