// Package localsock is flowd's local Unix socket: created private to its
// user, and checked at both ends, so no other local user can talk to flowd
// or pretend to be it.
//
// The socket lives in a 0700 directory and is itself 0600; on top of that
// each accepted connection's peer uid is checked (SO_PEERCRED on Linux,
// getpeereid elsewhere), and a client checks the listener's uid the same
// way, because the fallback directory under /tmp could be created by
// anyone first.
package localsock
